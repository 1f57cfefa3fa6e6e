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
