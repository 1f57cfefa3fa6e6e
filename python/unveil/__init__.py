"""unveil: read what torch.compile generated.

This release carries the foundation: reading any CPython 3.8-3.14 code object
(from a .pyc file or a live code object) and disassembling it with a C++ core.
"""
from pathlib import Path
from types import CodeType
from typing import Any, Dict, List, Union

from . import _core
from ._live import code_of, function_of, is_function_code, marshal_code, marshal_function
from .errors import (
    CodeObjectError,
    DecodeError,
    LimitError,
    MarshalError,
    PycError,
    UnsupportedVersionError,
    UnveilError,
)

__all__ = [
    "decompile",
    "FALLBACK_MARK",
    "disassemble",
    "disassemble_pyc",
    "decode",
    "decode_pyc",
    "pyc_header",
    "supported_versions",
    "UnveilError",
    "PycError",
    "MarshalError",
    "CodeObjectError",
    "DecodeError",
    "UnsupportedVersionError",
    "LimitError",
]

PathLike = Union[str, Path]

#: What the output says for a code object unveil could not decompile: its body
#: becomes the reason and the disassembly as comments, then
#: ``raise RuntimeError('unveil could not decompile <name>')``.
FALLBACK_MARK: str = _core.FALLBACK_MARK


def supported_versions() -> List[str]:
    """The CPython versions whose bytecode unveil reads, e.g. ['3.8', ..., '3.14']."""
    return [f"3.{minor}" for minor in _core.supported_versions()]


def disassemble(obj: Any, *, recursive: bool = True, show_caches: bool = False) -> str:
    """A listing of ``obj``'s bytecode in the columns of this Python's ``dis``.

    ``obj`` is a code object, or anything with one behind it: a function, a
    bound method, a ``functools.partial``, a ``__wrapped__`` wrapper or an
    object with ``__call__``.
    """
    m = marshal_code(code_of(obj))
    return _core.disassemble_marshal(
        m.data, m.minor, m.placeholder_prefix, m.placeholder_names, recursive, show_caches
    )


def decompile(obj: Any, *, verify: bool = False) -> str:
    """Python source rebuilt from ``obj``'s bytecode (a code object, function,
    method, partial, ...). A function prints as ``def name(signature):`` with
    its defaults, keyword-only defaults and annotations (taken from the
    function object; a bare code object has none); a module, class body,
    lambda or comprehension prints as its statements.

    With ``verify=True`` the output is compiled back with the running Python
    and compared with ``obj``'s bytecode, normalised as in :mod:`unveil.verify`
    (line numbers, positions and NOPs ignored, jump targets as instruction
    indices, constants by value, nested code objects recursively). A
    function's body is compiled inside a ``def`` with the code object's own
    parameters and enclosing scopes (see :func:`unveil.verify.recompile_like`).
    When they differ, or the output does not compile, a
    :class:`unveil.verify.VerificationWarning` lists the differences; the
    source is returned unchanged either way, so that ``verify`` never alters
    the output. Make the check strict with
    ``warnings.simplefilter("error", VerificationWarning)``, or call
    :func:`unveil.verify.compare_decompiled` to get the differences as a list.
    Code whose constants are not literals (Dynamo's) cannot verify equal: the
    source names those objects, and the warning says so.
    """
    # Read and decompiled in one call, constants that are not literals as named
    # placeholders; None when only unveil._live's substitution can read it.
    # (verify needs the placeholders' names, which the marshal path returns.)
    if type(obj) is CodeType:  # the common case, kept short: this is per-call cost
        if not verify:
            text = _core.decompile_live(obj, None, True)
            if text is not None:
                return text
        code, fn = obj, None
    else:
        code = code_of(obj)
        fn = function_of(obj) if is_function_code(code) else None
    text = _core.decompile_live(code, fn, not verify)
    placeholder_names: List[str] = []
    if text is None:
        if is_function_code(code):
            m = marshal_function(code, fn)
            text = _core.decompile_function_marshal(m.data, m.minor, m.placeholder_prefix, m.placeholder_names)
        else:
            m = marshal_code(code)
            text = _core.decompile_marshal(m.data, m.minor, m.placeholder_prefix, m.placeholder_names)
        placeholder_names = m.placeholder_names
    if verify:
        import warnings

        from . import verify as _verify

        qualname = getattr(obj, "__qualname__", None)
        differences = _verify.compare_decompiled(code, text, qualname if isinstance(qualname, str) else None)
        if differences:
            message = _verify.verification_message(code, differences, placeholder_names)
            warnings.warn(_verify.VerificationWarning(message), stacklevel=2)
    return text


def decode(obj: Any) -> List[Dict[str, Any]]:
    """Decoded instructions, line table and exception table of ``obj``'s code
    and of every code object nested in it (depth first)."""
    m = marshal_code(code_of(obj))
    return _core.decode_marshal(m.data, m.minor, m.placeholder_prefix, m.placeholder_names)


def _read(path: PathLike) -> bytes:
    return Path(path).read_bytes()


def disassemble_pyc(path: PathLike, *, recursive: bool = True, show_caches: bool = False) -> str:
    """A listing of a .pyc file of any CPython 3.8-3.14, whichever Python runs this."""
    return _core.disassemble_pyc(_read(path), recursive, show_caches)


def decode_pyc(path: PathLike) -> List[Dict[str, Any]]:
    """Like :func:`decode`, for a .pyc file of any supported version."""
    return _core.decode_pyc(_read(path))


def pyc_header(path: PathLike) -> Dict[str, Any]:
    """The PEP 552 header of a .pyc file: magic, Python version, flags, mtime or hash."""
    return _core.pyc_header(_read(path))


# The torch layer (depyf's names, so that `import unveil as depyf` works) lives
# in unveil.dynamo; it is imported on first use so that `import unveil` never
# imports torch.
_DYNAMO_NAMES = ("prepare_debug", "debug", "install", "uninstall")
__all__ += list(_DYNAMO_NAMES)


def __getattr__(name: str) -> Any:
    if name in _DYNAMO_NAMES:
        from . import dynamo

        return getattr(dynamo, name)
    raise AttributeError(f"module 'unveil' has no attribute {name!r}")
