"""Time to decompile one code object: unveil against depyf 0.20.0, same objects.

Run under Python 3.11 with unveil and depyf 0.20.0 installed in the same
environment (`pip install depyf==0.20.0`):

    python bench/decompile_vs_depyf.py                  # a 1000-object sample of Lib/*.py, 2-3 minutes
    python bench/decompile_vs_depyf.py --limit 0        # every code object of Lib/*.py (long)
    python bench/decompile_vs_depyf.py --dynamo         # Python 3.10 only: add shared/corpus/dynamo-hf

Code objects: every code object (module, class bodies, functions, lambdas,
comprehensions) of each top-level Lib/*.py of the running Python, compiled
from source; with --dynamo also every transformed code object of the Dynamo
corpus and its nested code. That corpus is CPython 3.10 bytecode and depyf
reads only the running Python's bytecode, so it is rebuilt and timed only
under 3.10. --limit picks a fixed random sample (--seed) of them.

Per code object, each tool decompiles the whole object (nested code
included, as both tools do), best of --repeat timings in CPU time of this
process (so that other jobs on the machine count less):
`unveil.decompile(code)` (marshalling and the C++ core; calls shorter than
0.2 ms are timed in batches) and `depyf.decompile(code)` with depyf's
per-code-object cache cleared before every call, so that no run reuses an
earlier result. A code object that either tool fails on (an exception, or
depyf running past --timeout) is counted and left out of the ratios.
The speed-up of an object is depyf's time over unveil's; the table gives its
quartiles. It measures speed only, not whether either output is right.
"""
import argparse
import contextlib
import gc
import io
import os
import random
import signal
import statistics
import sys
import sysconfig
import time
import types
import warnings
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple

from unveil import FALLBACK_MARK  # what unveil prints for a code object it gives up on

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CORPUS = os.path.join(HERE, "..", "..", "shared", "corpus", "dynamo-hf")


@dataclass
class Sample:
    source: str  # "stdlib" or "dynamo"
    name: str
    code: types.CodeType


@dataclass
class Result:
    unveil: List[float] = field(default_factory=list)
    depyf: List[float] = field(default_factory=list)
    ratios: List[float] = field(default_factory=list)
    total: int = 0
    unveil_failed: int = 0
    unveil_fallback: int = 0
    depyf_failed: int = 0
    depyf_timeout: int = 0
    failures: Dict[str, List[str]] = field(default_factory=dict)
    named: List[Tuple[float, str, int, float, float]] = field(default_factory=list)
    """(speed-up, name, instructions, unveil s, depyf s) per timed object."""


def nested(code: types.CodeType, path: str) -> List[Tuple[str, types.CodeType]]:
    out = [(path, code)]
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            out.extend(nested(const, f"{path}/{const.co_name}"))
    return out


def stdlib_samples() -> List[Sample]:
    lib = sysconfig.get_paths()["stdlib"]
    out = []
    for name in sorted(os.listdir(lib)):
        if not name.endswith(".py"):
            continue
        path = os.path.join(lib, name)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                with open(path, "rb") as f:
                    code = compile(f.read(), path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError):
            continue
        out.extend(Sample("stdlib", p, c) for p, c in nested(code, name))
    return out


def dynamo_samples(corpus: str) -> List[Sample]:
    sys.path.insert(0, os.path.join(HERE, "..", "tools"))
    import glob

    from dynamo_corpus import _NoGlobals, build_code  # the corpus loader (3.10 only)

    out = []
    for path in sorted(glob.glob(os.path.join(corpus, "*.pkl"))):
        if path.endswith(".original.pkl"):
            continue
        with open(path, "rb") as f:
            entry = _NoGlobals(f).load()
        if entry.get("kind") == "transformed":
            name = os.path.basename(path)[: -len(".pkl")]
            out.extend(Sample("dynamo", p, c) for p, c in nested(build_code(entry["code"]), name))
    return out


