"""The command line: exit codes and messages."""
import subprocess
import sys

import unveil
from conftest import compile_pyc


def run(cli, *args):
    return subprocess.run([cli, *args], capture_output=True, text=True)


def test_disasm_of_a_pyc(cli, tmp_path):
    pyc = compile_pyc(sys.executable, "def f(a):\n    return a + 1\n", str(tmp_path / "m.pyc"))
    result = run(cli, "--disasm", pyc)
    assert result.returncode == 0, result.stderr
    assert result.stdout == unveil.disassemble_pyc(pyc)
    assert "RETURN" in result.stdout


def test_header(cli, tmp_path):
    pyc = compile_pyc(sys.executable, "x = 1\n", str(tmp_path / "m.pyc"))
    result = run(cli, "--header", pyc)
    assert result.returncode == 0
    assert "Python 3.%d" % sys.version_info[1] in result.stdout


def test_bad_input_exits_non_zero_with_a_message(cli, tmp_path):
    bad = tmp_path / "bad.pyc"
    bad.write_bytes(b"\x00\x01\r\n" + b"\x00" * 12)
    result = run(cli, "--disasm", str(bad))
    assert result.returncode == 1
    assert "unknown magic" in result.stderr and "bad.pyc" in result.stderr


def test_missing_file_and_usage(cli, tmp_path):
    assert run(cli, "--disasm", str(tmp_path / "nope.pyc")).returncode == 1
    usage = run(cli)
    assert usage.returncode == 2 and "usage" in usage.stderr
