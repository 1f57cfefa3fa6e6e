"""unveil.decompile from several threads.

The core keeps storage per thread for the next call (the syntax-tree arena,
spare vectors, recycled code objects, and the module's cache of freed small
blocks) and gives it back when a thread exits. Calls hold the GIL, so they
take turns; but each thread has its own storage, and threads come and go.
Their calls must give what one thread alone gives.
"""
import sys
import threading
import types
from typing import Dict, List

import unveil
from unveil.verify import code_paths


def _sample() -> List[types.CodeType]:
    import collections
    import json.decoder
    import textwrap

    codes: List[types.CodeType] = []
    for module in (textwrap, json.decoder, collections):
        with open(module.__file__, encoding="utf-8") as f:
            codes.extend(c for _, c in code_paths(compile(f.read(), module.__file__, "exec")))
    return codes


def _run_threads(target, count: int) -> None:
    threads = [threading.Thread(target=target, args=(k,)) for k in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def test_concurrent_calls_match_one_thread() -> None:
    codes = _sample()
    expected = [unveil.decompile(c) for c in codes]
    got: Dict[int, List[str]] = {}
    errors: List[BaseException] = []

    def work(k: int) -> None:
        try:
            # Each thread starts at a different object, so that each one's
            # storage holds what different calls left.
            order = list(range(len(codes)))
            order = order[k * 7 % len(codes):] + order[:k * 7 % len(codes)]
            out = [""] * len(codes)
            for _ in range(3):
                for i in order:
                    out[i] = unveil.decompile(codes[i])
            got[k] = out
        except BaseException as e:  # reported below, not lost in the thread
            errors.append(e)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # the threads take turns between calls often
    try:
        _run_threads(work, 4)
    finally:
        sys.setswitchinterval(old)
    assert not errors, errors
    assert len(got) == 4
    for k, out in got.items():
        assert out == expected, f"thread {k} differs"


def test_threads_that_exit_leave_later_calls_intact() -> None:
    codes = _sample()[:40]
    expected = [unveil.decompile(c) for c in codes]
    results: List[List[str]] = []

    def work(k: int) -> None:
        results.append([unveil.decompile(c) for c in codes])

    for _ in range(10):  # each round's threads exit and give back what they kept
        _run_threads(work, 3)
        assert [unveil.decompile(c) for c in codes] == expected
    assert len(results) == 30
    assert all(r == expected for r in results)


def test_kilobyte_blocks_are_recycled_intact() -> None:
    # The module's cache keeps freed blocks of up to 4 KiB, in 16-byte
    # classes: a call's long strings (a docstring, the returned text) reuse
    # the blocks the last call freed. Sizes that step through the classes one
    # byte at a time, up and then down, must each get a block that holds them.
    def with_text(n: int) -> types.CodeType:
        text = "".join(chr(97 + (i * 7 + n) % 26) for i in range(n))
        return compile(f"def f():\n    {text!r}\n    return {text[::-1]!r}\n", "<blocks>", "exec")

    sizes = [n for base in range(990, 4200, 301) for n in (base, base + 1, base + 15, base + 16, base + 17)]
    codes = [with_text(n) for n in sizes + sizes[::-1]]
    expected = [unveil.decompile(c) for c in codes]
    for _ in range(3):
        assert [unveil.decompile(c) for c in codes] == expected
    for code, n, out in zip(codes, sizes + sizes[::-1], expected):
        text = "".join(chr(97 + (i * 7 + n) % 26) for i in range(n))
        assert f'"""{text}"""' in out and repr(text[::-1]) in out
