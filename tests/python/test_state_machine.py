"""Functions the structurer cannot express come back as a state machine
(`while True:` dispatching on `_state`) that behaves like the original: each
pyenv Python compiles them, the CLI decompiles them, and both versions run on
a grid of arguments in that Python."""
import itertools
import json
import os
import subprocess

import pytest

from conftest import compile_pyc, pyenv_pythons

# Jumps out of nested loops and loop ends reached from several places, which
# 3.11+ (some 3.8–3.10 too) lay out as no if/while nesting can.
SOURCE = '''
def nested_exit(a, b):
    t = 0
    for i in range(a):
        for j in range(b):
            if i * j > 6:
                return t
            while j < 3:
                j += 1
                if j == 2:
                    break
            else:
                continue
            t += j
    return t


def generator(a, b):
    for i in range(a):
        for j in range(b):
            if i * j > 6:
                return
            while j < 3:
                j += 1
                if j == 2:
                    break
            else:
                continue
            yield i, (yield j)


def chained(a, b):
    n = 0
    for x in range(a):
        for y in range(b):
            if x < y < 5 or x == y:
                n += 1
                if n > 4:
                    return n, x
            elif y > 7:
                break
            while y < 3:
                y += 1
                if y == x:
                    break
            else:
                continue
            n -= x and y or 1
    return n


def uses_next(a, b):
    it = iter(range(100))
    for i in range(a):
        for j in range(b):
            if i * j > 6:
                return next(it)
            while j < 3:
                j += 1
                if j == 2:
                    break
            else:
                continue
            next(it)
    return next(it, None)


def calls(a, b):
    out = []
    for i in range(a):
        for j in range(b):
            if i * j > 6:
                return out
            out.append(max(i, j if i else -j, key=abs) or (i if j > 1 else j))
            while j < 3:
                j += 1
                if j == 2:
                    break
            else:
                continue
            out.append(j)
    return out
'''

FUNCTIONS = ["nested_exit", "generator", "chained", "uses_next", "calls"]
ARGS = list(itertools.product(range(0, 6), range(0, 9, 2)))

RUNNER = r'''
import json, sys
def load(path):
    ns = {}
    exec(compile(open(path).read(), path, "exec"), ns)
    return ns
def call(f, args):
    try:
        r = f(*args)
        if hasattr(r, "send"):
            out, x = [], None
            try:
                while True:
                    out.append(r.send(x)); x = len(out)
            except StopIteration as e:
                out.append(("return", e.value))
            r = out
        return repr(r)
    except Exception as e:
        return "raise " + type(e).__name__
orig, new = load(sys.argv[1]), load(sys.argv[2])
names, args = json.loads(sys.argv[3]), json.loads(sys.argv[4])
print(json.dumps([[n, a, call(orig[n], a), call(new[n], a)] for n in names for a in args]))
'''


@pytest.fixture
def decompiler(request) -> str:
    """The installed CLI, or the one UNVEIL_CLI names (a build tree's)."""
    return os.environ.get("UNVEIL_CLI") or request.getfixturevalue("cli")


@pytest.mark.parametrize("minor", ["3.8", "3.9", "3.10", "3.11", "3.12", "3.13"])
def test_state_machine_behaves_like_the_original(minor, decompiler, tmp_path):
    python = pyenv_pythons().get(minor)
    if python is None:
        pytest.skip(f"no Python {minor}")
    pyc = compile_pyc(python, SOURCE, str(tmp_path / "m.pyc"))
    out = subprocess.run([decompiler, pyc], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "could not decompile" not in out.stdout, out.stdout
    if tuple(map(int, minor.split("."))) >= (3, 11):  # (≤3.10 structures some of them)
        assert out.stdout.count("# unveil: control flow rebuilt as a state machine") == len(FUNCTIONS), out.stdout
    (tmp_path / "new.py").write_text(out.stdout)
    (tmp_path / "runner.py").write_text(RUNNER)
    run = subprocess.run([python, str(tmp_path / "runner.py"), str(tmp_path / "m.py"), str(tmp_path / "new.py"),
                          json.dumps(FUNCTIONS), json.dumps(ARGS)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    for name, args, want, got in json.loads(run.stdout):
        assert got == want, f"{name}{tuple(args)}: {got} != {want}\n{out.stdout}"
