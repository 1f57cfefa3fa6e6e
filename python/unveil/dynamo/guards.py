"""``full_code_for_<fn>_<n>.py``: guards as Python functions, dispatch and fallback."""
import ast
import json
import inspect
import re
import textwrap
import types
from typing import Any, List, Optional, Sequence, Tuple

from . import compat
from .guard_runtime import NAMES
from .source import _signature, arg_names

_DISPATCH_KEYS = re.compile(r"DispatchKeySet\(([^()]*)\)")
_GLOBAL_STATE = re.compile(r"^___check_global_state\(\) against (\{.*\})$", re.S)


def render_guard(part: str) -> Tuple[Optional[str], str]:
    """(Python expression or None, comment). None when the guard is not Python
    (Dynamo prints some as descriptions) or needs names we cannot provide."""
    text = part.split("  #", 1)[0].strip()
    state = _GLOBAL_STATE.match(text)
    if state:
        try:
            text = f"___check_global_state({json.loads(state.group(1))!r})"
        except ValueError:
            return None, "global state not readable; checked by Dynamo only"
    text = _DISPATCH_KEYS.sub(lambda m: repr("DispatchKeySet(" + m.group(1) + ")"), text)
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        return None, "not Python; checked by Dynamo only"
    unknown = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} - NAMES)
    if unknown:
        return None, "uses " + ", ".join(unknown) + "; checked by Dynamo only"
    return text, ""


def guard_function(name: str, parts: Optional[Sequence[str]]) -> str:
    lines = [f"def {name}(L, G, **___kwargs_ignored):", "    __guard_hit = True"]
    if parts is None:
        lines.append("    # this torch gives no guard expressions for the entry")
    for part in parts or ():
        expr, why = render_guard(part)
        flat = " ".join(part.split())
        if expr is None:
            lines.append(f"    # {why}: {flat}")
        else:
            lines.append(f"    __guard_hit = __guard_hit and {expr}")
    lines.append("    return __guard_hit")
    return "\n".join(lines)


def _original_source(code: types.CodeType, new_name: str) -> Optional[str]:
    try:
        src = textwrap.dedent(inspect.getsource(code))
        tree = ast.parse(src)
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    fn = tree.body[0] if tree.body else None
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    lines = src.splitlines()
    start = fn.lineno - 1  # drop decorators: they ran already
    body = "\n".join(lines[start:])
    return re.sub(r"\bdef\s+" + re.escape(fn.name) + r"\s*\(", f"def {new_name}(", body, count=1)


def full_code(code: types.CodeType, fn_key: str, entries: List[Tuple[str, Any, str, Optional[str]]]) -> str:
    """The file for ``code``. ``entries``: (compile key, cache entry, transformed
    file name, transformed source or None), in the order Dynamo checks them."""
    sig = _signature(code)
    args = arg_names(code)
    call = ", ".join(_call_args(code))
    module = _module_name(code)
    out = [
        f"# Guards and dispatch for {code.co_name} ({code.co_filename}:{code.co_firstlineno}), written by unveil.",
        "# Each __guard_<k> function re-checks one cache entry's guards in Python; transformed_"
        f"{fn_key}() tries them in Dynamo's order and falls back to the original function.",
        "# L is the dict of the frame's locals, G the function's globals.",
        "import torch",
        "from unveil.dynamo.guard_runtime import *  # noqa: F401,F403  check_tensor, ___check_obj_id, ...",
        "from unveil.dynamo.guard_runtime import ___check_obj_id, ___check_type_id, ___check_global_state",
        "from unveil.dynamo.guard_runtime import ___check_torch_function_mode_stack, ___dict_contains",
        "from unveil.dynamo.guard_runtime import ___tuple_iterator_len",
        "",
        f"__user_module = {module!r}",
        "",
        "",
        "def bind_globals(user_globals=None):",
        "    \"\"\"Copy the names the code below needs (Dynamo's __compiled_fn_*, __resume_at_*, the",
        "    user's imports) from the user's module globals into this module.\"\"\"",
        "    if user_globals is None:",
        "        import importlib",
        "        user_globals = vars(importlib.import_module(__user_module))",
        "    for k, v in user_globals.items():",
        "        globals().setdefault(k, v)",
        "    return globals()",
        "",
        "",
    ]
    for key, entry, fname, src in entries:
        out.append(f"# cache entry compiled as {key.replace('_', '/', 1)}; guard tree:")
        tree = compat.entry_guard_tree(entry)
        out.extend("#   " + ln for ln in tree.strip().splitlines()[:200])
        out.append(guard_function(f"__guard_{key}_for_{fn_key}", compat.entry_guard_code_parts(entry)))
        out += ["", ""]
        tname = f"__transformed_code_{key}_for_{fn_key}"
        if src is not None and "__unveil_closure_factory" not in src:
            body = _def_renamed(src, tname)
            out.append(f"# from {fname}")
            out.append(body.rstrip("\n"))
        else:
            out.append(f"def {tname}({sig}):")
            out.append(f"    raise NotImplementedError('no decompiled source; see {fname}')")
        out += ["", ""]
    orig = _original_source(code, f"__original_{fn_key}")
    if orig is None:
        out.append(f"def __original_{fn_key}({sig}):")
        out.append("    raise NotImplementedError('the original source is not available "
                   "(a resume function or code without a file); Dynamo would compile a new entry')")
    else:
        out.append(orig.rstrip("\n"))
    out += ["", ""]
    out.append(f"def transformed_{fn_key}({sig}):")
    out.append("    L = {" + ", ".join(f"{a!r}: {a}" for a in args) + "}")
    out.append("    G = globals()")
    for key, _e, _f, _s in entries:
        out.append(f"    if __guard_{key}_for_{fn_key}(L, G):")
        out.append(f"        return __transformed_code_{key}_for_{fn_key}({call})")
    out.append(f"    return __original_{fn_key}({call})")
    out.append("")
    text = "\n".join(out)
    compile(text, "<full_code>", "exec")  # it must be valid Python
    return text


def _call_args(code: types.CodeType) -> List[str]:
    names = code.co_varnames
    n, k = code.co_argcount, code.co_kwonlyargcount
    out = list(names[:n])
    i = n + k
    if code.co_flags & 0x04:
        out.append("*" + names[i])
        i += 1
    out.extend(f"{a}={a}" for a in names[n:n + k])
    if code.co_flags & 0x08:
        out.append("**" + names[i])
    return out


def _module_name(code: types.CodeType) -> str:
    import sys

    for name, mod in list(sys.modules.items()):
        if getattr(mod, "__file__", None) == code.co_filename:
            return name
    return "__main__"


def _def_renamed(src: str, new_name: str) -> str:
    lines = [ln for ln in src.splitlines() if not ln.startswith("#")]
    text = "\n".join(lines).strip("\n")
    return re.sub(r"^def\s+\w+\s*\(", f"def {new_name}(", text, count=1, flags=re.M)
