"""Bad input gives a typed exception with a clear message, never a crash."""
import marshal
import subprocess
import sys
import types

import pytest

import unveil
from unveil import _core


def good_pyc(tmp_path) -> bytes:
    import py_compile

    src = tmp_path / "m.py"
    src.write_text("def f(a):\n    return [a + i for i in range(3)]\n")
    return (tmp_path / "m.pyc").write_bytes(b"") or open(py_compile.compile(str(src), cfile=str(tmp_path / "m.pyc")), "rb").read()


def test_truncated_pyc_at_every_length_raises_unveil_error(tmp_path):
    data = good_pyc(tmp_path)
    for n in range(len(data)):
        with pytest.raises(unveil.UnveilError) as info:
            _core.decode_pyc(data[:n])
        assert isinstance(info.value, (unveil.PycError, unveil.MarshalError, unveil.CodeObjectError))
        assert "offset" in str(info.value) or n < 16


def test_unknown_magic(tmp_path):
    data = bytearray(good_pyc(tmp_path))
    data[0:2] = (3300).to_bytes(2, "little")
    with pytest.raises(unveil.PycError) as info:
        _core.decode_pyc(bytes(data))
    assert "3300" in str(info.value)
    assert info.value.offset == 0


def test_bad_marshal_type_code_names_the_offset(tmp_path):
    data = bytearray(good_pyc(tmp_path))
    data[16] = ord("!")
    with pytest.raises(unveil.MarshalError) as info:
        _core.decode_pyc(bytes(data))
    assert info.value.offset == 16


def test_reference_out_of_range():
    minor = sys.version_info[1]
    data = b"r" + (1000).to_bytes(4, "little")
    with pytest.raises(unveil.MarshalError) as info:
        _core.decode_marshal(data, minor)
    assert "1000" in str(info.value)


def test_not_a_code_object():
    with pytest.raises(unveil.CodeObjectError):
        _core.decode_marshal(marshal.dumps((1, 2)), sys.version_info[1])


def test_unsupported_version():
    with pytest.raises(unveil.UnsupportedVersionError):
        _core.decode_marshal(marshal.dumps(compile("1", "", "eval")), 7)


def replace_code(fn, code_bytes: bytes) -> types.CodeType:
    return fn.__code__.replace(co_code=code_bytes)


def f(a):
    return a


def test_unknown_opcode_names_offset_and_version():
    # Patch the marshal stream itself: 3.11+ marshal.dumps would normalise co_code.
    code = f.__code__
    data = bytearray(marshal.dumps(code))
    at = bytes(data).find(code.co_code)
    unknown = next(op for op in range(255, 0, -1) if _is_unknown(op))
    data[at] = unknown
    with pytest.raises(unveil.DecodeError) as info:
        _core.decode_marshal(bytes(data), sys.version_info[1])
    assert info.value.offset == 0
    assert str(unknown) in str(info.value)
    assert "3.%d" % sys.version_info[1] in str(info.value)


def _is_unknown(op: int) -> bool:
    import dis

    return dis.opname[op].startswith("<")


def test_jump_outside_the_code():
    import dis

    jump = dis.opmap.get("JUMP_FORWARD")
    body = bytes(f.__code__.co_code) + bytes([jump, 200])
    with pytest.raises(unveil.DecodeError) as info:
        unveil.decode(replace_code(f, body))
    assert "jump" in str(info.value)


def test_odd_length_code():
    # code.replace() refuses odd co_code, so patch the marshalled bytes string.
    code = f.__code__
    data = bytes(marshal.dumps(code))
    at = data.find(code.co_code)
    length = len(code.co_code).to_bytes(4, "little")
    assert data[at - 4:at] == length
    patched = data[:at - 4] + (len(code.co_code) + 1).to_bytes(4, "little") + data[at:at + len(code.co_code)] + b"\x00" + data[at + len(code.co_code):]
    with pytest.raises((unveil.DecodeError, unveil.CodeObjectError)) as info:
        _core.decode_marshal(patched, sys.version_info[1])
    assert "odd" in str(info.value) or "length" in str(info.value)


def test_garbage_never_crashes_the_process():
    # Random bytes through the whole reader in a child process: any crash shows as a signal.
    script = (
        "import random, sys\n"
        "from unveil import _core, UnveilError\n"
        "rng = random.Random(1234)\n"
        "for i in range(3000):\n"
        "    n = rng.randrange(0, 200)\n"
        "    data = bytes(rng.randrange(256) for _ in range(n))\n"
        "    for fn in (lambda: _core.decode_pyc(data), lambda: _core.decode_marshal(data, 11), lambda: _core.decode_marshal(b'c' + data, 13)):\n"
        "        try:\n"
        "            fn()\n"
        "        except UnveilError:\n"
        "            pass\n"
        "print('ok')\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_past_a_limit_is_a_limit_error_not_a_version_error():
    # `return x + 1 + 1 ...` 3000 deep, made by repeating the bytecode of one
    # `+ 1`: valid code, but deeper than unveil prints (a limit, not a version).
    import dis

    def one(x):
        return x + 1

    code = one.__code__
    ins = [i for i in dis.get_instructions(code)]
    start = next(i.offset for i in ins if i.opname == "LOAD_CONST")
    ret = next(i.offset for i in ins if i.opname.startswith("RETURN"))
    plus_one = code.co_code[start:ret]
    deep = code.replace(co_code=code.co_code[:start] + plus_one * 3000 + code.co_code[ret:])
    with pytest.raises(unveil.LimitError) as info:
        unveil.decompile(deep)
    assert "nested deeper than 1500 levels" in str(info.value)
    assert not isinstance(info.value, unveil.UnsupportedVersionError)
