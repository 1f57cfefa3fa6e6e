"""Is unveil's decoded stream exactly what this Python's `dis` reports?

Run it with a Python that has unveil installed. For every .py file under that
Python's Lib/ (recursively; files the Python cannot compile are skipped), it
compiles the file and, for every code object (nested ones included), compares
per instruction the offset, opname, oparg and resolved argument (jump targets
as offsets), plus the line table (co_lines(), or the line starts of co_lnotab
on 3.8/3.9), the positions (3.11+) and the exception table (3.11+).

    python tools/dis_equivalence.py            # whole Lib/, prints one table row
    python tools/dis_equivalence.py --limit 200 --json out.json   # 200 files spread over Lib/

The decoding goes through unveil.decode(), i.e. marshal.dumps → the C++ reader
and decoder, as for any live code object.
"""
import argparse
import dis
import json
import math
import os
import sys
import sysconfig
import time
import types
import warnings
from typing import Any, Iterator, List, Optional, Tuple

import unveil
from unveil import _core

CONVERTERS = {None: "", str: "str", repr: "repr", ascii: "ascii"}


def lib_files(root: str) -> List[str]:
    out = []
    for base, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in ("site-packages", "__pycache__"))
        out.extend(os.path.join(base, f) for f in sorted(files) if f.endswith(".py"))
    return out


def compile_file(path: str) -> Optional[types.CodeType]:
    try:
        with open(path, "rb") as f:
            source = f.read()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return compile(source, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError, UnicodeDecodeError, RecursionError, MemoryError):
        return None


def code_objects(code: types.CodeType) -> Iterator[types.CodeType]:
    yield code
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            yield from code_objects(c)


def same_value(ours: Any, theirs: Any) -> bool:
    if isinstance(theirs, types.CodeType):
        return (
            isinstance(ours, _core.CodeRef)
            and ours.name == theirs.co_name
            and ours.firstlineno == theirs.co_firstlineno
            and ours.qualname == getattr(theirs, "co_qualname", theirs.co_name)
        )
    if type(ours) is not type(theirs):
        return False
    if isinstance(theirs, float):
        return (math.isnan(ours) and math.isnan(theirs)) or (
            ours == theirs and math.copysign(1, ours) == math.copysign(1, theirs)
        )
    if isinstance(theirs, complex):
        return same_value(ours.real, theirs.real) and same_value(ours.imag, theirs.imag)
    if isinstance(theirs, (tuple, list)):
        return len(ours) == len(theirs) and all(map(same_value, ours, theirs))
    if isinstance(theirs, frozenset):
        return len(ours) == len(theirs) and all(
            any(same_value(a, b) for b in theirs) for a in ours
        )
    return ours == theirs


def reference_argval(code: types.CodeType, ins: dis.Instruction) -> Any:
    if ins.opcode in dis.hasconst and repr(ins.argval) == "<unknown>":
        # 3.11's dis resolves only LOAD_CONST; KW_NAMES indexes co_consts too.
        return code.co_consts[ins.arg]
    if ins.opname in ("FORMAT_VALUE",):
        fn, has_spec = ins.argval
        return (CONVERTERS[fn], bool(has_spec))
    if ins.opname == "CONVERT_VALUE":
        return CONVERTERS[ins.argval]
    return ins.argval


def line_starts(ranges: List[Tuple[int, int, Optional[int]]]) -> List[Tuple[int, int]]:
    out, last = [], None
    for start, _end, line in ranges:
        if line is not None and line != last:
            out.append((start, line))
            last = line
    return out


