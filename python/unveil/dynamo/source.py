"""Decompiled, annotated and recompiled source for Dynamo's transformed code.

``render(code, new_code)`` gives the text of ``__transformed_code_*`` files;
``recompile(...)`` turns that text back into a code object that passes
Dynamo's checks, or explains why it cannot.
"""
import ast
import dis
import io
import linecache
import secrets
import tokenize
import types
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

import unveil
from unveil._live import code_constants, describe, marshal_code


RUNS_LINE = "# Dynamo runs the code compiled from this file: breakpoints set here fire."


@dataclass
class Rendered:
    text: str                       # the whole file
    decompiled: bool                # False: the file holds the disassembly
    reason: str = ""                # why decompiling failed
    func_name: str = ""             # name of the def in the file
    constants: Dict[str, Any] = field(default_factory=dict)  # placeholder name -> object
    factory: bool = False           # the def sits inside a closure factory


def _signature(code: types.CodeType) -> str:
    """The parameter list of ``code`` (co_varnames order: positional, keyword-only, *args, **kw)."""
    names = code.co_varnames
    n, k = code.co_argcount, code.co_kwonlyargcount
    pieces = list(names[:n])
    posonly = getattr(code, "co_posonlyargcount", 0)
    if posonly:
        pieces.insert(posonly, "/")
    i = n + k
    if code.co_flags & 0x04:  # CO_VARARGS
        pieces.append("*" + names[i])
        i += 1
    elif k:
        pieces.append("*")
    pieces.extend(names[n:n + k])
    if code.co_flags & 0x08:  # CO_VARKEYWORDS
        pieces.append("**" + names[i])
    return ", ".join(pieces)


def arg_names(code: types.CodeType) -> Tuple[str, ...]:
    count = code.co_argcount + code.co_kwonlyargcount
    count += bool(code.co_flags & 0x04) + bool(code.co_flags & 0x08)
    return tuple(code.co_varnames[:count])


def _ident(name: str) -> str:
    out = "".join(c if c.isalnum() or c == "_" else "_" for c in name)
    return out if out and not out[0].isdigit() else "_" + out


def _anchors(code: types.CodeType) -> List[Tuple[str, str, Optional[int]]]:
    """(kind, name, user line) in instruction order: stores, global loads, returns."""
    out = []
    for ins in dis.get_instructions(code):
        line = ins.positions.lineno if hasattr(ins, "positions") and ins.positions else ins.starts_line
        if ins.opname in ("STORE_FAST", "STORE_NAME", "STORE_GLOBAL", "STORE_DEREF"):
            out.append(("store", str(ins.argval), line))
        elif ins.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
            out.append(("global", str(ins.argval), line))
        elif ins.opname.startswith("RETURN"):
            out.append(("return", "", line))
    return out


def _logical_line_ends(src: str) -> List[int]:
    rows = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(src).readline):
            if tok.type == tokenize.NEWLINE:
                rows.append(tok.start[0])
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return []
    return rows


def annotate(src: str, code: types.CodeType) -> str:
    """Append ``# file:line  source`` to each statement whose bytecode names a user line.

    The decompiler gives no line map, so statements are matched in order
    against the transformed code's stores, global loads and returns.
    """
    anchors = _anchors(code)
    cursor = 0
    lines = src.splitlines()
    ends = set(_logical_line_ends(src))
    globals_loaded = {a[1] for a in anchors if a[0] == "global"}
    for row in range(1, len(lines) + 1):
        if row not in ends:
            continue
        text = lines[row - 1].strip()
        want = None
        try:
            node = ast.parse(text).body[0] if not text.endswith(":") else None
        except SyntaxError:
            node = None
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            tgt = node.targets[0] if isinstance(node, ast.Assign) else node.target
            if isinstance(tgt, ast.Name):
                want = ("store", tgt.id)
        elif isinstance(node, ast.Return):
            want = ("return", "")
        if want is None and node is not None:
            for sub in ast.walk(node):
                if isinstance(sub, ast.Name) and sub.id in globals_loaded:
                    want = ("global", sub.id)
                    break
        if want is None:
            continue
        for j in range(cursor, len(anchors)):
            if anchors[j][:2] == want:
                cursor = j + 1
                line = anchors[j][2]
                if line:
                    user = linecache.getline(code.co_filename, line).strip()
                    note = f"  # {code.co_filename}:{line}"
                    if user:
                        note += f"  {user}"
                    lines[row - 1] += note
                break
    return "\n".join(lines) + "\n"


def _decompile_body(new_code: types.CodeType) -> Tuple[str, Dict[str, Any]]:
    """The decompiled body, with non-literal constants as ``__unveil_const_<i>_<tag>`` names."""
    from unveil import _core  # the body alone: render() writes the def line itself

    m = marshal_code(new_code)
    tag = secrets.token_hex(3)
    names = [f"__unveil_const_{i}_{tag}" for i in range(len(m.placeholder_objects))]
    src = _core.decompile_marshal(m.data, m.minor, m.placeholder_prefix, names)
    constants = dict(zip(names, m.placeholder_objects))
    # Code objects Dynamo uses as values (e.g. for _create_nested_fn) print as names too.
    constants.update({n: c for n, c in code_constants(new_code).items() if n in src})
    return src, constants


