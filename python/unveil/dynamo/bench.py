"""Overhead of prepare_debug on torch.compile wall time.

    python -m unveil.dynamo.bench [--backends aot_eager,inductor] [--runs 5]
                                  [--layers 12 --d-model 768] [--profile]

Each run is a fresh process that compiles a BERT-base sized encoder (random
weights; forward and backward) and times the first forward+backward, which is
where torch.compile does all its work. A "plain" run does it with Inductor's
caches off; a "prepare_debug" run does it inside prepare_debug, which turns off
the same caches, so both do the same compile work. Plain and prepare_debug runs
alternate (one warm-up pair first, not counted, fills the kernel build cache
both share), so a load change on a shared machine hits both alike; the table
gives medians. ``--profile`` prints where a prepare_debug run spends its time.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from typing import Dict, List

_CHILD = r'''
import json, resource, sys, tempfile, time
import torch
import torch._inductor.config as inductor_config
import unveil.dynamo as ud
layers, d, backend, mode = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
torch.manual_seed(0)
layer = torch.nn.TransformerEncoderLayer(d_model=d, nhead=max(1, d // 64), dim_feedforward=4 * d,
                                         batch_first=True)
model = torch.nn.TransformerEncoder(layer, num_layers=layers, enable_nested_tensor=False)
x = torch.randn(2, 128, d)
compiled = torch.compile(model, backend=backend)

def cpu():
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime

def step():
    compiled(x).sum().backward()

if mode == "profile":
    import cProfile, pstats
    prof = cProfile.Profile()
    with tempfile.TemporaryDirectory(prefix="unveil_bench_") as out, ud.prepare_debug(out):
        prof.runcall(step)
    pstats.Stats(prof, stream=sys.stdout).sort_stats("cumulative").print_stats(60)
    sys.exit(0)
with tempfile.TemporaryDirectory(prefix="unveil_bench_") as out:
    t0, c0 = time.perf_counter(), cpu()
    if mode == "dump":
        with ud.prepare_debug(out):
            step()
    else:  # the same caches off as prepare_debug turns off
        with inductor_config.patch(force_disable_caches=True):
            step()
    wall, used = time.perf_counter() - t0, cpu() - c0
print("BENCH", json.dumps({"mode": mode, "seconds": wall, "cpu": used}))
'''

_PARTS = re.compile(r"\(decompiling ([\d.]+) s, writing ([\d.]+) s, structured trace ([\d.]+) s\)")


def _run(layers: int, d: int, backend: str, mode: str, env: Dict[str, str]) -> Dict[str, float]:
    r = subprocess.run([sys.executable, "-c", _CHILD, str(layers), str(d), backend, mode],
                       capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise SystemExit(f"benchmark run ({backend}, {mode}) failed:\n{r.stderr[-3000:]}")
    if mode == "profile":
        print(r.stdout)
        return {}
    res = json.loads(next(ln for ln in r.stdout.splitlines() if ln.startswith("BENCH"))[6:])
    m = _PARTS.search(r.stderr)
    if mode == "dump" and m is None:
        raise SystemExit(f"no unveil summary line in a prepare_debug run:\n{r.stderr[-3000:]}")
    if m:
        res["decompile"], res["write"], res["trace"] = (float(g) for g in m.groups())
    return res


def _median(rows: List[Dict[str, float]], key: str) -> float:
    return statistics.median(r.get(key, 0.0) for r in rows)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backends", default="aot_eager,inductor", help="comma-separated")
    ap.add_argument("--runs", type=int, default=5, help="plain/prepare_debug pairs per backend")
    ap.add_argument("--layers", type=int, default=12)
    ap.add_argument("--d-model", type=int, default=768)
    ap.add_argument("--profile", action="store_true", help="cProfile one prepare_debug run per backend")
    a = ap.parse_args()
    backends = [b for b in a.backends.split(",") if b]
    with tempfile.TemporaryDirectory(prefix="unveil_bench_cache_") as cache:
        # one kernel build cache for all runs of this benchmark, not the user's
        env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=cache)
        if a.profile:
            for b in backends:
                print(f"=== cProfile of one prepare_debug run, backend {b}")
                _run(a.layers, a.d_model, b, "profile", env)
            return 0
        rows = []
        for b in backends:
            _run(a.layers, a.d_model, b, "plain", env)  # warm-up pair, not counted
            _run(a.layers, a.d_model, b, "dump", env)
            plain: List[Dict[str, float]] = []
            dump: List[Dict[str, float]] = []
            for i in range(a.runs):  # alternating, so load changes hit both alike
                plain.append(_run(a.layers, a.d_model, b, "plain", env))
                dump.append(_run(a.layers, a.d_model, b, "dump", env))
                print(f"{b} run {i + 1}: plain {plain[-1]['seconds']:.2f} s, "
                      f"prepare_debug {dump[-1]['seconds']:.2f} s", file=sys.stderr, flush=True)
            rows.append((b, plain, dump))
    print(f"prepare_debug overhead on the first forward+backward of torch.compile: "
          f"{a.layers} layers, d_model {a.d_model}, batch 2 x 128; median of {a.runs} alternating runs")
    head = ("backend", "plain s", "prep_debug s", "overhead", "cpu overhead", "decompile s", "write s",
            "trace s", "else s")
    print("{:<10} {:>8} {:>12} {:>9} {:>12} {:>11} {:>8} {:>8} {:>7}".format(*head))
    for b, plain, dump in rows:
        p, d = _median(plain, "seconds"), _median(dump, "seconds")
        pc, dc = _median(plain, "cpu"), _median(dump, "cpu")
        dec, wr, tr = _median(dump, "decompile"), _median(dump, "write"), _median(dump, "trace")
        print(f"{b:<10} {p:>8.2f} {d:>12.2f} {100 * (d - p) / p:>+8.1f}% {100 * (dc - pc) / pc:>+11.1f}% "
              f"{dec:>11.3f} {wr:>8.3f} {tr:>8.3f} {d - p - dec - wr - tr:>7.2f}")
    print("overhead: of the median wall times. cpu overhead: of the median CPU times (user+sys of the\n"
          "run and its finished child processes; not Inductor's compile-worker pool), less sensitive to\n"
          "other load. decompile/write/trace: medians of prepare_debug's own account: decompiling,\n"
          "writing files, torch building the structured-trace payloads it listens to. else s: the\n"
          "wall-time difference minus those three (hooks, graph-code compiling, noise).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
