"""Shared helpers for the torch layer tests (torch itself is imported by each module)."""
import importlib.util
import os
import sys
import textwrap

import pytest


def load_module(path):
    """Import a dumped file as a module under a unique name."""
    name = "unveil_dump_" + os.path.basename(str(path)).replace(".", "_") + str(abs(hash(str(path))))
    spec = importlib.util.spec_from_file_location(name, str(path))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture
def fresh_dynamo():
    torch = pytest.importorskip("torch")
    if not hasattr(torch, "compile"):
        pytest.skip("torch is not installed")
    torch._dynamo.reset()
    yield torch
    torch._dynamo.reset()


@pytest.fixture
def load():
    return load_module


def venv_python():
    return sys.executable


# The start of the child script that the pdb and the debugpy tests run: it compiles
# f under prepare_debug(argv[1]); each test appends how it then runs f under debug().
COMPILE_F_UNDER_PREPARE_DEBUG = textwrap.dedent('''
    import sys, torch
    import unveil.dynamo as ud
    def f(x):
        y = x + 1
        return y * 2
    cf = torch.compile(f, backend="eager", fullgraph=True)
    x = torch.arange(3.0)
    with ud.prepare_debug(sys.argv[1], quiet=True):
        cf(x)
''')


@pytest.fixture
def compile_f_script():
    """Child-script head: compile f (eager, fullgraph) under prepare_debug(argv[1])."""
    return COMPILE_F_UNDER_PREPARE_DEBUG
