"""Normalised bytecode comparison: does recompiled source match the original?

A decompiler is right when its output compiles back to the same bytecode.
"The same" ignores what source text cannot control or does not matter:

* line numbers and source positions;
* ``NOP``, ``CACHE``, ``RESUME``, ``EXTENDED_ARG`` and 3.14's ``NOT_TAKEN``;
* absolute offsets: jump targets become indices into the kept instructions;
* constant-table order: constants are compared by value (exactly, so ``1``,
  ``1.0``, ``True`` and ``-0.0`` differ), nested code objects by name here and
  recursively by :func:`compare_code`;
* name-table order: names are compared as strings.

It does compare the argument counts and names, the flags, the cell and free
variable names, a function's docstring and (3.11+) the exception table, with
its ranges and handlers as instruction indices.

The module only needs the standard library, so tools can load it by file path
under a Python where unveil is not installed. It works on CPython 3.8-3.13
(and 3.14, whose extra instructions are handled by name).

    >>> from unveil.verify import compare_code
    >>> a = compile("x = 1 if y else 2", "m", "exec")
    >>> compare_code(a, compile("x = 1 if y else 2\\n", "m", "exec"))
    []
"""
import dis
import math
import types
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Tuple

__all__ = [
    "IGNORED_OPNAMES",
    "Normalised",
    "value_key",
    "normalised",
    "code_paths",
    "compare_code",
    "compare_source",
]

#: Instructions that carry no meaning the source controls.
IGNORED_OPNAMES = frozenset({"NOP", "CACHE", "RESUME", "EXTENDED_ARG", "NOT_TAKEN"})

_JUMPS = frozenset(dis.hasjrel) | frozenset(dis.hasjabs) | frozenset(getattr(dis, "hasjump", ()))
_CONSTS = frozenset(dis.hasconst)
# Opcodes whose argument holds flags beyond the name (push NULL, method call,
# super call): their argrepr says which, their argval does not.
_FLAGGED_NAMES = frozenset({"LOAD_GLOBAL", "LOAD_ATTR", "LOAD_SUPER_ATTR", "COMPARE_OP"})
_CO_NEWLOCALS = 0x2
_CO_VARARGS = 0x4
_CO_VARKEYWORDS = 0x8


class Normalised(NamedTuple):
    """One code object, reduced to what its source determines."""

    header: Tuple[Any, ...]
    """(argcount, posonlyargcount, kwonlyargcount, flags, argument names,
    cellvars, freevars, docstring key)."""
    ops: Tuple[Tuple[str, Any], ...]
    """(opname, normalised argument) for every kept instruction."""
    exception_table: Tuple[Tuple[int, int, int, int, bool], ...]
    """(start, end, target, depth, lasti), positions as instruction indices."""


def value_key(value: Any) -> Any:
    """A hashable, exact stand-in for a constant.

    ``1``, ``1.0``, ``True`` and ``-0.0`` all get different keys; NaNs are
    equal to each other; a code object is represented by its name only (its
    body is compared separately, along its :func:`code_paths` path).
    """
    if isinstance(value, types.CodeType):
        return ("code", value.co_name)
    if isinstance(value, float):
        return ("float", "nan" if math.isnan(value) else value.hex())
    if isinstance(value, complex):
        return ("complex", value_key(value.real), value_key(value.imag))
    if isinstance(value, (tuple, list)):
        return (type(value).__name__,) + tuple(value_key(v) for v in value)
    if isinstance(value, frozenset):
        return ("frozenset",) + tuple(sorted(repr(value_key(v)) for v in value))
    if value is Ellipsis or value is None:
        return (repr(value),)
    return (type(value).__name__, value)


def _kept(code: types.CodeType) -> Tuple[List[dis.Instruction], Dict[int, int], int]:
    """The kept instructions, and a map from every offset to the index of the
    first kept instruction at or after it."""
    everything = list(dis.get_instructions(code))
    index_of: Dict[int, int] = {}
    kept: List[dis.Instruction] = []
    for ins in everything:
        index_of[ins.offset] = len(kept)
        if ins.opname not in IGNORED_OPNAMES:
            kept.append(ins)
    return kept, index_of, len(kept)


def _docstring_key(code: types.CodeType) -> Any:
    # Functions keep their docstring (or None) as the first constant without
    # any instruction loading it, so it must be compared explicitly. Module
    # and class docstrings are stored by instructions and need nothing here.
    if code.co_flags & _CO_NEWLOCALS and code.co_consts and isinstance(code.co_consts[0], str):
        return value_key(code.co_consts[0])
    return None


