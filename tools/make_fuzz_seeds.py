#!/usr/bin/env python3
"""Write a seed corpus for the fuzz targets into a directory.

Both targets (fuzz/read_decode_fuzzer.cpp, fuzz/decompile_fuzzer.cpp) read the
same input layout. Every pyenv Python (3.8–3.13) compiles the small sources
below and a few small standard-library modules (real compiler output with
loops, try/with and comprehensions); each result becomes two seeds:

    00 <whole .pyc>                     mode a: read_pyc
    01 <minor - 8> <marshal of module>  mode b: raw marshal for that version

The 3.14 fixtures from tests/fixtures/py314/ are added the same way. Seeds are
generated, not committed:

    python3 tools/make_fuzz_seeds.py /tmp/fuzz-seeds
"""

from __future__ import annotations

import argparse
import glob
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PY314_FIXTURES = REPO / "tests" / "fixtures" / "py314"
PYENV_GLOB = "/root/.pyenv/versions/3.*/bin/python"
OLDEST_MINOR, NEWEST_MINOR = 8, 14  # the fuzzer's version byte is minor - 8 (oldest first)

SOURCES = {
    "assign": "x = 1\ny = x + 2\n",
    "consts": "a = (1, 2.5, 3j, b'b', 'str', None, True, ..., frozenset({1, 2}))\n"
              "big = 2 ** 100\nneg = -12345678901234567890\nu = 'h\\u00e9llo \\U0001f600'\n",
    "functions": "def f(a, b=1, *args, c, d=2, **kw):\n    return a + b + c + d\n"
                 "def g(x, /, y):\n    return x * y\nlam = lambda q: q - 1\n",
    "closure": "def outer(n):\n    def inner(k):\n        nonlocal n\n        n += k\n"
               "        return n\n    return inner\n",
    "classes": "class A:\n    'doc'\n    x = 1\n    def m(self):\n        return super().m()\n"
               "    @property\n    def p(self):\n        return self.x\n"
               "class B(A, metaclass=type):\n    pass\n",
    "loops": "t = 0\nfor i in range(10):\n    if i % 2:\n        continue\n    t += i\n"
             "else:\n    t = -t\nwhile t > 0:\n    t -= 3\n    if t == 4:\n        break\n",
    "comprehensions": "a = [x * 2 for x in range(5) if x]\nb = {x: x for x in a}\n"
                      "c = {x for x in a}\nd = list(x for x in a)\n",
    "try": "try:\n    import missing\nexcept ImportError as e:\n    x = e\nexcept (KeyError, "
           "ValueError):\n    pass\nelse:\n    x = 1\nfinally:\n    y = 2\n",
    "with": "with open('f') as fh, open('g'):\n    data = fh.read()\n",
    "generators": "def gen(n):\n    yield n\n    yield from range(n)\n    return (yield)\n",
    "async": "async def co(x):\n    async with x as y:\n        await y\n    async for i in x:\n"
             "        pass\n    return [i async for i in x]\n",
    "fstrings": "n, w = 3.14159, 10\ns = f'{n!r:>{w}.2f} {n=} {{x}}'\n",
    "calls": "f(1, *a, k=2, **kw)\nobj.meth(1, 2)\nprint(*[1, 2], sep='')\n",
    "compare": "r = 1 < a <= 3 != b is not None\nq = a if b else c\nz = not (a in b)\n",
    "slices": "x = a[1:2]\ny = a[::2]\na[1:3] = b\ndel a[0]\nz = a[1:2:3]\n",
    "unpack": "a, *b, c = range(5)\n(d, e), f = (1, 2), 3\n",
    "globals": "def setg():\n    global G\n    G = 1\n    del G\n",
    "assert": "assert x, 'message'\nassert y\n",
    "decorators": "@dec\n@dec2(1)\ndef f():\n    pass\n",
    "walrus": "if (n := len(a)) > 10:\n    print(n)\n",
    "match": "match cmd:\n    case [x, y, *rest]:\n        pass\n    case {'k': v}:\n        pass\n"
             "    case Point(x=0) | None:\n        pass\n    case _:\n        pass\n",
    "annotations": "x: int = 1\ndef f(a: int) -> str:\n    return str(a)\n",
    "imports": "import os.path as p\nfrom sys import argv, path\nfrom . import rel\n",
    "long_function": "def long(x):\n" + "".join(f"    v{i} = x + {i}\n" for i in range(300))
                     + "    return v299\n",
    "many_consts": "T = [" + ", ".join(f"'c{i}'" for i in range(300)) + "]\n",
}

# Small modules present in every Lib/ 3.8-3.13, read from the interpreter's own
# standard library (kept small: libFuzzer mutates whole inputs).
STDLIB_MODULES = ["bisect", "colorsys", "fnmatch", "genericpath", "keyword", "shlex", "stat"]

# Runs inside each interpreter: compile the sources and print the pyc bytes.
CHILD = r"""
import importlib.util, json, marshal, sys
request = json.load(sys.stdin)
sources = request["sources"]
for module in request["modules"]:
    spec = importlib.util.find_spec(module)
    if spec and spec.origin and spec.origin.endswith(".py"):
        with open(spec.origin, encoding="utf-8") as f:
            sources["stdlib_" + module] = f.read()
out = {}
for name, src in sources.items():
    try:
        code = compile(src, name + ".py", "exec")
    except SyntaxError:
        continue  # e.g. match before 3.10
    data = src.encode()
    header = importlib.util.MAGIC_NUMBER + (0).to_bytes(4, "little") + (0).to_bytes(4, "little")
    header += len(data).to_bytes(4, "little")
    out[name] = (header + marshal.dumps(code)).hex()
json.dump({"minor": sys.version_info[1], "pycs": out}, sys.stdout)
"""


def compile_with(python: str) -> tuple[int, dict[str, bytes]]:
    request = {"sources": SOURCES, "modules": STDLIB_MODULES}
    result = subprocess.run([python, "-c", CHILD], input=json.dumps(request), text=True,
                            capture_output=True, check=True)
    answer = json.loads(result.stdout)
    return answer["minor"], {k: bytes.fromhex(v) for k, v in answer["pycs"].items()}


def write_seeds(out: Path, tag: str, minor: int, pyc: bytes) -> int:
    (out / f"{tag}.pyc.seed").write_bytes(b"\x00" + pyc)
    (out / f"{tag}.marshal.seed").write_bytes(bytes([1, minor - OLDEST_MINOR]) + pyc[16:])
    return 2


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", type=Path)
    options = parser.parse_args()
    options.outdir.mkdir(parents=True, exist_ok=True)
    count = 0
    for python in sorted(glob.glob(PYENV_GLOB)):
        if not OLDEST_MINOR <= int(Path(python).parts[-3].split(".")[1]) < NEWEST_MINOR:
            continue  # 3.6 and 3.7 are not supported
        minor, pycs = compile_with(python)
        for name, pyc in sorted(pycs.items()):
            count += write_seeds(options.outdir, f"py3{minor}_{name}", minor, pyc)
    for fixture in sorted(PY314_FIXTURES.glob("*.pyc")):
        count += write_seeds(options.outdir, f"py314_{fixture.stem}", 14, fixture.read_bytes())
    print(f"wrote {count} seeds to {options.outdir}", file=sys.stderr)


if __name__ == "__main__":
    main()
