"""The standard-library round trip: decompile, recompile, compare bytecode.

Run it with the Python whose bytecode is measured (it compiles and recompiles
with itself):

    python tools/roundtrip.py                    # top-level Lib/*.py
    python tools/roundtrip.py --recursive        # Lib/**/*.py
    python tools/roundtrip.py --identity         # scoring check: must print 100%
    python tools/roundtrip.py --sabotage         # scoring check: must print less
    python tools/crossversion.py --no-install run -- {python} tools/roundtrip.py

For every file: compile it to a .pyc, decompile the .pyc with the CLI
(`unveil-decompile FILE.pyc`), compile the output with the same Python, and
compare every code object (matched by its nesting path) after the
normalisation of unveil.verify: line numbers and positions ignored,
NOP/CACHE/RESUME/EXTENDED_ARG dropped, 3.13's line-dependent superinstructions
(LOAD_FAST_LOAD_FAST...) as their two halves, jump targets as instruction indices,
constants compared by value (code constants recursively), plus argument counts,
flags and the exception table (3.11+, as instruction indices).
"""
import argparse
import importlib.util
import json
import os
import py_compile
import subprocess
import sys
import sysconfig
import tempfile
import time
import types
import warnings
from typing import Any, Dict, List, Optional, Tuple


def _load_verify() -> types.ModuleType:
    """unveil.verify, or the same file loaded by path where unveil (and its
    compiled core) is not installed: the module only needs the standard library."""
    try:
        from unveil import verify
        return verify
    except ImportError:
        here = os.path.dirname(os.path.abspath(__file__))
        path = os.path.join(here, os.pardir, "python", "unveil", "verify.py")
        spec = importlib.util.spec_from_file_location("unveil_verify", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)  # type: ignore[union-attr]
        return module


verify = _load_verify()
normalised = verify.normalised
code_paths = verify.code_paths


def compile_source(source: bytes, filename: str) -> Optional[types.CodeType]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return compile(source, filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def sabotage(source: bytes) -> bytes:
    """A deliberately broken 'decompiler': it swaps some operators and booleans,
    so its output still compiles but means something else."""
    swaps = [(b" + ", b" - "), (b" == ", b" != "), (b" is None", b" is not None"), (b"True", b"False")]
    for a, b in swaps:
        source = source.replace(a, b)
    return source


def decompile(cli: List[str], pyc: str, timeout: float) -> Tuple[Optional[bytes], str]:
    try:
        result = subprocess.run(cli + [pyc], capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "timeout"
    if result.returncode != 0:
        return None, result.stderr.decode(errors="replace").strip().splitlines()[-1:][0] if result.stderr else f"exit {result.returncode}"
    return result.stdout, ""


def check_file(path: str, args: argparse.Namespace, tmp: str, stats: Dict[str, Any]) -> None:
    with open(path, "rb") as f:
        source = f.read()
    original = compile_source(source, path)
    if original is None:
        stats["skipped"] += 1
        return
    stats["files"] += 1
    originals = dict(code_paths(original))
    stats["code_objects"] += len(originals)
    if args.identity:
        text: Optional[bytes] = source
    elif args.sabotage:
        text = sabotage(source)
    else:
        pyc = os.path.join(tmp, "m.pyc")
        py_compile.compile(path, cfile=pyc, doraise=True)
        text, why = decompile(args.cli, pyc, args.timeout)
        if text is None:
            stats["failures"].append(f"{path}: decompile failed: {why}")
            return
    recompiled = compile_source(text, path)
    if recompiled is None:
        stats["failures"].append(f"{path}: output does not compile")
        return
    stats["recompiled"] += 1
    ours = dict(code_paths(recompiled))
    for name, code in originals.items():
        other = ours.get(name)
        if other is not None and normalised(code) == normalised(other):
            stats["equal"] += 1
        else:
            stats["unequal"].append(f"{path}:{name}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lib", default=sysconfig.get_paths()["stdlib"])
    parser.add_argument("--recursive", action="store_true", help="Lib/**/*.py instead of Lib/*.py")
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--identity", action="store_true", help="use the original source as the output")
    parser.add_argument("--sabotage", action="store_true", help="use a deliberately broken output")
    parser.add_argument("--cli", default=os.path.join(os.path.dirname(sys.executable), "unveil-decompile"))
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--json")
    parser.add_argument("--show", type=int, default=5)
    parser.add_argument("--check-floors", action="store_true",
                        help="exit 1 unless every file recompiles and the code-object figure reaches "
                             "this version's floor in tools/roundtrip_floors.json (CI uses this)")
    args = parser.parse_args()
    args.cli = args.cli.split()

    if args.recursive:
        files = []
        for base, dirs, names in os.walk(args.lib):
            dirs[:] = sorted(d for d in dirs if d not in ("site-packages", "__pycache__"))
            files.extend(os.path.join(base, n) for n in sorted(names) if n.endswith(".py"))
    else:
        files = sorted(os.path.join(args.lib, n) for n in os.listdir(args.lib) if n.endswith(".py"))
    if args.limit:
        files = files[: args.limit]
    stats: Dict[str, Any] = {"files": 0, "skipped": 0, "recompiled": 0, "code_objects": 0, "equal": 0,
                             "failures": [], "unequal": []}
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            check_file(path, args, tmp, stats)
    elapsed = time.perf_counter() - start
    version = "%d.%d" % sys.version_info[:2]
    files_pct = 100.0 * stats["recompiled"] / stats["files"] if stats["files"] else 0.0
    code_pct = 100.0 * stats["equal"] / stats["code_objects"] if stats["code_objects"] else 0.0
    mode = "identity" if args.identity else "sabotage" if args.sabotage else "unveil"
    print(f"| {version} | {mode} | {stats['files']} | {stats['recompiled']} ({files_pct:.1f}%) | "
          f"{stats['code_objects']} | {stats['equal']} ({code_pct:.2f}%) | {elapsed:.0f}s |")
    for line in (stats["failures"] + stats["unequal"])[: args.show]:
        print("  ", line, file=sys.stderr)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(stats, version=version, mode=mode, files_percent=files_pct,
                           code_percent=code_pct), f, indent=1)
    if args.check_floors:
        with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "roundtrip_floors.json")) as f:
            floor = json.load(f)["recursive" if args.recursive else "top-level"].get(version)
        if stats["recompiled"] != stats["files"]:
            print(f"roundtrip: {stats['files'] - stats['recompiled']} files do not recompile", file=sys.stderr)
            return 1
        if floor is not None and code_pct < floor:
            print(f"roundtrip: {code_pct:.2f}% of code objects equal, below the floor {floor}%", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
