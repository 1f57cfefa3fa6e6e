"""Decompile the Dynamo-generated corpus (shared/corpus/dynamo-hf, CPython 3.10).

Run with Python 3.10 and unveil installed:

    python tools/crossversion.py --no-install --versions 3.10 run -- {python} tools/dynamo_corpus.py

For every transformed code object (and its nested code) it rebuilds a real
code object from the `dynamo-code/1` record (stand-in classes and builtins
bound to real objects), decompiles it with unveil.decompile, and checks that
the output compiles under 3.10. Prints: entries, decompiled without fallback,
output compiles, and the first failures.
"""
import argparse
import collections
import builtins
import glob
import os
import pickle
import sys
import types
from typing import Any, Dict

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CORPUS = os.path.join(HERE, "..", "..", "shared", "corpus", "dynamo-hf")
FALLBACK_MARK = "unveil could not decompile"


class _NoGlobals(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:  # the format has none; refuse any
        raise pickle.UnpicklingError(f"refusing global {module}.{name}")


def standin(qualified: str) -> type:
    module, _, name = qualified.rpartition(".")
    return type(name, (), {"__module__": module})


def constant(value: Any) -> Any:
    if isinstance(value, dict):
        if "__standin__" in value:
            return standin(value["__standin__"])
        if "__builtin__" in value:
            return getattr(builtins, value["__builtin__"])
        if "__code__" in value:
            return build_code(value["__code__"])
        if "co_code" in value:
            return build_code(value)
    if isinstance(value, tuple):
        return tuple(constant(v) for v in value)
    return value


def build_code(record: Dict[str, Any]) -> types.CodeType:
    return types.CodeType(
        record["co_argcount"], record["co_posonlyargcount"], record["co_kwonlyargcount"],
        record["co_nlocals"], record["co_stacksize"], record["co_flags"], record["co_code"],
        tuple(constant(c) for c in record["co_consts"]), record["co_names"], record["co_varnames"],
        record["co_filename"], record["co_name"], record["co_firstlineno"], record["co_linetable"],
        record["co_freevars"], record["co_cellvars"],
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default=DEFAULT_CORPUS)
    parser.add_argument("--show", type=int, default=5)
    args = parser.parse_args()
    if sys.version_info[:2] != (3, 10):
        raise SystemExit("dynamo_corpus: the corpus is CPython 3.10 bytecode; run it with Python 3.10")
    import unveil

    files = sorted(f for f in glob.glob(os.path.join(args.corpus, "*.pkl")) if not f.endswith(".original.pkl"))
    total = clean = compiles = 0
    failures = []
    reasons: "collections.Counter[str]" = collections.Counter()
    for path in files:
        with open(path, "rb") as f:
            entry = _NoGlobals(f).load()
        if entry.get("kind") != "transformed":
            continue
        total += 1
        name = os.path.basename(path)
        try:
            code = build_code(entry["code"])
            source = unveil.decompile(code)
        except Exception as e:  # a failure of ours, counted and shown
            failures.append(f"{name}: {type(e).__name__}: {e}")
            continue
        if FALLBACK_MARK not in source:
            clean += 1
        else:
            reason = next((ln for ln in source.splitlines() if "could not decompile" in ln), "?")
            reasons[reason.split(": ", 2)[-1].split(" at offset")[0]] += 1
        try:
            compile(source, name, "exec")
            compiles += 1
        except SyntaxError as e:
            failures.append(f"{name}: output does not compile: {e}")
    print(f"| 3.10 | {total} | {clean} ({100.0 * clean / max(total, 1):.1f}%) | {compiles} ({100.0 * compiles / max(total, 1):.1f}%) |")
    for line in failures[: args.show]:
        print("  ", line, file=sys.stderr)
    for reason, n in reasons.most_common(args.show):
        print(f"   fallback x{n}: {reason}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
