"""One reader for every version: .pyc files written by each pyenv Python are
read and decoded by whichever Python runs the tests."""
import subprocess

import pytest

import unveil
from conftest import compile_pyc

SOURCE = '''
import os
from . import sibling as s

class Point:
    """A point."""
    def __init__(self, x, y=0, *args, z=1, **kw):
        self.x, self.y = x, y

    def norm(self):
        return (self.x ** 2 + self.y ** 2) ** 0.5

def walk(items, limit=10):
    total = 0
    for i, item in enumerate(items):
        if i > limit:
            break
        try:
            total += item
        except TypeError as e:
            continue
        finally:
            pass
    while total > 100:
        total -= 1
    return [x * 2 for x in range(total) if x % 3], {k: v for k, v in kw.items()} if (kw := {}) else f"{total!r:>10}"

async def fetch(session):
    async with session as s:
        async for chunk in s:
            yield await chunk
'''

DIS_SCRIPT = r'''
import dis, marshal, sys, json, types
data = open(sys.argv[1], "rb").read()[16:]
code = marshal.loads(data)
out = []
def walk(co):
    out.append([co.co_name, [[i.offset, i.opname, i.arg] for i in dis.get_instructions(co)]])
    for c in co.co_consts:
        if isinstance(c, types.CodeType):
            walk(c)
walk(code)
print(json.dumps(out))
'''


@pytest.mark.parametrize("minor", ["3.8", "3.9", "3.10", "3.11", "3.12", "3.13"])
def test_pyc_of_each_version_matches_that_versions_dis(minor, pythons, tmp_path):
    if minor not in pythons:
        pytest.skip(f"no pyenv Python {minor} here")
    pyc = compile_pyc(pythons[minor], SOURCE, str(tmp_path / "mod.pyc"))
    header = unveil.pyc_header(pyc)
    assert header["python"] == minor
    assert header["hash_based"] is False
    ours = unveil.decode_pyc(pyc)
    import json

    theirs = json.loads(subprocess.run([pythons[minor], "-c", DIS_SCRIPT, pyc], capture_output=True,
                                       text=True, check=True).stdout)
    assert [c["name"] for c in ours] == [name for name, _ in theirs]
    for code, (name, instructions) in zip(ours, theirs):
        got = [[offset, opname, arg] for offset, _s, _o, opname, arg, _v in code["instructions"]]
        assert got == instructions, name
    listing = unveil.disassemble_pyc(pyc)
    assert "walk" in listing and "norm" in listing


@pytest.mark.parametrize("minor", ["3.8", "3.11", "3.13"])
def test_hash_based_pyc_header(minor, pythons, tmp_path):
    if minor not in pythons:
        pytest.skip(f"no pyenv Python {minor} here")
    src = tmp_path / "m.py"
    src.write_text("x = 1\n")
    pyc = tmp_path / "m.pyc"
    code = ("import py_compile; py_compile.compile(%r, cfile=%r, doraise=True, "
            "invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)" % (str(src), str(pyc)))
    subprocess.run([pythons[minor], "-c", code], check=True)
    header = unveil.pyc_header(pyc)
    assert header["hash_based"] is True and header["check_source"] is True
    raw = pyc.read_bytes()
    assert header["source_hash"] == int.from_bytes(raw[8:16], "little")
    assert header["magic"] == int.from_bytes(raw[:2], "little")
