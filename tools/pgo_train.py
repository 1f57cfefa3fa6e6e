"""The training run of a profile-guided build (cmake/ProfileGuided.cmake).

    python tools/pgo_train.py BINDINGS_DIR [--max-seconds 20]

Imports the instrumented ``_core`` module from BINDINGS_DIR and decompiles
every code object (nested code included) of the running Python's standard
library *packages*: ``Lib/<package>/**/*.py``, tests left out. GCC writes
the counts it gathered to the profile directory when this process exits.

The top-level ``Lib/*.py`` modules are left out on purpose: they are what
bench/decompile_vs_depyf.py and tools/roundtrip.py measure, and a profile
trained on the measured objects would flatter the figures.

A file that does not compile, or that the decompiler refuses, is skipped:
the run only has to exercise the decompiler, not to succeed on everything.
It stops after --max-seconds, so that a slow machine does not stall the build.
The decompiling runs in a child process: should it crash, the build goes on
without a profile (and says so) instead of failing the install.
"""
import argparse
import importlib
import os
import subprocess
import sys
import sysconfig
import time
import types
import warnings
from typing import Iterator, List


def package_sources(lib: str) -> Iterator[str]:
    skip = {"test", "tests", "idlelib", "site-packages", "dist-packages", "__pycache__"}
    for entry in sorted(os.listdir(lib)):
        root = os.path.join(lib, entry)
        if entry in skip or not os.path.isdir(root):
            continue
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d not in skip)
            for name in sorted(files):
                if name.endswith(".py"):
                    yield os.path.join(folder, name)


# (Not unveil.verify.code_paths: the unveil package is what this build makes,
# so only the instrumented _core can be imported here.)
def code_objects(code: types.CodeType) -> List[types.CodeType]:
    out = [code]
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            out.extend(code_objects(const))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bindings_dir", help="the folder holding the instrumented _core module")
    parser.add_argument("--max-seconds", type=float, default=20.0)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.child:
        done = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", *sys.argv[1:]])
        if done.returncode != 0:
            print(f"pgo_train: the training run failed (exit {done.returncode}); "
                  "the module is built without a profile", file=sys.stderr)
        return 0

    sys.path.insert(0, os.path.abspath(args.bindings_dir))
    core = importlib.import_module("_core")
    lib = sysconfig.get_paths()["stdlib"]
    deadline = time.monotonic() + args.max_seconds
    objects = refused = 0
    for path in package_sources(lib):
        if time.monotonic() > deadline:
            break
        try:
            with open(path, "rb") as f, warnings.catch_warnings():
                warnings.simplefilter("ignore")
                code = compile(f.read(), path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, OSError):
            continue
        for obj in code_objects(code):
            try:
                core.decompile_live(obj, None, True)
                objects += 1
            except Exception:  # a refusal is still training
                refused += 1
    print(f"pgo_train: decompiled {objects} code objects of {lib} ({refused} refused)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
