"""Normalised bytecode comparison: does recompiled source match the original?

A decompiler is right when its output compiles back to the same bytecode.
"The same" ignores what source text cannot control or does not matter:

* line numbers and source positions;
* ``NOP``, ``CACHE``, ``RESUME``, ``EXTENDED_ARG`` and 3.14's ``NOT_TAKEN``;
* 3.13+ superinstructions (``LOAD_FAST_LOAD_FAST`` and kin) count as their
  two halves: the compiler fuses a pair only when both are on one line, so
  which pairs are fused is a matter of line numbers too;
* absolute offsets: jump targets become indices into the kept instructions;
* constant-table order: constants are compared by value (exactly, so ``1``,
  ``1.0``, ``True`` and ``-0.0`` differ), nested code objects by name here and
  recursively by :func:`compare_code`;
* name-table order: names are compared as strings.

It does compare the argument counts and names, the flags, the cell and free
variable names, a function's docstring and (3.11+) the exception table, with
its ranges and handlers as instruction indices.

:func:`compare_decompiled` is the self-check of ``unveil.decompile(obj,
verify=True)``: it compiles unveil's output for one code object back into
the matching code object (:func:`recompile_like`) and compares the two.

The module only needs the standard library, so tools can load it by file path
under a Python where unveil is not installed. It works on CPython 3.8-3.13
(and 3.14, whose extra instructions are handled by name).

    >>> from unveil.verify import compare_code
    >>> a = compile("x = 1 if y else 2", "m", "exec")
    >>> compare_code(a, compile("x = 1 if y else 2\\n", "m", "exec"))
    []
"""
import __future__
import ast
import dis
import math
import types
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple

__all__ = [
    "IGNORED_OPNAMES",
    "Normalised",
    "value_key",
    "normalised",
    "code_paths",
    "compare_code",
    "compare_source",
    "recompile_like",
    "compare_decompiled",
    "VerificationWarning",
    "verification_message",
]

#: Instructions that carry no meaning the source controls.
IGNORED_OPNAMES = frozenset({"NOP", "CACHE", "RESUME", "EXTENDED_ARG", "NOT_TAKEN"})

# 3.13+ superinstructions and their halves, in execution order (dis gives
# the two names as a tuple argval in that order).
SUPERINSTRUCTIONS = {
    "LOAD_FAST_LOAD_FAST": ("LOAD_FAST", "LOAD_FAST"),
    "STORE_FAST_LOAD_FAST": ("STORE_FAST", "LOAD_FAST"),
    "STORE_FAST_STORE_FAST": ("STORE_FAST", "STORE_FAST"),
    "LOAD_FAST_BORROW_LOAD_FAST_BORROW": ("LOAD_FAST_BORROW", "LOAD_FAST_BORROW"),
}

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
        halves = SUPERINSTRUCTIONS.get(ins.opname)
        if halves is not None and isinstance(ins.argval, tuple) and len(ins.argval) == 2:
            for name, value in zip(halves, ins.argval):
                kept.append(ins._replace(opname=name, opcode=dis.opmap.get(name, ins.opcode), argval=value,
                                         argrepr=str(value)))
        elif ins.opname not in IGNORED_OPNAMES:
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
    for k, ins in enumerate(kept):
        following = kept[k + 1] if k + 1 < len(kept) else None
        if following is not None and following.opname == "STORE_NAME" and following.argval == "__firstlineno__":
            # 3.13+ class bodies store their first line number: a line number, ignored like the rest.
            ops.append((ins.opname, ("line number",)))
            continue
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


# --- Checking decompiled output: unveil.decompile(obj, verify=True) ---------


class VerificationWarning(UserWarning):
    """``unveil.decompile(obj, verify=True)`` found that its output does not
    compile back to ``obj``'s bytecode (normalised as in this module)."""


_CO_NESTED = 0x10
_CO_COROUTINE = 0x80
_CO_ASYNC_GENERATOR = 0x200
_FUTURE_FLAGS = 0
for _feature in __future__.all_feature_names:
    _FUTURE_FLAGS |= getattr(__future__, _feature).compiler_flag
# Names of the scopes verify invents when the qualified name says nothing.
_OUTER = "__unveil_outer__"
_CLASS = "__unveil_class__"


def _arguments(code: types.CodeType) -> ast.arguments:
    """The parameter list the code object was compiled from, without defaults
    or annotations: those live in the enclosing code, not in ``code``."""
    names = code.co_varnames
    positional = [ast.arg(arg=n) for n in names[: code.co_argcount]]
    i = code.co_argcount + code.co_kwonlyargcount
    kwonly = [ast.arg(arg=n) for n in names[code.co_argcount : i]]
    vararg = kwarg = None
    if code.co_flags & _CO_VARARGS:
        vararg, i = ast.arg(arg=names[i]), i + 1
    if code.co_flags & _CO_VARKEYWORDS:
        kwarg = ast.arg(arg=names[i])
    split = code.co_posonlyargcount
    return ast.arguments(posonlyargs=positional[:split], args=positional[split:], vararg=vararg,
                         kwonlyargs=kwonly, kw_defaults=[None] * len(kwonly), kwarg=kwarg, defaults=[])


