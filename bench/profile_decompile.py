"""Where unveil's fixed per-call cost goes: time the stages of one call, per code object.

    python bench/profile_decompile.py                    # 1000-object sample of Lib/*.py (like decompile_vs_depyf.py)
    python bench/profile_decompile.py --loop 20          # then keep decompiling the sample for 20 s (attach perf)
    python bench/profile_decompile.py --dynamo           # Python 3.10: the Dynamo corpus objects with most locals

Per code object (nested code included, as unveil.decompile does), the best of
--repeat CPU-time timings, batched under 0.2 ms, of:

* marshal: ``unveil._live.marshal_code`` (the Python side of a call);
* read+decode: ``_core.decode_stats`` (marshal read, decode, every argument resolved; no Python objects);
* decompile: ``unveil.decompile`` (all of it).

Prints the medians and quartiles, and the objects where decompile costs most
per instruction. Only unveil is timed: no depyf needed.
"""
import argparse
import os
import random
import statistics
import sys
import time
import types
from typing import Callable, List, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from decompile_vs_depyf import DEFAULT_CORPUS, Sample, dynamo_samples, stdlib_samples  # noqa: E402


def best_time(call: Callable[[], object], repeat: int) -> float:
    start = time.process_time()
    call()
    first = time.process_time() - start
    batch = 1 if first >= 2e-4 else min(200, int(2e-4 / max(first, 1e-7)) + 1)
    best = first
    for _ in range(repeat - 1):
        start = time.process_time()
        for _ in range(batch):
            call()
        best = min(best, (time.process_time() - start) / batch)
    return best


def units(code: types.CodeType) -> int:
    total = len(code.co_code) // 2
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            total += units(c)
    return total


def quartiles(values: List[float]) -> Tuple[float, float, float]:
    if len(values) < 2:
        return (values[0],) * 3 if values else (float("nan"),) * 3
    q = statistics.quantiles(values, n=4)
    return q[0], q[1], q[2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=1000, help="random sample size; 0 = all")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--dynamo", action="store_true", help="the Dynamo corpus (Python 3.10 only)")
    parser.add_argument("--corpus", default=DEFAULT_CORPUS)
    parser.add_argument("--most-locals", type=int, default=3, help="with --dynamo: objects with most co_varnames")
    parser.add_argument("--loop", type=float, default=0.0, help="then decompile the sample for this many seconds")
    parser.add_argument("--worst", type=int, default=5)
    parser.add_argument("--max-units", type=int, default=0,
                        help="keep only objects of at most this many code units (nested included); 0 = all")
    args = parser.parse_args()

    import unveil
    from unveil import _core
    from unveil._live import marshal_code

    if args.dynamo:
        if sys.version_info[:2] != (3, 10):
            raise SystemExit("--dynamo: the corpus is CPython 3.10 bytecode; run it with Python 3.10")
        samples: List[Sample] = dynamo_samples(args.corpus)
        samples.sort(key=lambda s: -len(s.code.co_varnames))
        samples = samples[: args.most_locals]
    else:
        samples = stdlib_samples()
        if args.max_units:
            samples = [s for s in samples if units(s.code) <= args.max_units]
        if args.limit and args.limit < len(samples):
            samples = random.Random(args.seed).sample(samples, args.limit)

    rows = []  # (name, units, marshal s, read+decode s, decompile s)
    for s in samples:
        code = s.code
        m = marshal_code(code)
        try:
            unveil.decompile(code)
        except Exception as e:  # shown, not hidden
            print(f"  unveil failed: {s.name}: {type(e).__name__}: {e}"[:200], file=sys.stderr)
            continue
        t_marshal = best_time(lambda: marshal_code(code), args.repeat)
        t_decode = (best_time(lambda: _core.decode_stats(m.data, m.minor), args.repeat)
                    if not m.placeholder_prefix else float("nan"))
        t_all = best_time(lambda: unveil.decompile(code), args.repeat)
        rows.append((s.name, units(code), t_marshal, t_decode, t_all, len(code.co_varnames)))

    print(f"Python {sys.version.split()[0]}: {len(rows)} code objects, best of {args.repeat}, CPU time\n")
    print("| stage | p25 | median | p75 |")
    print("|---|---|---|---|")
    for label, k in (("marshal (Python)", 2), ("read+decode (C++)", 3), ("decompile (all)", 4)):
        values = [r[k] for r in rows if r[k] == r[k]]
        q1, q2, q3 = quartiles(values)
        print(f"| {label} | {q1 * 1e6:.1f} µs | {q2 * 1e6:.1f} µs | {q3 * 1e6:.1f} µs |")
    if args.dynamo:
        print()
        for name, n, tm, td, ta, nv in rows:
            print(f"  {name}: {n} code units, {nv} co_varnames: marshal {tm * 1e6:.0f} µs, "
                  f"read+decode {td * 1e6:.0f} µs, decompile {ta * 1e6:.0f} µs")
    elif args.worst:
        print("\nhighest decompile time per code unit:")
        for name, n, tm, td, ta, nv in sorted(rows, key=lambda r: -r[4] / max(r[1], 1))[: args.worst]:
            print(f"  {ta / max(n, 1) * 1e6:6.2f} µs/unit  {name}  {n} code units, decompile {ta * 1e6:.0f} µs")

    if args.loop > 0:  # a steady workload for perf record -p / callgrind
        codes = [s.code for s in samples]
        end = time.perf_counter() + args.loop
        calls = 0
        while time.perf_counter() < end:
            for c in codes:
                unveil.decompile(c)
            calls += len(codes)
        print(f"\nlooped: {calls} calls in {args.loop:g} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