def compare(code: types.CodeType, ours: dict) -> Optional[str]:
    """None if equal, else a description of the first difference."""
    theirs = list(dis.get_instructions(code))
    mine = ours["instructions"]
    for i, ref in enumerate(theirs):
        if i >= len(mine):
            return f"instruction {i} ({ref.offset} {ref.opname}) missing"
        offset, _start, _opcode, opname, arg, argval = mine[i]
        want = (ref.offset, ref.opname, ref.arg)
        if (offset, opname, arg) != want:
            return f"instruction {i}: got {(offset, opname, arg)}, dis has {want}"
        ref_val = reference_argval(code, ref)
        if not same_value(argval, ref_val):
            return f"{ref.offset} {ref.opname} {ref.arg}: argval {argval!r}, dis has {ref_val!r}"
    if len(mine) != len(theirs):
        return f"{len(mine)} instructions, dis has {len(theirs)}"
    if sys.version_info >= (3, 10):
        want_lines = list(code.co_lines())
        got_lines = [tuple(r) for r in ours["lines"]]
        if got_lines != want_lines:
            return f"co_lines differ: {got_lines[:6]}... vs {want_lines[:6]}..."
    else:
        want_starts = list(dis.findlinestarts(code))
        got_starts = line_starts(ours["lines"])
        if got_starts != want_starts:
            return f"line starts differ: {got_starts[:6]}... vs {want_starts[:6]}..."
    if sys.version_info >= (3, 11):
        want_pos = list(code.co_positions())
        got_pos = [tuple(p) for p in ours["positions"]]
        if got_pos != want_pos:
            first = next(i for i, (a, b) in enumerate(zip(got_pos + [None] * len(want_pos), want_pos)) if a != b)
            return f"co_positions differ at unit {first}"
        want_table = [
            (e.start, e.end, e.target, e.depth, e.lasti) for e in dis._parse_exception_table(code)
        ]
        got_table = [tuple(e) for e in ours["exception_table"]]
        if got_table != want_table:
            return f"exception table differs: {got_table[:3]} vs {want_table[:3]}"
    return None


def check_file(path: str, stats: dict) -> None:
    code = compile_file(path)
    if code is None:
        stats["skipped"] += 1
        return
    stats["files"] += 1
    refs = list(code_objects(code))
    try:
        decoded = unveil.decode(code)
    except unveil.UnveilError as e:
        stats["code_objects"] += len(refs)
        stats["errors"] += 1
        stats.setdefault("first_mismatch", f"{path}: {e}")
        return
    stats["code_objects"] += len(refs)
    if len(decoded) != len(refs):
        stats.setdefault("first_mismatch", f"{path}: {len(decoded)} code objects, expected {len(refs)}")
        return
    for ref, ours in zip(refs, decoded):
        problem = compare(ref, ours)
        if problem is None:
            stats["equal"] += 1
        else:
            stats["mismatches"].append(f"{path}:{ours['path']}: {problem}")
            stats.setdefault("first_mismatch", f"{path}:{ours['path']}: {problem}")


def spread(files: List[str], limit: int) -> List[str]:
    """``limit`` of ``files`` at even steps (every package gets its share,
    not only the first letters of the alphabet); all of them if ``limit`` is
    0 or not smaller."""
    if limit <= 0 or limit >= len(files):
        return files
    return [files[k * len(files) // limit] for k in range(limit)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lib", default=sysconfig.get_paths()["stdlib"], help="the Lib/ folder to walk")
    parser.add_argument("--limit", type=int, default=0,
                        help="check only N files, spread evenly over Lib/ (CI's sample; 0: all)")
    parser.add_argument("--json", help="write the result here")
    parser.add_argument("--show", type=int, default=5, help="print up to N mismatches")
    args = parser.parse_args()

    files = spread(lib_files(args.lib), args.limit)
    stats = {"files": 0, "skipped": 0, "code_objects": 0, "equal": 0, "errors": 0, "mismatches": []}
    start = time.perf_counter()
    for path in files:
        check_file(path, stats)
    elapsed = time.perf_counter() - start
    version = "%d.%d" % sys.version_info[:2]
    total = stats["code_objects"]
    pct = 100.0 * stats["equal"] / total if total else 0.0
    first = stats.get("first_mismatch", "-")
    print(f"| {version} | {stats['files']} | {stats['skipped']} | {total} | {stats['equal']} | {pct:.2f}% | {first} |")
    for line in stats["mismatches"][: args.show]:
        print("  mismatch:", line, file=sys.stderr)
    print(f"  ({elapsed:.1f}s)", file=sys.stderr)
    if args.json:
        result = dict(stats, version=version, percent=pct, seconds=elapsed)
        result["mismatches"] = stats["mismatches"][:100]
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    return 0 if stats["equal"] == total and total > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