class Timeout(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise Timeout()


def best_time(call: Callable[[], object], repeat: int, timeout: float,
              before: Optional[Callable[[], None]] = None) -> float:
    """Best of ``repeat`` CPU-time timings of ``call``; calls under 0.2 ms
    are repeated in a batch and averaged. Exceptions propagate."""
    if before:
        before()
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        start = time.process_time()
        call()
        first = time.process_time() - start
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    batch = 1 if first >= 2e-4 else min(100, int(2e-4 / max(first, 1e-6)) + 1)
    best = first
    for _ in range(repeat - 1):
        if best > 2.0:  # slow enough that more runs add time, not precision
            break
        if before:  # untimed preparation: one call at a time
            elapsed = 0.0
            for _ in range(batch):
                before()
                start = time.process_time()
                call()
                elapsed += time.process_time() - start
        else:  # one clock reading per batch keeps the timer's cost out
            start = time.process_time()
            for _ in range(batch):
                call()
            elapsed = time.process_time() - start
        best = min(best, elapsed / batch)
    return best


def run(samples: List[Sample], repeat: int, timeout: float) -> Dict[str, Result]:
    import depyf
    from depyf.decompiler import Decompiler

    import unveil

    # depyf caches each Decompiler's result by code object identity; clear it
    # so that every timed call decompiles.
    clear_depyf = Decompiler.decompile.cache_clear
    results: Dict[str, Result] = {}
    signal.signal(signal.SIGALRM, _alarm)
    for k, sample in enumerate(samples):
        for key in (sample.source, "all"):
            results.setdefault(key, Result())
        rows = [results[sample.source], results["all"]]
        for r in rows:
            r.total += 1
        code = sample.code
        try:
            text = unveil.decompile(code)
            t_unveil = best_time(lambda: unveil.decompile(code), repeat, timeout)
        except Exception as e:  # counted and shown, never hidden
            for r in rows:
                r.unveil_failed += 1
                r.failures.setdefault("unveil", []).append(f"{sample.name}: {type(e).__name__}: {e}"[:200])
            continue
        if FALLBACK_MARK in text:
            for r in rows:
                r.unveil_fallback += 1
        try:
            with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):  # depyf prints notes
                warnings.simplefilter("ignore")
                t_depyf = best_time(lambda: depyf.decompile(code), repeat, timeout, clear_depyf)
        except Timeout:
            for r in rows:
                r.depyf_timeout += 1
                r.failures.setdefault("depyf", []).append(f"{sample.name}: timeout after {timeout:g}s")
            continue
        except Exception as e:
            cause = e.__cause__ or e
            for r in rows:
                r.depyf_failed += 1
                r.failures.setdefault("depyf", []).append(
                    f"{sample.name}: {type(e).__name__}: {e} ({type(cause).__name__}: {cause})"[:200])
            continue
        finally:
            clear_depyf()
        for r in rows:
            r.unveil.append(t_unveil)
            r.depyf.append(t_depyf)
            r.ratios.append(t_depyf / t_unveil)
            r.named.append((t_depyf / t_unveil, sample.name, len(code.co_code) // 2, t_unveil, t_depyf))
        if (k + 1) % 100 == 0:
            print(f"  {k + 1}/{len(samples)} code objects timed", file=sys.stderr)
    return results


def quartiles(values: List[float]) -> Tuple[float, float, float]:
    if len(values) < 2:
        v = values[0] if values else float("nan")
        return v, v, v
    q1, q2, q3 = statistics.quantiles(values, n=4)
    return q1, q2, q3


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=int, default=1000, help="random sample size; 0 = every code object")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=5, help="best of this many timings")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds before a depyf call counts as failed")
    parser.add_argument("--dynamo", action="store_true", help="add the Dynamo corpus (Python 3.10 only)")
    parser.add_argument("--no-stdlib", action="store_true")
    parser.add_argument("--corpus", default=DEFAULT_CORPUS)
    parser.add_argument("--show", type=int, default=5, help="failures to show per tool")
    parser.add_argument("--worst", type=int, default=5, help="code objects with the lowest speed-up to list")
    args = parser.parse_args()

    import depyf

    version = "%d.%d" % sys.version_info[:2]
    if version != "3.11":
        print(f"note: the issue's figure is for Python 3.11; this is {version}", file=sys.stderr)
    samples: List[Sample] = [] if args.no_stdlib else stdlib_samples()
    if args.dynamo:
        if sys.version_info[:2] != (3, 10):
            raise SystemExit("--dynamo: the corpus is CPython 3.10 bytecode, which depyf reads only under 3.10")
        samples += dynamo_samples(args.corpus)
    population = len(samples)
    if args.limit and args.limit < population:
        samples = random.Random(args.seed).sample(samples, args.limit)
    print(f"Python {sys.version.split()[0]}, depyf {depyf.__version__}: {len(samples)} of {population} code objects,"
          f" best of {args.repeat}", file=sys.stderr)

    gc.collect()
    start = time.perf_counter()
    results = run(samples, args.repeat, args.timeout)
    elapsed = time.perf_counter() - start

    print(f"\nPython {version}, depyf {depyf.__version__}, {len(samples)} of {population} code objects "
          f"(seed {args.seed}), best of {args.repeat}, {elapsed:.0f}s\n")
    print("| code objects | n | unveil failed | unveil fallback | depyf failed | timed both |"
          " unveil median | depyf median | speed-up p25 | median | p75 | min |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for key in sorted(results, key=lambda k: k == "all"):
        r = results[key]
        q1, q2, q3 = quartiles(r.ratios)
        u = statistics.median(r.unveil) * 1e6 if r.unveil else float("nan")
        d = statistics.median(r.depyf) * 1e6 if r.depyf else float("nan")
        low = min(r.ratios) if r.ratios else float("nan")
        failed = f"{r.depyf_failed + r.depyf_timeout}" + (f" ({r.depyf_timeout} timeouts)" if r.depyf_timeout else "")
        print(f"| {key} | {r.total} | {r.unveil_failed} | {r.unveil_fallback} | {failed} | {len(r.ratios)} |"
              f" {u:.0f} µs | {d:.0f} µs | {q1:.0f}x | **{q2:.0f}x** | {q3:.0f}x | {low:.1f}x |")
    everything = results.get("all")
    if everything and everything.ratios:
        median = statistics.median(everything.ratios)
        print(f"\nmedian speed-up {median:.0f}x (target >= 100x): {'met' if median >= 100 else 'NOT met'}")
    if everything and args.worst:
        print("\nlowest speed-ups (code units = len(co_code) // 2):")
        for ratio, name, units, t_u, t_d in sorted(everything.named)[: args.worst]:
            print(f"  {ratio:6.1f}x  {name}  {units} code units, unveil {t_u * 1e6:.0f} µs, depyf {t_d * 1e6:.0f} µs")
    for tool in ("unveil", "depyf"):
        lines = everything.failures.get(tool, []) if everything else []
        for line in lines[: args.show]:
            print(f"  {tool} failed: {line}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
