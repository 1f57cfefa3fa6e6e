"""The general fallback with exception regions: try/except/finally and with
in a state machine.

`unveil-decompile --state-machine` writes every function that fits as the
machine, so these functions, which the structurer handles too, test it. Each
must come back as a machine and behave exactly as the original: return
values, exceptions, what sys.exc_info() and __context__ say inside handlers,
and what a generator does when it is closed inside a try. Every version: the
exception table (3.11+), the block stack (3.9-3.10) and 3.8's finally
subroutines.
"""
import os
import subprocess
import sys
import textwrap
from typing import Any, Callable, Dict, List, Tuple

import pytest

from conftest import compile_pyc

MACHINE_MARK = "control flow rebuilt as a state machine"

PROGRAM = textwrap.dedent('''
    import sys

    class CM:
        def __init__(self, log, suppress):
            self.log, self.suppress = log, suppress
        def __enter__(self):
            self.log.append("enter")
            return self
        def __exit__(self, kind, value, tb):
            self.log.append(("exit", kind.__name__ if kind else None))
            return self.suppress

    def try_all(x, log):
        try:
            try:
                y = 10 // x
            except ZeroDivisionError as e:
                log.append(("zde", type(e).__name__, sys.exc_info()[0].__name__))
                y = -1
            except (TypeError, ValueError):
                y = -2
            else:
                y += 1
        finally:
            log.append("finally")
        return y

    def with_suppress(x, log):
        with CM(log, x > 1) as cm:
            log.append(cm is not None)
            if x:
                raise KeyError(x)
            log.append("body")
        return "after"

    def context_chain(x, log):
        try:
            raise KeyError(x)
        except KeyError:
            try:
                raise ValueError(x)
            except ValueError as e:
                log.append(repr(e.__context__))
                raise

    def handled_outside(x, log):
        try:
            raise KeyError(x)
        except KeyError:
            pass
        log.append(sys.exc_info()[0])
        return "ok"

    def loop_in_try(x, log):
        total = 0
        for i in range(x + 3):
            try:
                if i == 1:
                    continue
                if i == 4:
                    break
                total += 10 // (i - 2)
            except ZeroDivisionError:
                log.append(i)
                total += 100
            finally:
                log.append(("f", i))
        return total

    def generator(x, log):
        try:
            for i in range(x + 2):
                yield i
        except GeneratorExit:
            log.append("closed")
            raise
        finally:
            log.append("gen finally")

    def drain_and_close(x, log):
        g = generator(x, log)
        got = [next(g), next(g)]
        g.close()
        return got
''')

CALLS = ["try_all", "with_suppress", "context_chain", "handled_outside", "loop_in_try", "drain_and_close"]
ARGUMENTS = [0, 1, 2, "a"]


def observe(fn: Callable[..., Any], x: Any) -> Tuple[Any, ...]:
    log: List[Any] = []
    try:
        result: Tuple[Any, ...] = ("return", repr(fn(x, log)))
    except Exception as e:
        result = ("raise", type(e).__name__, repr(e.args), repr(e.__context__))
    return result + (repr(log),)


@pytest.fixture
def decompiler(request: Any) -> str:
    """The installed CLI, or the one UNVEIL_CLI names (a build tree's)."""
    return os.environ.get("UNVEIL_CLI") or request.getfixturevalue("cli")


def run(source: str) -> Dict[str, Any]:
    namespace: Dict[str, Any] = {"__name__": "machine_test"}
    exec(compile(source, "<machine>", "exec"), namespace)
    return namespace


def decompiled(decompiler: str, tmp_path: Any) -> str:
    pyc = compile_pyc(sys.executable, PROGRAM, str(tmp_path / "program.pyc"))
    done = subprocess.run([decompiler, "--state-machine", pyc], capture_output=True, text=True, check=True)
    return done.stdout


def function_text(source: str, name: str) -> str:
    lines = source.splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith(f"def {name}("))
    end = next((j for j in range(start + 1, len(lines)) if lines[j] and not lines[j][0].isspace()), len(lines))
    return "\n".join(lines[start:end])


def test_machine_behaves_as_the_original(decompiler: str, tmp_path: Any) -> None:
    out = decompiled(decompiler, tmp_path)
    theirs, ours = run(PROGRAM), run(out)
    for name in CALLS:
        for x in ARGUMENTS:
            assert observe(ours[name], x) == observe(theirs[name], x), f"{name}({x!r})\n{function_text(out, name)}"


@pytest.mark.parametrize("name", ["try_all", "with_suppress", "context_chain", "handled_outside", "loop_in_try",
                                  "generator"])
def test_functions_with_exception_regions_become_machines(decompiler: str, tmp_path: Any, name: str) -> None:
    text = function_text(decompiled(decompiler, tmp_path), name)
    assert MACHINE_MARK in text, text
    assert "except BaseException as" in text, text


def test_without_the_option_the_structurer_goes_first(decompiler: str, tmp_path: Any) -> None:
    pyc = compile_pyc(sys.executable, PROGRAM, str(tmp_path / "program.pyc"))
    plain = subprocess.run([decompiler, pyc], capture_output=True, text=True, check=True).stdout
    forced = decompiled(decompiler, tmp_path)
    # (Some of these a version's structurer cannot express: those are machines either way.)
    assert plain.count(MACHINE_MARK) < forced.count(MACHINE_MARK)
    assert MACHINE_MARK not in function_text(plain, "handled_outside"), plain