def normalised(code: types.CodeType) -> Normalised:
    """``code`` (not its nested code objects) reduced to what its source
    determines; two code objects compiled from equivalent source have equal
    normalised forms."""
    kept, index_of, end = _kept(code)
    size = len(code.co_code)

    def target(offset: int) -> int:
        # Targets may point at a dropped instruction or a cache entry: use the
        # next kept instruction.
        while offset not in index_of and offset < size:
            offset += 2
        return index_of.get(offset, end)

    ops: List[Tuple[str, Any]] = []
    for ins in kept:
        if ins.opcode in _JUMPS:
            arg: Any = ("jump", target(ins.argval)) if isinstance(ins.argval, int) else ("jump", None)
        elif ins.opcode in _CONSTS:
            arg = value_key(ins.argval)
        elif ins.opname in _FLAGGED_NAMES:
            arg = (repr(ins.argval), ins.argrepr)
        else:
            arg = repr(ins.argval)
        ops.append((ins.opname, arg))

    table: List[Tuple[int, int, int, int, bool]] = []
    parse = getattr(dis, "_parse_exception_table", None)
    if parse is not None:
        for entry in parse(code):
            table.append((target(entry.start), target(entry.end), target(entry.target),
                          entry.depth, bool(entry.lasti)))

    nargs = code.co_argcount + code.co_kwonlyargcount
    nargs += bool(code.co_flags & _CO_VARARGS) + bool(code.co_flags & _CO_VARKEYWORDS)
    header = (
        code.co_argcount,
        code.co_posonlyargcount,
        code.co_kwonlyargcount,
        code.co_flags,
        tuple(code.co_varnames[:nargs]),
        tuple(sorted(code.co_cellvars)),
        tuple(sorted(code.co_freevars)),
        _docstring_key(code),
    )
    return Normalised(header, tuple(ops), tuple(table))


def code_paths(code: types.CodeType, prefix: str = "") -> Iterator[Tuple[str, types.CodeType]]:
    """Every code object in ``code`` (itself first, depth first) with its
    path, e.g. ``/<module>/C/method/<lambda>``; the n-th repeat (n >= 1) of a
    name among one parent's constants gets ``#n``: ``/<module>/f#1``."""
    yield from _paths(code, prefix + "/" + code.co_name)


def _paths(code: types.CodeType, path: str) -> Iterator[Tuple[str, types.CodeType]]:
    yield path, code
    seen: Dict[str, int] = {}
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            n = seen.get(const.co_name, 0)
            seen[const.co_name] = n + 1
            yield from _paths(const, f"{path}/{const.co_name}" + (f"#{n}" if n else ""))


def _describe(ins: Optional[Tuple[str, Any]]) -> str:
    if ins is None:
        return "(end of code)"
    name, arg = ins
    return f"{name} {arg!r}"


_HEADER_FIELDS = ("argcount", "posonlyargcount", "kwonlyargcount", "flags", "argument names",
                  "cellvars", "freevars", "docstring")


def _compare_one(path: str, a: Normalised, b: Normalised) -> List[str]:
    out: List[str] = []
    for field, x, y in zip(_HEADER_FIELDS, a.header, b.header):
        if x != y:
            shown = (hex(x), hex(y)) if field == "flags" else (x, y)
            out.append(f"{path}: {field} differs: original {shown[0]!r}, recompiled {shown[1]!r}")
    if a.ops != b.ops:
        i = next((k for k, (x, y) in enumerate(zip(a.ops, b.ops)) if x != y), min(len(a.ops), len(b.ops)))
        x = a.ops[i] if i < len(a.ops) else None
        y = b.ops[i] if i < len(b.ops) else None
        out.append(f"{path}: instruction {i} differs: original {_describe(x)}, recompiled {_describe(y)}"
                   f" ({len(a.ops)} vs {len(b.ops)} instructions)")
    if a.exception_table != b.exception_table:
        out.append(f"{path}: exception table differs: original {list(a.exception_table)},"
                   f" recompiled {list(b.exception_table)}")
    return out


def compare_code(original: types.CodeType, recompiled: types.CodeType) -> List[str]:
    """The differences between two code objects and all their nested code
    objects (matched by :func:`code_paths` path), as readable lines naming the
    path and the first differing instruction; empty when they are equal."""
    ours = dict(code_paths(original))
    theirs = dict(code_paths(recompiled))
    out: List[str] = []
    for path, code in ours.items():
        other = theirs.get(path)
        if other is None:
            out.append(f"{path}: missing from the recompiled code")
            continue
        out.extend(_compare_one(path, normalised(code), normalised(other)))
    for path in theirs:
        if path not in ours:
            out.append(f"{path}: not in the original code")
    return out


def compare_source(original: types.CodeType, source: str, filename: Optional[str] = None) -> List[str]:
    """:func:`compare_code` of ``original`` against ``source`` compiled as a
    module (with ``original``'s file name unless ``filename`` is given); a
    source that does not compile gives one line saying why."""
    try:
        recompiled = compile(source, filename or original.co_filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as e:
        return [f"recompiled source does not compile: {type(e).__name__}: {e}"]
    return compare_code(original, recompiled)