def _scope_path(code: types.CodeType, qualname: Optional[str]) -> List[Tuple[str, str]]:
    """(kind, name) of the scopes around ``code``, outermost first, kind being
    "def" or "class", read from its qualified name (``f.<locals>.C.m``)."""
    qualname = qualname or getattr(code, "co_qualname", None) or code.co_name
    parts = qualname.split(".")
    if parts[-1] != code.co_name:  # a name that is not this code's: trust nothing
        parts = [code.co_name]
    path: List[Tuple[str, str]] = []
    for k, part in enumerate(parts[:-1]):
        if part != "<locals>":
            is_function = k + 1 < len(parts) - 1 and parts[k + 1] == "<locals>"
            path.append(("def" if is_function else "class", part))
    return path


def _definition(code: types.CodeType, body: List[ast.stmt]) -> ast.stmt:
    """The statement that defines ``code`` from the decompiled ``body``: the
    output itself when it already is that one definition, else a ``def`` (or
    class, or lambda) built around it with ``code``'s own parameters."""
    if len(body) == 1:
        only = body[0]
        if isinstance(only, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and only.name == code.co_name:
            return only
        if isinstance(only, ast.Expr) and isinstance(only.value, ast.Lambda) and code.co_name == "<lambda>":
            return ast.Assign(targets=[ast.Name(id="_", ctx=ast.Store())], value=only.value)
    if not code.co_flags & _CO_NEWLOCALS:  # a class body
        node = ast.parse("class C:\n    pass").body[0]
        body = _explicit_class_body(body)
    else:
        if code.co_name == "<lambda>" and len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value:
            expression = ast.Lambda(args=_arguments(code), body=body[0].value)
            return ast.Assign(targets=[ast.Name(id="_", ctx=ast.Store())], value=expression)
        is_async = code.co_flags & (_CO_COROUTINE | _CO_ASYNC_GENERATOR)
        node = ast.parse(("async def" if is_async else "def") + " f():\n    pass").body[0]
        node.args = _arguments(code)  # type: ignore[attr-defined]
    node.name = code.co_name  # type: ignore[attr-defined]
    node.body = body or [ast.Pass()]  # type: ignore[attr-defined]
    return node


# What a class statement stores and returns by itself; unveil prints a class
# body's code object as module statements, so these show up explicitly.
_IMPLICIT_CLASS_NAMES = frozenset({"__module__", "__qualname__", "__firstlineno__",
                                   "__static_attributes__", "__classcell__", "__classdictcell__"})


def _is_implicit(statement: ast.stmt) -> bool:
    return (isinstance(statement, ast.Assign) and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name) and statement.targets[0].id in _IMPLICIT_CLASS_NAMES)


def _explicit_class_body(body: List[ast.stmt]) -> List[ast.stmt]:
    """``body`` without the leading and trailing statements that the class
    statement generates itself (``__module__ = __name__``, ...,
    ``return __class__``)."""
    start, end = 0, len(body)
    while start < end and _is_implicit(body[start]):
        start += 1
    while end > start and (_is_implicit(body[end - 1]) or isinstance(body[end - 1], ast.Return)):
        end -= 1
    return body[start:end]


def _imported_names(code: types.CodeType) -> List[str]:
    """Names that ``code`` (or its nested code) uses as if its module imported
    them: 3.11+ compiles ``name.attr(...)`` without the method-call form when
    ``name`` is bound by a module-level import. A name loaded before a plain
    attribute and never before a method-style one is taken as imported (the
    import changes nothing else)."""
    plain, method = set(), set()
    for _, inner in code_paths(code):
        kept = _kept(inner)[0]
        for ins, after in zip(kept, kept[1:]):
            if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME", "LOAD_FAST", "LOAD_DEREF") and isinstance(ins.argval, str):
                if after.opname == "LOAD_METHOD" or (after.opname == "LOAD_ATTR" and "NULL|self" in after.argrepr):
                    method.add(ins.argval)
                elif after.opname == "LOAD_ATTR":
                    plain.add(ins.argval)
    return sorted(plain - method)


