"""Instructions per unveil.decompile call, counted by callgrind: a speed figure that does not move with the machine's load.

    python bench/instruction_counts.py                 # the unveil this Python imports
    PYTHONPATH=python python bench/instruction_counts.py   # an in-tree module (see below)

Wall-clock timings on a shared two-core machine move by 10% from run to run;
instruction counts move by a few per million, so a change that removes 1% of
the work shows. Use it to compare two builds of the same build type; the
speed figure itself is bench/decompile_vs_depyf.py.

Workloads (fixed, so that two runs count the same calls):

* empty: ``def f(self): pass``, 200 calls (the fixed cost of a call);
* mid: 300 code objects of 20-100 code units from this Python's top-level Lib/*.py (seed 0);
* sample: 1000 random code objects of Lib/*.py (seed 0), as decompile_vs_depyf.py samples them;
* dynamo (Python 3.10 only, the corpus's version): every code object of
  shared/corpus/dynamo-hf, nested code included, as decompile_vs_depyf.py
  --dynamo takes them (565).

Only the C++ call (``_core.decompile_live``, which takes every one of these
objects) is counted, through callgrind's --toggle-collect, so the module must
keep its symbols: a Release wheel is stripped, so build with
``-DCMAKE_BUILD_TYPE=RelWithDebInfo`` and compare builds of that type. An
in-tree module: configure with ``-DUNVEIL_BUILD_PYTHON=ON
-DPython_EXECUTABLE=<this python>`` and link ``build/<dir>/bindings/_core*.so``
into ``python/unveil/``. Needs valgrind.
"""
import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import types
from typing import List

HERE = os.path.dirname(os.path.abspath(__file__))
WORKLOADS = ("empty", "mid", "sample", "dynamo")
DYNAMO_MINOR = 10  # the corpus is CPython 3.10 bytecode


def available(name: str) -> bool:
    return name != "dynamo" or sys.version_info[:2] == (3, DYNAMO_MINOR)


def workload(name: str) -> List[types.CodeType]:
    if name == "empty":
        def f(self):  # noqa: ANN001, ANN202
            pass

        return [f.__code__] * 200
    sys.path.insert(0, HERE)
    if name == "dynamo":
        from decompile_vs_depyf import DEFAULT_CORPUS, dynamo_samples

        return [s.code for s in dynamo_samples(DEFAULT_CORPUS)]
    from decompile_vs_depyf import stdlib_samples

    samples = stdlib_samples()
    if name == "mid":
        samples = random.Random(0).sample([s for s in samples if 20 <= len(s.code.co_code) // 2 < 100], 300)
    else:
        samples = random.Random(0).sample(samples, 1000)
    return [s.code for s in samples]


def child(name: str) -> None:
    import unveil

    codes = workload(name)
    for code in codes:
        unveil.decompile(code)
    print(len(codes))


def count(name: str) -> int:
    """Instructions executed inside decompile_live for one workload, in total."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        cmd = ["valgrind", "--tool=callgrind", "--toggle-collect=*decompile_live*",
               f"--callgrind-out-file={out}", sys.executable, os.path.abspath(__file__), "--child", name]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"{name}: valgrind failed:\n{done.stderr[-2000:]}")
        with open(out) as f:
            totals = [int(m.group(1)) for m in re.finditer(r"^(?:summary|totals): (\d+)", f.read(), re.M)]
    if not totals or totals[0] == 0:
        raise SystemExit(f"{name}: no instructions counted inside decompile_live: is the module stripped?")
    return totals[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("workloads", nargs="*", help=f"any of {', '.join(WORKLOADS)} (default: all)")
    parser.add_argument("--child", choices=WORKLOADS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return 0
    unknown = [w for w in args.workloads if w not in WORKLOADS]
    if unknown:
        parser.error(f"unknown workload {unknown[0]!r}: choose from {', '.join(WORKLOADS)}")
    if "dynamo" in args.workloads and not available("dynamo"):
        parser.error(f"the dynamo workload needs Python 3.{DYNAMO_MINOR} (the corpus's bytecode)")
    import unveil

    print(f"Python {sys.version.split()[0]}, unveil from {os.path.dirname(unveil.__file__)}\n")
    print("| workload | calls | instructions per call |")
    print("|---|---|---|")
    for name in args.workloads or [w for w in WORKLOADS if available(w)]:
        calls = len(workload(name))
        print(f"| {name} | {calls} | {count(name) // calls} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