def render(code: types.CodeType, new_code: types.CodeType, compile_id: str) -> Rendered:
    """The file text for Dynamo's transformed ``new_code`` of ``code``."""
    header = [
        f"# Dynamo's transformed code of {code.co_name} ({code.co_filename}:{code.co_firstlineno}),",
        f"# compile id {compile_id}, written by unveil.",
    ]
    decompile = getattr(unveil, "decompile", None)
    reason = ""
    if decompile is None:
        reason = "this unveil build has no decompile()"
    else:
        try:
            body, constants = _decompile_body(new_code)
        except Exception as exc:  # any decompiler failure is soft
            reason = f"{type(exc).__name__}: {exc}".splitlines()[0]
        else:
            if unveil.FALLBACK_MARK in body:
                first = next((ln for ln in body.splitlines() if "could not decompile" in ln), "")
                reason = first.lstrip("# ").strip() or "the decompiler left a stub"
    if reason:
        try:
            listing = unveil.disassemble(new_code)
        except Exception as exc:
            listing = f"(disassembly failed too: {exc})"
        text = "\n".join(header + [
            f"# unveil could not decompile this code: {reason}",
            "# Dynamo runs its own bytecode for it; the disassembly follows.",
            "",
        ] + ["# " + ln if ln else "#" for ln in listing.splitlines()]) + "\n"
        return Rendered(text, False, reason)
    fname = _ident(code.co_name)
    indent = "    "
    sig = _signature(new_code)
    body_lines = [indent + ln if ln.strip() else ln for ln in body.rstrip("\n").splitlines()] or [indent + "pass"]
    for name, obj in constants.items():
        header.append(f"# {name} = {describe(obj)}  (a constant of Dynamo's code, bound when compiled)")
    lines = list(header) + [RUNS_LINE, ""]
    factory = bool(new_code.co_freevars)
    if factory:
        # free variables need an enclosing scope; the factory is never called
        lines.append("def __unveil_closure_factory():")
        lines.append(indent + ", ".join(new_code.co_freevars) + " = " + ", ".join(["None"] * len(new_code.co_freevars)))
        lines.append(indent + f"def {fname}({sig}):")
        # Dynamo keeps closure variables a resume function never reads; naming
        # them keeps them free variables of the recompiled code (it compiles to nothing).
        lines.append(indent * 2 + f"if False: ({', '.join(new_code.co_freevars)},)")
        lines.extend(indent + ln if ln.strip() else ln for ln in body_lines)
        lines.append(indent + f"return {fname}")
    else:
        lines.append(f"def {fname}({sig}):")
        lines.extend(body_lines)
    text = "\n".join(lines) + "\n"
    text = annotate(text, new_code)
    return Rendered(text, True, "", fname, constants, factory)


def _constants_as_strings(src: str, constants: Dict[str, Any]) -> str:
    """Same lines, placeholder names turned into string literals (patched after compiling)."""
    if not constants:
        return src
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type == tokenize.NAME and tok.string in constants:
            tok = tok._replace(string=repr(tok.string))
        out.append(tok)
    return tokenize.untokenize(out)


def _patch_consts(code: types.CodeType, constants: Dict[str, Any]) -> types.CodeType:
    consts = []
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            c = _patch_consts(c, constants)
        elif isinstance(c, str) and c in constants:
            c = constants[c]
        consts.append(c)
    return code.replace(co_consts=tuple(consts))


def _used_after_del(fn: ast.FunctionDef) -> Optional[str]:
    """A name read after a top-level ``del`` of it: the mark of a wrong decompile."""
    deleted = set()
    for stmt in fn.body:
        loads = {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        hit = loads & deleted
        if hit:
            return sorted(hit)[0]
        for n in ast.walk(stmt):
            if isinstance(n, ast.Name):
                if isinstance(n.ctx, ast.Store):
                    deleted.discard(n.id)
                elif isinstance(n.ctx, ast.Del) and isinstance(stmt, ast.Delete):
                    deleted.add(n.id)
    return None


def _global_names(code: types.CodeType) -> set:
    out = set()
    for ins in dis.get_instructions(code):
        if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
            out.add(str(ins.argval))
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            out |= _global_names(c)
    return out


def recompile(rendered: Rendered, path: str, code: types.CodeType, new_code: types.CodeType) -> types.CodeType:
    """The code object compiled from ``rendered`` (written at ``path``), checked
    against what Dynamo requires. Raises ValueError saying what does not match."""
    if not rendered.decompiled:
        raise ValueError(rendered.reason)
    src = _constants_as_strings(rendered.text, rendered.constants)
    tree = ast.parse(src, path)
    fn = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == rendered.func_name)
    bad = _used_after_del(fn)
    if bad:
        raise ValueError(f"decompiled source reads {bad!r} after deleting it")
    module = compile(tree, path, "exec", dont_inherit=True)

    def find(c: types.CodeType) -> Optional[types.CodeType]:
        for k in c.co_consts:
            if isinstance(k, types.CodeType):
                if k.co_name == rendered.func_name and k.co_firstlineno == fn.lineno:
                    return k
                got = find(k)
                if got is not None:
                    return got
        return None

    out = find(module)
    if out is None:
        raise ValueError("recompiled source has no function")
    out = _patch_consts(out, rendered.constants)
    replace = {"co_name": new_code.co_name}
    if hasattr(new_code, "co_qualname"):
        replace["co_qualname"] = new_code.co_qualname
    out = out.replace(**replace)
    if arg_names(out) != arg_names(code):
        raise ValueError(f"argument names differ: {arg_names(out)} != {arg_names(code)}")
    if out.co_freevars != code.co_freevars:
        raise ValueError(f"free variables differ: {out.co_freevars} != {code.co_freevars}")
    if out.co_cellvars != code.co_cellvars:
        raise ValueError(f"cell variables differ: {out.co_cellvars} != {code.co_cellvars}")
    if (out.co_flags ^ new_code.co_flags) & (0x20 | 0x80 | 0x100 | 0x200):
        raise ValueError("generator/coroutine flags differ")
    missing = _global_names(new_code) - _global_names(out)
    if missing:
        raise ValueError(f"recompiled source loses globals {sorted(missing)}")
    return out
