"""Why round-trip code objects differ: the first differing instruction of each
unequal code object, grouped by the statement of the original source it comes
from and by the instruction pair. It says where the round trip's remaining
percent is, so the next fix goes where it counts.

    python tools/roundtrip_why.py [--cli PATH] [--limit N] [--top 25] [--examples 3]

Run it with the Python whose bytecode is measured (as tools/roundtrip.py).
"""
import argparse
import ast
import collections
import glob
import os
import py_compile
import sys
import sysconfig
import tempfile
import types
from typing import Counter, Dict, List, Optional, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import roundtrip  # noqa: E402

verify = roundtrip.verify


def statement_kinds(tree: ast.AST) -> Dict[int, str]:
    """Line -> the innermost statement kind covering it (compound statements
    name the part: 'Try.handler', 'With', ...)."""
    kinds: Dict[int, Tuple[int, str]] = {}  # line -> (span, kind): the smallest span wins

    def mark(node: ast.AST, kind: str) -> None:
        start, end = node.lineno, getattr(node, "end_lineno", node.lineno) or node.lineno
        for line in range(start, end + 1):
            if line not in kinds or kinds[line][0] >= end - start:
                kinds[line] = (end - start, kind)

    for node in ast.walk(tree):
        if isinstance(node, ast.stmt):
            mark(node, type(node).__name__)
        elif isinstance(node, ast.ExceptHandler):
            mark(node, "Try.handler")
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda,
                               ast.IfExp, ast.BoolOp, ast.Compare, ast.NamedExpr, ast.JoinedStr)):
            mark(node, f"expr:{type(node).__name__}")
    return {line: kind for line, (_, kind) in kinds.items()}


def first_difference(a: types.CodeType, b: types.CodeType) -> Optional[Tuple[int, str]]:
    """(index among kept instructions, 'orig-op / ours-op') of the first difference, or None."""
    na, nb = verify.normalised(a), verify.normalised(b)
    if na.header != nb.header:
        field = next(f for f, x, y in zip(verify._HEADER_FIELDS, na.header, nb.header) if x != y)
        return -1, f"header: {field}"
    if na.ops != nb.ops:
        i = next((k for k, (x, y) in enumerate(zip(na.ops, nb.ops)) if x != y), min(len(na.ops), len(nb.ops)))
        x = na.ops[i][0] if i < len(na.ops) else "(end)"
        y = nb.ops[i][0] if i < len(nb.ops) else "(end)"
        return i, f"{x} / {y}"
    if na.exception_table != nb.exception_table:
        return -1, "exception table"
    return None


def line_of(code: types.CodeType, index: int) -> Optional[int]:
    kept, _, _ = verify._kept(code)
    if 0 <= index < len(kept):
        for ins in kept[index::-1]:  # the nearest instruction at or before it that has a line
            line = ins.positions.lineno if hasattr(ins, "positions") else ins.starts_line
            if line:
                return line
    return code.co_firstlineno


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lib", default=sysconfig.get_paths()["stdlib"])
    ap.add_argument("--cli", default=os.path.join(os.path.dirname(sys.executable), "unveil-decompile"))
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--examples", type=int, default=3)
    args = ap.parse_args()

    by_kind: Counter[str] = collections.Counter()
    by_pair: Counter[str] = collections.Counter()
    examples: Dict[str, List[str]] = collections.defaultdict(list)
    files = sorted(glob.glob(os.path.join(args.lib, "*.py")))
    if args.limit:
        files = files[: args.limit]
    unequal = total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            source = open(path, "rb").read()
            original = roundtrip.compile_source(source, path)
            if original is None:
                continue
            pyc = os.path.join(tmp, "m.pyc")
            py_compile.compile(path, cfile=pyc, doraise=True)
            text, why = roundtrip.decompile([args.cli], pyc, 60)
            ours = roundtrip.compile_source(text, path) if text is not None else None
            theirs = dict(verify.code_paths(ours)) if ours is not None else {}
            try:
                kinds = statement_kinds(ast.parse(source))
            except SyntaxError:
                kinds = {}
            for name, code in verify.code_paths(original):
                total += 1
                other = theirs.get(name)
                if other is None:
                    diff: Optional[Tuple[int, str]] = (-1, "no output" if ours is None else "missing")
                else:
                    diff = first_difference(code, other)
                if diff is None:
                    continue
                unequal += 1
                index, pair = diff
                line = line_of(code, index) if index >= 0 else code.co_firstlineno
                kind = kinds.get(line or 0, "?") if index >= 0 else pair
                by_kind[kind] += 1
                by_pair[pair] += 1
                if len(examples[kind]) < args.examples:
                    examples[kind].append(f"{os.path.basename(path)}:{line} {name} ({pair})")
    print(f"Python {sys.version.split()[0]}: {unequal} of {total} code objects differ "
          f"({100.0 * (total - unequal) / max(total, 1):.2f}% equal)\n")
    print("By the original statement at the first difference:")
    for kind, n in by_kind.most_common(args.top):
        print(f"  {n:5d}  {kind}")
        for e in examples[kind]:
            print(f"           {e}")
    print("\nBy instruction pair (original / recompiled):")
    for pair, n in by_pair.most_common(args.top):
        print(f"  {n:5d}  {pair}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