def _wrap(code: types.CodeType, definition: ast.stmt, qualname: Optional[str]) -> Tuple[ast.Module, List[str]]:
    """A module that defines ``definition`` in scopes like the original's, so
    that free variables, ``__class__``, ``CO_NESTED`` and (3.8-3.10) the
    qualified-name constants come out the same; and the scope names to walk."""
    path = _scope_path(code, qualname)
    free = [n for n in code.co_freevars if n != "__class__"]
    if "__class__" in code.co_freevars and not any(kind == "class" for kind, _ in path):
        path.append(("class", _CLASS))
    nested = bool(code.co_flags & _CO_NESTED) or bool(free)
    if nested and not any(kind == "def" for kind, _ in path):
        path.insert(0, ("def", _OUTER))
    innermost_function = max((k for k, (kind, _) in enumerate(path) if kind == "def"), default=-1)
    node = definition
    for k in range(len(path) - 1, -1, -1):
        kind, name = path[k]
        scope = ast.parse("def f():\n    pass" if kind == "def" else "class C:\n    pass").body[0]
        scope.name = name  # type: ignore[attr-defined]
        cells: List[ast.stmt] = []
        if k == innermost_function and free:  # make each free variable a cell here
            cells = [ast.Assign(targets=[ast.Name(id=n, ctx=ast.Store()) for n in free],
                                value=ast.Constant(value=None))]
        scope.body = cells + [node]  # type: ignore[attr-defined]
        node = scope
    imports: List[ast.stmt] = [ast.Import(names=[ast.alias(name=n)]) for n in _imported_names(code)]
    module = ast.Module(body=imports + [node], type_ignores=[])
    return ast.fix_missing_locations(module), [name for _, name in path]


def recompile_like(original: types.CodeType, source: str, qualname: Optional[str] = None) -> types.CodeType:
    """Compile decompiled ``source`` back into the code object that stands
    for ``original``, with this Python.

    A module compiles as a module. Otherwise ``source`` is either one
    ``def``/``class`` of ``original``'s name or the body of ``original``
    (unveil's output for a function's code object), which is put in a ``def``
    with ``original``'s parameters (``async def`` for coroutines and async
    generators; a lambda when the body is one ``return``; a ``class`` for a
    class body). That definition is nested in the scopes its qualified name
    lists (``qualname``, else 3.11+'s ``co_qualname``), plus an outer
    function that binds ``original``'s free variables and a class for
    ``__class__`` when the name says nothing. Future flags of ``original``
    are passed to ``compile``; globals that 3.11+ code calls methods on as
    if imported at module level get a module-level ``import``; the
    statements a class statement adds itself (``__module__ = __name__``,
    ``__qualname__``, ``__classcell__``, ``return __class__``, ...) are
    dropped from a class body. Raises ``SyntaxError`` or ``ValueError`` when
    the source does not compile.

    Left as differences, because source alone cannot rebuild them: the
    ``CO_ITERABLE_COROUTINE`` flag (``types.coroutine``); a comprehension's
    code object before 3.12 (its ``.0`` argument; check the enclosing code
    instead); names mangled for a class the qualified name does not give;
    constants that are not literals; 3.12+ type-parameter scopes. A body
    that is one ``def`` of ``original``'s own name is read as the
    definition itself."""
    flags = original.co_flags & _FUTURE_FLAGS
    if original.co_name == "<module>":
        return compile(source, original.co_filename, "exec", flags=flags, dont_inherit=True)
    body = ast.parse(source, original.co_filename).body
    module, names = _wrap(original, _definition(original, body), qualname)
    code = compile(module, original.co_filename, "exec", flags=flags, dont_inherit=True)
    for name in names + [original.co_name]:
        inner = next((c for c in code.co_consts if isinstance(c, types.CodeType) and c.co_name == name), None)
        if inner is None:
            raise ValueError(f"recompiled source has no code object named {name!r}")
        code = inner
    return code


def compare_decompiled(original: types.CodeType, source: str, qualname: Optional[str] = None) -> List[str]:
    """:func:`compare_code` of ``original`` against ``source`` recompiled by
    :func:`recompile_like`; one line saying why when it does not compile."""
    try:
        recompiled = recompile_like(original, source, qualname)
    except (SyntaxError, ValueError) as e:
        return [f"recompiled source does not compile: {type(e).__name__}: {e}"]
    return compare_code(original, recompiled)


def verification_message(original: types.CodeType, differences: List[str],
                         placeholders: Sequence[str] = (), shown: int = 5) -> str:
    """The text of the :class:`VerificationWarning` for ``differences``."""
    lines = [f"unveil's source for code object {original.co_name!r} ({original.co_filename}, line "
             f"{original.co_firstlineno}) does not compile back to the same bytecode; "
             f"{len(differences)} difference(s):"]
    lines += ["  " + d for d in differences[:shown]]
    if len(differences) > shown:
        lines.append(f"  ... and {len(differences) - shown} more")
    if placeholders:
        lines.append("  note: its constants include objects that are not literals ("
                     + ", ".join(placeholders[:3]) + (", ..." if len(placeholders) > 3 else "")
                     + "); the source names them, so its bytecode loads names instead")
    return "\n".join(lines)
