"""The module's thread-locals stay small.

Hot thread-locals use the initial-exec TLS model (core/support/tls.h), which
puts all of the module's thread-local storage in the static TLS block that
the C library keeps spare for libraries loaded late. torch, imported first,
leaves little of it; past that, `import unveil` fails with "cannot allocate
memory in static TLS block". What a thread keeps belongs on the heap, behind
a pointer. This reads the module's PT_TLS segment and holds it to a budget.
"""
import struct
import sys

import pytest

from unveil import _core

TLS_BUDGET = 1024  # bytes; 640 at the time of writing
PT_TLS = 7


def tls_size(path: str) -> int:
    with open(path, "rb") as f:
        header = f.read(64)
        assert header[:4] == b"\x7fELF" and header[4] == 2, "a 64-bit ELF file"
        endian = "<" if header[5] == 1 else ">"
        phoff, = struct.unpack_from(endian + "Q", header, 32)
        phentsize, phnum = struct.unpack_from(endian + "HH", header, 54)
        f.seek(phoff)
        table = f.read(phentsize * phnum)
    for k in range(phnum):
        p_type, = struct.unpack_from(endian + "I", table, k * phentsize)
        if p_type == PT_TLS:
            p_memsz, = struct.unpack_from(endian + "Q", table, k * phentsize + 40)
            return p_memsz
    return 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF and static TLS are Linux's")
def test_module_thread_locals_fit_the_budget() -> None:
    size = tls_size(_core.__file__)
    assert size <= TLS_BUDGET, (
        f"{_core.__file__} has {size} bytes of thread-local storage (budget {TLS_BUDGET}): "
        "keep per-thread state on the heap behind a pointer (core/support/tls.h)")
