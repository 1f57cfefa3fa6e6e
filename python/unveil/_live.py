"""Turning live code objects into marshal bytes for the C++ core.

``marshal.dumps`` refuses code whose ``co_consts`` hold objects that are not
literals: Dynamo's transformed code carries classes, dtypes and functions
there. Each such constant is swapped for a unique string token before
marshalling; the core turns the tokens back into named placeholders.
"""
import marshal
import secrets
import sys
import types
from dataclasses import dataclass, field
from typing import Any, List, Optional, Tuple

_MARSHALLABLE_ATOMS = (type(None), bool, int, float, complex, str, bytes, type(Ellipsis))


@dataclass
class MarshalledCode:
    data: bytes
    minor: int
    placeholder_prefix: str = ""
    placeholder_names: List[str] = field(default_factory=list)
    placeholder_objects: List[Any] = field(default_factory=list)


def describe(obj: Any) -> str:
    """A short name that says what a non-literal constant is."""
    if isinstance(obj, type) or callable(obj):
        module = getattr(obj, "__module__", None) or ""
        qualname = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None)
        if qualname:
            return f"{module}.{qualname}" if module and module != "builtins" else qualname
    text = repr(obj)
    if len(text) <= 60 and "\n" not in text:
        return text
    return f"<{type(obj).__qualname__} object>"


def _can_marshal(value: Any) -> bool:
    if type(value) in _MARSHALLABLE_ATOMS or value is StopIteration:  # a subclass is marshal's to refuse
        return True
    try:
        marshal.dumps(value)
        return True
    except ValueError:
        return False


class _Substituter:
    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.names: List[str] = []
        self.objects: List[Any] = []

    def constant(self, value: Any) -> Any:
        if isinstance(value, types.CodeType):
            return self.code(value)
        if type(value) is tuple:
            return tuple(self.constant(item) for item in value)
        if _can_marshal(value):
            return value
        self.names.append(describe(value))
        self.objects.append(value)
        return f"{self.prefix}{len(self.objects) - 1}"

    def code(self, code: types.CodeType) -> types.CodeType:
        return code.replace(co_consts=tuple(self.constant(c) for c in code.co_consts))


def _strings_in(code: types.CodeType) -> List[str]:
    found = []
    for c in code.co_consts:
        if isinstance(c, str):
            found.append(c)
        elif isinstance(c, types.CodeType):
            found.extend(_strings_in(c))
    return found


def marshal_code(code: types.CodeType) -> MarshalledCode:
    """Marshal ``code`` for the core, substituting constants marshal refuses."""
    minor = sys.version_info[1]
    try:
        return MarshalledCode(marshal.dumps(code), minor)
    except ValueError:
        pass
    strings = _strings_in(code)
    while True:  # a token that no real constant starts with
        prefix = f"\x00unveil-placeholder-{secrets.token_hex(8)}-"
        if not any(s.startswith(prefix) for s in strings):
            break
    substituter = _Substituter(prefix)
    data = marshal.dumps(substituter.code(code))
    return MarshalledCode(data, minor, prefix, substituter.names, substituter.objects)


def function_of(obj: Any) -> Optional[types.FunctionType]:
    """The Python function behind a method, partial, ``__wrapped__`` chain or
    callable object, or None (a code object, a builtin)."""
    seen = set()
    while not isinstance(obj, types.FunctionType):
        if id(obj) in seen or isinstance(obj, types.CodeType):
            return None
        seen.add(id(obj))
        if hasattr(obj, "__func__"):
            obj = obj.__func__
        elif hasattr(obj, "__wrapped__"):
            obj = obj.__wrapped__
        elif hasattr(obj, "func") and callable(getattr(obj, "func")):  # functools.partial
            obj = obj.func
        elif callable(obj) and isinstance(getattr(type(obj), "__call__", None), types.FunctionType):
            obj = type(obj).__call__
        else:
            return None
    return obj


def is_function_code(code: types.CodeType) -> bool:
    """A ``def``'s code (not a module, class body, lambda or comprehension)."""
    return bool(code.co_flags & 0x01) and code.co_name.isidentifier()  # CO_OPTIMIZED


def marshal_function(code: types.CodeType, fn: Optional[types.FunctionType]) -> MarshalledCode:
    """Marshal ``(code, defaults, kwdefaults, annotations)`` for the core's
    ``decompile_function_marshal``; values marshal refuses become placeholders."""
    defaults = kwdefaults = annotations = None
    if fn is not None and fn.__code__ is code:
        defaults, kwdefaults = fn.__defaults__, fn.__kwdefaults__
        try:
            annotations = dict(fn.__annotations__) or None
        except Exception:  # 3.14 evaluates annotations lazily; a bad one must not stop us
            annotations = None
    minor = sys.version_info[1]
    value = (code, defaults, kwdefaults, annotations)
    try:
        return MarshalledCode(marshal.dumps(value), minor)
    except ValueError:
        pass
    strings = _strings_in(code) + [v for v in (defaults or ()) if isinstance(v, str)]
    while True:
        prefix = f"\x00unveil-placeholder-{secrets.token_hex(8)}-"
        if not any(s.startswith(prefix) for s in strings):
            break
    sub = _Substituter(prefix)

    def values(d: Optional[dict]) -> Optional[dict]:
        return None if d is None else {k: sub.constant(v) for k, v in d.items()}

    value = (sub.code(code), None if defaults is None else tuple(sub.constant(v) for v in defaults),
             values(kwdefaults), values(annotations))
    return MarshalledCode(marshal.dumps(value), minor, prefix, sub.names, sub.objects)


def code_of(obj: Any) -> types.CodeType:
    """The code object behind a function, method, partial or callable object."""
    seen = set()
    while not isinstance(obj, types.CodeType):
        if id(obj) in seen:
            break
        seen.add(id(obj))
        if hasattr(obj, "__code__"):
            obj = obj.__code__
        elif hasattr(obj, "__func__"):
            obj = obj.__func__
        elif hasattr(obj, "__wrapped__"):
            obj = obj.__wrapped__
        elif hasattr(obj, "func") and callable(getattr(obj, "func")):  # functools.partial
            obj = obj.func
        elif callable(obj) and hasattr(type(obj), "__call__") and hasattr(type(obj).__call__, "__code__"):
            obj = type(obj).__call__
        else:
            break
    if not isinstance(obj, types.CodeType):
        raise TypeError(f"no code object found behind {type(obj).__qualname__} object")
    return obj


def code_tuple(code: types.CodeType) -> Tuple[types.CodeType, ...]:
    """``code`` and every code object nested in its constants, depth first."""
    out = [code]
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            out.extend(code_tuple(c))
    return tuple(out)


def code_constant_name(code: types.CodeType) -> str:
    """The name decompiled source gives a code object used as a plain value
    (the core's ``code_constant_name``): bind it when compiling the source."""
    # The same bytes the core keeps: ASCII letters, digits and "_"; one "_" per other UTF-8 byte.
    ident = "".join(c if (c.isascii() and c.isalnum()) or c == "_" else "_" * len(c.encode())
                    for c in code.co_name)
    return f"__unveil_code_{ident}_{code.co_firstlineno}"


def code_constants(code: types.CodeType) -> dict:
    """Name -> code object for every code object nested in ``code``."""
    return {code_constant_name(c): c for c in code_tuple(code)[1:]}
