"""unveil.decompile(function) prints a def with the real signature, and the
def it prints behaves like the original."""
import dis
import functools
import sys
import types

import pytest

import unveil

_SENTINEL = object()


def signature_sample(a, /, b=1, *args, c, d=(1, 2), **kw) -> int:
    """Doc."""
    return a + b + c + len(args) + len(d) + len(kw)


def with_object_default(x, marker=_SENTINEL):
    return x if marker is _SENTINEL else marker


async def coroutine_sample(x=3):
    return x


class Holder:
    def method(self, y: int = 2) -> int:
        return y * 2


def _run(src: str, name: str):
    namespace: dict = {}
    exec(compile(src, "<decompiled>", "exec"), namespace)
    return namespace[name]


def test_signature_with_defaults_and_annotations():
    src = unveil.decompile(signature_sample)
    assert src.startswith("def signature_sample(a, /, b=1, *args, c, d=(1, 2), **kw) -> int:\n"), src
    assert '"""Doc."""' in src
    rebuilt = _run(src, "signature_sample")
    assert rebuilt(1, 2, 3, c=4, e=5) == signature_sample(1, 2, 3, c=4, e=5)


def test_bare_code_object_has_no_defaults():
    src = unveil.decompile(signature_sample.__code__)
    assert src.startswith("def signature_sample(a, /, b, *args, c, d, **kw):\n"), src


def test_non_literal_default_is_named():
    src = unveil.decompile(with_object_default)
    first = src.splitlines()[0]
    assert first.startswith("def with_object_default(x, marker=") and "_SENTINEL" not in first.split("=")[0]
    assert "object" in first, first  # the placeholder says what the default is


def test_method_partial_and_async():
    assert unveil.decompile(Holder().method).startswith("def method(self, y: int = 2) -> int:\n")
    assert unveil.decompile(functools.partial(signature_sample, 1)).startswith("def signature_sample(")
    assert unveil.decompile(coroutine_sample).startswith("async def coroutine_sample(x=3):\n")


def test_lambda_prints_its_body():
    src = unveil.decompile(lambda x: x + 1)
    assert not src.startswith("def") and "x + 1" in src


def test_a_function_given_up_on_raises_the_fallback_mark_with_its_name() -> None:
    # A POP_TOP on an empty stack (after RESUME, from 3.11) has no source:
    # the nested function's body becomes the fallback, and the module around
    # it still decompiles. (Not an unknown opcode: 3.11+ reads those back as 0.)
    module = compile("def broken():\n    return 1\n\nx = 2\n", "<fallback>", "exec")
    inner = next(c for c in module.co_consts if isinstance(c, types.CodeType))
    keep = 2 if inner.co_code[0] == dis.opmap.get("RESUME") else 0
    bad = inner.replace(co_code=inner.co_code[:keep] + bytes([dis.opmap["POP_TOP"], 0]) + inner.co_code[keep:])
    module = module.replace(co_consts=tuple(bad if c is inner else c for c in module.co_consts))
    out = unveil.decompile(module)
    assert unveil.FALLBACK_MARK == "unveil could not decompile"
    assert f"raise RuntimeError('{unveil.FALLBACK_MARK} broken')" in out
    assert "x = 2" in out
