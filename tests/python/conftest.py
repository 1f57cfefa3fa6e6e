import glob
import os
import subprocess
import sys
from typing import Dict

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def pyenv_pythons() -> Dict[str, str]:
    """'3.X' -> interpreter path, for every pyenv Python 3.8-3.13 on this machine."""
    root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    found = {}
    for path in sorted(glob.glob(os.path.join(root, "versions", "3.*", "bin", "python"))):
        full = path.split(os.sep)[-3]
        minor = ".".join(full.split(".")[:2])
        if minor in {"3.8", "3.9", "3.10", "3.11", "3.12", "3.13"}:
            found[minor] = path
    return found


@pytest.fixture(scope="session")
def pythons() -> Dict[str, str]:
    return pyenv_pythons()


@pytest.fixture(scope="session")
def cli() -> str:
    exe = os.path.join(os.path.dirname(sys.executable), "unveil-decompile")
    if not os.path.exists(exe):
        pytest.fail("unveil-decompile is not installed next to this Python")
    return exe


def compile_pyc(python: str, source: str, path: str) -> str:
    src = path[:-1] if path.endswith(".pyc") else path + ".py"
    with open(src, "w") as f:
        f.write(source)
    code = f"import py_compile; py_compile.compile({src!r}, cfile={path!r}, doraise=True)"
    subprocess.run([python, "-c", code], check=True)
    return path
