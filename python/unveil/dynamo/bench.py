"""Overhead of prepare_debug on torch.compile wall time.

    python -m unveil.dynamo.bench [--backend aot_eager] [--runs 5] [--layers 12 --d-model 768]

Each run is a fresh process that compiles a BERT-base sized encoder (random
weights; forward and backward) once without and once under prepare_debug, with
Inductor's caches off in both so every graph pass runs. Prints the median times,
the overhead, and the time prepare_debug spent decompiling and writing files.
"""
import argparse
import json
import re
import statistics
import subprocess
import sys

_CHILD = r'''
import json, sys, tempfile, time, torch
import torch._inductor.config as inductor_config
import unveil.dynamo as ud
layers, d, backend, mode = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
torch.manual_seed(0)
layer = torch.nn.TransformerEncoderLayer(d_model=d, nhead=max(1, d // 64), dim_feedforward=4 * d,
                                         batch_first=True)
model = torch.nn.TransformerEncoder(layer, num_layers=layers, enable_nested_tensor=False)
x = torch.randn(2, 128, d)
compiled = torch.compile(model, backend=backend)
t0 = time.perf_counter()
if mode == "dump":
    with ud.prepare_debug(tempfile.mkdtemp(prefix="unveil_bench_")):
        compiled(x).sum().backward()
else:
    with inductor_config.patch(force_disable_caches=True):
        compiled(x).sum().backward()
print("BENCH", json.dumps({"mode": mode, "seconds": time.perf_counter() - t0}))
'''


def _run(layers: int, d: int, backend: str, mode: str) -> dict:
    r = subprocess.run([sys.executable, "-c", _CHILD, str(layers), str(d), backend, mode],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"benchmark run failed:\n{r.stderr[-3000:]}")
    res = json.loads(next(ln for ln in r.stdout.splitlines() if ln.startswith("BENCH"))[6:])
    m = re.search(r"\(decompiling ([\d.]+) s, writing ([\d.]+) s\)", r.stderr)
    if m:
        res["decompile"], res["write"] = float(m.group(1)), float(m.group(2))
    return res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", default="aot_eager")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--layers", type=int, default=12)
    ap.add_argument("--d-model", type=int, default=768)
    a = ap.parse_args()
    plain, dump = [], []
    for i in range(a.runs):  # interleaved, so load changes hit both alike
        plain.append(_run(a.layers, a.d_model, a.backend, "plain"))
        dump.append(_run(a.layers, a.d_model, a.backend, "dump"))
        print(f"run {i + 1}: plain {plain[-1]['seconds']:.2f} s, prepare_debug {dump[-1]['seconds']:.2f} s",
              file=sys.stderr)
    p = statistics.median(r["seconds"] for r in plain)
    d = statistics.median(r["seconds"] for r in dump)
    dec = statistics.median(r.get("decompile", 0.0) for r in dump)
    wr = statistics.median(r.get("write", 0.0) for r in dump)
    print(f"backend {a.backend}, {a.layers} layers, d_model {a.d_model}, median of {a.runs} runs:")
    print(f"  torch.compile alone      {p:8.2f} s")
    print(f"  under prepare_debug      {d:8.2f} s   overhead {100 * (d - p) / p:+.1f}%")
    print(f"    decompiling            {dec:8.3f} s")
    print(f"    writing files          {wr:8.3f} s")
    print(f"    everything else        {max(0.0, d - p - dec - wr):8.3f} s (structured trace, hooks)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
