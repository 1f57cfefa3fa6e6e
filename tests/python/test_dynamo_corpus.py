"""The behaviour check of tools/dynamo_corpus.py: recording stand-ins must
tell equal code from code that calls in another order, unpacks differently or
hands out a function that behaves differently; and the Dynamo corpus must run.

Runs only under Python 3.10 (the corpus's bytecode, and the harness reads 3.10
frames); the corpus tests also need ../shared/corpus/dynamo-hf."""
import ast
import os
import sys
import textwrap
import types

import pytest

if sys.version_info[:2] != (3, 10):
    pytest.skip("the Dynamo corpus harness runs on Python 3.10 only", allow_module_level=True)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import dynamo_corpus  # noqa: E402

CORPUS = os.path.normpath(dynamo_corpus.DEFAULT_CORPUS)
needs_corpus = pytest.mark.skipif(not os.path.exists(os.path.join(CORPUS, "manifest.json")),
                                  reason="../shared/corpus/dynamo-hf is not present")


def code_of(source: str, name: str = "f") -> types.CodeType:
    namespace: dict = {}
    exec(compile(textwrap.dedent(source), "<test>", "exec"), namespace)
    return namespace[name].__code__


ORIGINAL = """
def f(a, b):
    x = a.first(1)
    b.second(x, key=2)
    return x
"""


def test_same_source_is_equal() -> None:
    result = dynamo_corpus.compare_behaviour(code_of(ORIGINAL), textwrap.dedent(ORIGINAL))
    assert result.equal, result.difference
    assert result.endings == ("return",) * len(dynamo_corpus.BOOL_MODES)


def test_calls_in_another_order_differ() -> None:
    swapped = """
    def f(a, b):
        b.second(None, key=2)
        x = a.first(1)
        return x
    """
    result = dynamo_corpus.compare_behaviour(code_of(ORIGINAL), textwrap.dedent(swapped))
    assert not result.equal
    assert "event 0" in result.difference


def test_missing_call_and_wrong_value_differ() -> None:
    missing = "def f(a, b):\n    return a.first(1)\n"
    wrong = "def f(a, b):\n    x = a.first(1)\n    b.second(x, key=2)\n    return b\n"
    assert not dynamo_corpus.compare_behaviour(code_of(ORIGINAL), missing).equal
    result = dynamo_corpus.compare_behaviour(code_of(ORIGINAL), wrong)
    assert not result.equal and result.kind == "outcome return vs return"


def test_unpacking_gets_the_count_it_asks_for() -> None:
    original = code_of("def f(t):\n    x, *y, z = t\n    a, b, c = x\n    return (y, z, c)\n")
    result = dynamo_corpus.compare_behaviour(original, "def f(t):\n    x, *y, z = t\n    a, b, c = x\n    return (y, z, c)\n")
    assert result.equal, result.difference
    other = dynamo_corpus.compare_behaviour(original, "def f(t):\n    x, *y, z = t\n    a, b, c = x\n    return (y, z, b)\n")
    assert not other.equal


def test_bool_pattern_reaches_both_branches() -> None:
    original = code_of("def f(a, b):\n    if a:\n        return b.yes()\n    return b.no()\n")
    inverted = "def f(a, b):\n    if not a:\n        return b.yes()\n    return b.no()\n"
    result = dynamo_corpus.compare_behaviour(original, inverted)
    assert not result.equal and result.difference.startswith("[true]")


def test_escaped_function_is_called() -> None:
    original = code_of("def f(g):\n    def h(x):\n        return x.a\n    return g(h)\n")
    same = "def f(g):\n    def h(x):\n        return x.a\n    return g(h)\n"
    other = "def f(g):\n    def h(x):\n        return x.b\n    return g(h)\n"
    assert dynamo_corpus.compare_behaviour(original, same).equal
    result = dynamo_corpus.compare_behaviour(original, other)
    assert not result.equal and "getattr" in result.difference


def test_super_with_class_cell() -> None:
    source = """
    class C:
        def m(self, key, value):
            return super(__class__, self).__setattr__(key, value)
    """
    namespace: dict = {}
    exec(compile(textwrap.dedent(source), "<test>", "exec"), namespace)
    original = namespace["C"].m.__code__
    good = "def m(self, key, value):\n    return super(__class__, self).__setattr__(key, value)\n"
    bad = "def m(self, key, value):\n    return super(__class__, self).__setattr__(value, key)\n"
    result = dynamo_corpus.compare_behaviour(original, good)
    assert result.equal and result.endings[0] == "return", result
    assert not dynamo_corpus.compare_behaviour(original, bad).equal


def _return_none(source: str) -> str:
    """Break a decompiled def on purpose: every return gives None."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Return):
            node.value = None
    return ast.unparse(tree)


@needs_corpus
def test_corpus_runs_and_broken_output_is_caught() -> None:
    pytest.importorskip("unveil")
    good = dynamo_corpus.survey(CORPUS)
    assert good.total == 523 and good.cannot_run == {}
    assert good.checked == good.total
    assert good.same == 523, good.differences[:3]  # every object behaves like Dynamo's own
    broken = dynamo_corpus.survey(CORPUS, alter=_return_none)
    returns_none = sum(1 for d in broken.differences if "outcome" not in d)
    assert broken.checked == good.checked
    assert broken.same < good.same - 450, (broken.same, returns_none)


def test_exception_path_is_checked() -> None:
    original = code_of("""
    def f(cm, g):
        cm.enter()
        try:
            x = g()
        finally:
            cm.exit()
        return x
    """)
    same_path = "def f(cm, g):\n    cm.enter()\n    try:\n        x = g()\n    finally:\n        cm.exit()\n    return x\n"
    no_finally = "def f(cm, g):\n    cm.enter()\n    x = g()\n    cm.exit()\n    return x\n"
    assert dynamo_corpus.compare_behaviour(original, same_path).equal
    result = dynamo_corpus.compare_behaviour(original, no_finally)
    assert not result.equal and "call 2 raises" in result.difference, result.difference


def test_loops_and_the_event_budget() -> None:
    original = code_of("def f(xs, a):\n    for x in xs:\n        a.add(x)\n    while a:\n        a.step()\n    return a\n")
    same = "def f(xs, a):\n    for x in xs:\n        a.add(x)\n    while a:\n        a.step()\n    return a\n"
    once = "def f(xs, a):\n    for x in xs:\n        a.add(x)\n        break\n    while a:\n        a.step()\n    return a\n"
    result = dynamo_corpus.compare_behaviour(original, same)
    assert result.equal, result.difference
    assert result.endings[0] == "budget"  # all-True: the while loop never ends
    assert not dynamo_corpus.compare_behaviour(original, once).equal
