"""unveil.decompile(obj, verify=True) and the recompilation it relies on."""
import sys
import textwrap
import types
import warnings
from typing import Any, Callable, List

import pytest

import unveil
from unveil import _core, verify
from unveil.verify import VerificationWarning, compare_decompiled, recompile_like


def _body(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def _code(source: str, *names: str) -> types.CodeType:
    """The code object reached from compiling ``source`` by following ``names``."""
    code = compile(_body(source), "<verify-test>", "exec", dont_inherit=True)
    for name in names:
        code = next(c for c in code.co_consts if isinstance(c, types.CodeType) and c.co_name == name)
    return code


def _warnings_of(call: Callable[[], Any]) -> List[warnings.WarningMessage]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return [w for w in caught if issubclass(w.category, VerificationWarning)]


# --- recompile_like on hand-written bodies: the wrapping alone ---------------

EQUAL_CASES = [
    # (source, path to the code object, qualname or None, the body as unveil prints it)
    ("def f(a, b=2):\n    return a + b\n", ("f",), None, "return a + b\n"),
    ("def f(p, /, q, *rest, k, **kw):\n    return p, q, rest, k, kw\n", ("f",), None,
     "return p, q, rest, k, kw\n"),
    ("def f(a):\n    return a\n", ("f",), None, "def f(a):\n    return a\n"),
    ("def outer():\n    x = 1\n    def g(y):\n        nonlocal x\n        x += y\n        return x\n    return g\n",
     ("outer", "g"), "outer.<locals>.g", "nonlocal x\nx += y\nreturn x\n"),
    ("def outer():\n    x = 1\n    def g():\n        return x\n    return g\n", ("outer", "g"), None, "return x\n"),
    # No free variables and a qualified name that says nothing: CO_NESTED alone asks for an outer def.
    ("def outer():\n    def g(a):\n        return a\n    return g\n", ("outer", "g"), "g", "return a\n"),
    ("class C(B):\n    def m(self):\n        return super().m() + 1\n", ("C", "m"), "C.m",
     "return super().m() + 1\n"),
    ("async def co(a):\n    async for x in a:\n        await x\n", ("co",), None,
     "async for x in a:\n    await x\n"),
    ("def gen(n):\n    yield from range(n)\n", ("gen",), None, "yield from range(n)\n"),
    ("f = lambda q, *, r=1: q + r\n", ("<lambda>",), None, "return q + r\n"),
    ("class K(Base):\n    '''doc'''\n    y = 2\n\n    def m(self):\n        return __class__\n", ("K",), "K",
     "__module__ = __name__\n__qualname__ = 'K'\n__doc__ = 'doc'\ny = 2\n\n\ndef m(self):\n    return __class__\n\n\n"
     "__classcell__ = __class__\nreturn __class__\n"),
    ("import os\ndef f(p):\n    return os.fspath(p)\n", ("f",), None, "return os.fspath(p)\n"),
    ("from __future__ import annotations\ndef f():\n    x: list[int] = []\n    return x\n", ("f",), None,
     "x: list[int] = []\nreturn x\n"),
    ("x = 1\nif x:\n    y = [i for i in range(x)]\n", (), None, "x = 1\nif x:\n    y = [i for i in range(x)]\n"),
]


@pytest.mark.parametrize("source, path, qualname, body", EQUAL_CASES)
def test_the_right_body_verifies_equal(source: str, path: tuple, qualname: str, body: str) -> None:
    original = _code(source, *path)
    assert compare_decompiled(original, body, qualname) == []


def test_recompile_like_returns_the_matching_code_object() -> None:
    original = _code("def outer():\n    x = 1\n    def g():\n        return x\n    return g\n", "outer", "g")
    recompiled = recompile_like(original, "return x\n", "outer.<locals>.g")
    assert recompiled.co_name == "g"
    assert recompiled.co_freevars == ("x",)
    assert recompiled.co_flags == original.co_flags


# --- differences must be found ------------------------------------------------


def test_a_different_body_is_reported_with_the_instruction() -> None:
    original = _code("def f(a, b):\n    return a + b\n", "f")
    differences = compare_decompiled(original, "return a - b\n")
    assert len(differences) == 1
    assert differences[0].startswith("/f: instruction ")
    assert "BINARY" in differences[0]


def test_a_different_code_object_is_reported() -> None:
    # Compare against another function's code through the internal API.
    first = _code("def f(a):\n    if a:\n        return 1\n    return 2\n", "f")
    second = _code("def f(a):\n    while a:\n        a -= 1\n    return 2\n", "f")
    assert verify.compare_code(first, second) != []
    assert compare_decompiled(first, "while a:\n    a -= 1\nreturn 2\n") != []


def test_superinstructions_count_as_their_halves() -> None:
    # 3.13 fuses `LOAD_FAST a; LOAD_FAST b` only when both are on one line.
    split = _code("def f(a, b):\n    return g(\n        a,\n        b)\n", "f")
    joined = _code("def f(a, b):\n    return g(a, b)\n", "f")
    swapped = _code("def f(a, b):\n    return g(b, a)\n", "f")
    if sys.version_info >= (3, 13):
        assert any(i.opname == "LOAD_FAST_LOAD_FAST" for i in __import__("dis").get_instructions(joined))
    assert verify.compare_code(split, joined) == []
    assert verify.compare_code(joined, swapped) != []


def test_missing_nonlocal_changes_the_scopes() -> None:
    original = _code("def outer():\n    x = 1\n    def g(y):\n        nonlocal x\n        x += y\n    return g\n",
                     "outer", "g")
    differences = compare_decompiled(original, "x += y\n", "outer.<locals>.g")
    assert any("freevars differs" in d for d in differences)


def test_a_lost_docstring_is_reported() -> None:
    original = _code("def f():\n    'Says hello.'\n    return 1\n", "f")
    assert any("docstring differs" in d for d in compare_decompiled(original, "return 1\n"))


def test_source_that_does_not_compile_is_reported() -> None:
    original = _code("def f(a):\n    return a\n", "f")
    (only,) = compare_decompiled(original, "return a +\n")
    assert only.startswith("recompiled source does not compile: SyntaxError")


# --- unveil.decompile(obj, verify=True) ----------------------------------------


def straight(a: int, b: int = 2) -> int:
    c = a * b
    return c + 1


def chooser(a: int) -> str:
    if a > 1:
        return "big"
    return "small"


def test_verify_is_silent_when_the_output_is_right() -> None:
    for fn in (straight, chooser):
        caught = _warnings_of(lambda: unveil.decompile(fn, verify=True))
        assert caught == [], [str(w.message) for w in caught]


def test_verify_warns_and_returns_the_source_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    # A decompiler that gets the operator wrong must be caught.
    def wrong(*args: Any) -> str:
        return "c = a * b\nreturn c - 1\n"

    monkeypatch.setattr(_core, "decompile_live", wrong)
    with pytest.warns(VerificationWarning, match="does not compile back to the same bytecode") as record:
        text = unveil.decompile(straight, verify=True)
    assert text == "c = a * b\nreturn c - 1\n"
    message = str(record[0].message)
    assert "'straight'" in message and "/straight: instruction" in message
    assert record[0].filename == __file__  # the warning points at the caller
    assert _warnings_of(lambda: unveil.decompile(straight)) == []  # verify=False checks nothing


def test_verify_can_be_made_strict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_core, "decompile_live", lambda *args: "return (\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error", VerificationWarning)
        with pytest.raises(VerificationWarning, match="does not compile: SyntaxError"):
            unveil.decompile(straight, verify=True)


class Marker:
    pass


def test_non_literal_constants_are_named_in_the_warning() -> None:
    def f() -> int:
        return 123456789

    code = f.__code__
    code = code.replace(co_consts=tuple(Marker if c == 123456789 else c for c in code.co_consts))
    caught = _warnings_of(lambda: unveil.decompile(code, verify=True))
    assert len(caught) == 1
    assert "not literals" in str(caught[0].message)
    assert "Marker" in str(caught[0].message)


@pytest.mark.skipif(sys.version_info < (3, 11), reason="the import rule only changes bytecode on 3.11+")
def test_imported_module_calls_keep_their_form() -> None:
    original = _code("import os\ndef f(p):\n    return os.fspath(p)\n", "f")
    plain = _code("def f(p):\n    return os.fspath(p)\n", "f")
    assert verify.compare_code(original, plain) != []  # the context matters ...
    assert compare_decompiled(original, "return os.fspath(p)\n") == []  # ... and is rebuilt
    assert compare_decompiled(plain, "return os.fspath(p)\n") == []
