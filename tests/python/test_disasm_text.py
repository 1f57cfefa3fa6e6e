"""unveil.disassemble lines up with this Python's dis.dis, line by line."""
import dis
import io
import re
import sys
import types

import pytest

import unveil

SOURCES = {
    "branches": '''
def f(a, b=2, *args, c, d=4, **kw):
    if a and not b or c is None:
        x = a if b else c
    elif a in kw:
        x = [i * 2 for i in range(a) if i % 2]
    else:
        x = {k: v for k, v in kw.items()}
    return x, f"{a!r:>{b}}"
''',
    "loops_and_exceptions": '''
def g(items):
    total = 0
    for i, item in enumerate(items):
        while item > 10:
            item -= 3
            if item == 4:
                break
        else:
            continue
        try:
            total += 1 / item
        except ZeroDivisionError as e:
            raise ValueError("zero") from e
        except (TypeError, KeyError):
            pass
        finally:
            total -= 1
    return total
''',
    "classes_and_closures": '''
import os.path as p
from collections import *

class C(object, metaclass=type):
    """doc"""
    attr: int = 3

    def method(self):
        return super().method() + __class__.attr

def outer():
    n = 0
    def bump():
        nonlocal n
        n += 1
        return lambda: n
    return bump
''',
    "async_and_generators": '''
async def a(session, xs):
    async with session as s:
        async for x in s:
            await x
    return [y async for y in xs]

def gen(xs):
    yield 1
    yield from xs
    return (x for x in xs)
''',
}

if sys.version_info >= (3, 10):
    SOURCES["match"] = '''
def m(cmd):
    match cmd:
        case ["go", direction] if direction:
            return direction
        case {"x": x, **rest}:
            return x
        case Point(x=0, y=yy) | [yy, *_]:
            return yy
        case _:
            return None
'''


def reference_listing(code: types.CodeType) -> str:
    out = io.StringIO()
    if sys.version_info >= (3, 13):
        dis.dis(code, file=out, show_offsets=True)
    else:
        dis.dis(code, file=out)
    return re.sub(r" at 0x[0-9a-f]+", "", out.getvalue())


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_listing_equals_dis(name):
    code = compile(SOURCES[name], f"<{name}>", "exec")
    ours = unveil.disassemble(code)
    theirs = reference_listing(code)
    assert ours.splitlines() == theirs.splitlines()


@pytest.mark.skipif(sys.version_info < (3, 11), reason="caches exist from 3.11")
def test_listing_with_caches_equals_dis():
    code = compile(SOURCES["branches"], "<caches>", "exec")
    out = io.StringIO()
    kwargs = {"show_offsets": True} if sys.version_info >= (3, 13) else {}
    dis.dis(code, file=out, show_caches=True, **kwargs)
    theirs = re.sub(r" at 0x[0-9a-f]+", "", out.getvalue())
    assert unveil.disassemble(code, show_caches=True).splitlines() == theirs.splitlines()
