"""Shared helpers for the torch layer tests (torch itself is imported by each module)."""
import importlib.util
import os
import sys

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
