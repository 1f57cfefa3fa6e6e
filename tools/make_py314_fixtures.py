#!/usr/bin/env python3
"""Hand-assemble CPython 3.14 .pyc fixtures (no 3.14 interpreter is available).

Each fixture is the bytecode CPython 3.14 would compile for a small source,
written from the 3.14 opcode table (opcode numbers, inline cache sizes) and
the layout rules in shared/reference/bytecode.md:

  * .pyc header: magic 3627 (2b 0e 0d 0a), PEP 552 flags, mtime+size or hash;
  * marshal version 5 (TYPE_SLICE ':'), FLAG_REF slots assigned in pre-order;
  * the 3.11+ code object layout with co_localsplusnames/kinds, co_qualname,
    the location table and the exception table.

Output is deterministic: re-running reproduces identical bytes.

    python3 tools/make_py314_fixtures.py [--out tests/fixtures/py314] [--opcodes opcodes_314.json]
"""

from __future__ import annotations

import _imp
import argparse
import json
import struct
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "tests" / "fixtures" / "py314"
DEFAULT_OPCODES = Path("/work/shared/reference/opcodes/opcodes_314.json")

MAGIC = 3627
MAGIC_BYTES = MAGIC.to_bytes(2, "little") + b"\r\n"  # 2b 0e 0d 0a
MARSHAL_VERSION = 5

# co_flags
CO_OPTIMIZED, CO_NEWLOCALS, CO_VARARGS, CO_VARKEYWORDS = 0x1, 0x2, 0x4, 0x8
FUNCTION_FLAGS = CO_OPTIMIZED | CO_NEWLOCALS

# co_localspluskinds (3.14 adds the argument bits)
FAST_ARG_POS, FAST_ARG_KW, FAST_ARG_VAR, FAST_LOCAL = 0x02, 0x04, 0x08, 0x20
KIND_ARG = FAST_LOCAL | FAST_ARG_POS | FAST_ARG_KW       # positional-or-keyword
KIND_VARARGS = FAST_LOCAL | FAST_ARG_POS | FAST_ARG_VAR  # *args
KIND_VARKW = FAST_LOCAL | FAST_ARG_KW | FAST_ARG_VAR     # **kw


# --------------------------------------------------------------------------
# Objects and the marshal writer
# --------------------------------------------------------------------------

@dataclass(eq=False)  # identity semantics, like CPython code objects
class Code:
    argcount: int
    posonlyargcount: int
    kwonlyargcount: int
    stacksize: int
    flags: int
    code: bytes
    consts: tuple
    names: tuple
    localsplusnames: tuple
    localspluskinds: bytes
    filename: str
    name: str
    qualname: str
    firstlineno: int
    linetable: bytes
    exceptiontable: bytes


def _ref_key(obj):
    """Identity stand-in for objects CPython would share (and so FLAG_REF).

    Equal strings, ints, bytes and slices are one object in CPython (interning,
    small ints, the compiler's constant cache), so the second occurrence becomes
    a back-reference 'r'. Non-empty tuples are written inline without FLAG_REF,
    which exercises a reader that must not give them a slot.
    """
    if isinstance(obj, (str, int, bytes)) and not isinstance(obj, bool):
        return (type(obj).__name__, obj)
    if isinstance(obj, slice):
        return ("slice", _ref_key(obj.start), _ref_key(obj.stop), _ref_key(obj.step))
    if isinstance(obj, tuple) and not obj:
        return ("tuple",)
    if isinstance(obj, Code):
        return ("code", id(obj))
    return None


class MarshalWriter:
    """Just enough of marshal.dumps(obj, 5) for the fixtures."""

    def __init__(self):
        self.out = bytearray()
        self.refs: dict = {}  # ref key -> slot index

    def dump(self, obj) -> bytes:
        self._object(obj)
        return bytes(self.out)

    def _i32(self, value: int):
        self.out += struct.pack("<i", value)

    def _object(self, obj):
        if obj is None:
            self.out += b"N"
            return
        key = _ref_key(obj)
        if key is not None and key in self.refs:
            self.out += b"r"
            self._i32(self.refs[key])
            return
        flag = 0
        if key is not None:
            # The slot is reserved before any child is written (pre-order).
            self.refs[key] = len(self.refs)
            flag = 0x80
        if isinstance(obj, int):
            assert -(2**31) <= obj < 2**31, "only 'i' ints are needed"
            self.out.append(ord("i") | flag)
            self._i32(obj)
        elif isinstance(obj, str):
            self._str(obj, flag)
        elif isinstance(obj, bytes):
            self.out.append(ord("s") | flag)
            self._i32(len(obj))
            self.out += obj
        elif isinstance(obj, tuple):
            if len(obj) < 256:
                self.out.append(ord(")") | flag)
                self.out.append(len(obj))
            else:
                self.out.append(ord("(") | flag)
                self._i32(len(obj))
            for item in obj:
                self._object(item)
        elif isinstance(obj, slice):
            self.out.append(ord(":") | flag)
            for part in (obj.start, obj.stop, obj.step):
                self._object(part)
        elif isinstance(obj, Code):
            self._code(obj, flag)
        else:
            raise TypeError(f"cannot marshal {type(obj).__name__}")

    def _str(self, text: str, flag: int):
        if not text.isascii():
            data = text.encode("utf-8", "surrogatepass")
            self.out.append(ord("u") | flag)
            self._i32(len(data))
            self.out += data
            return
        # Identifier-like strings are interned by the compiler: 'Z' vs 'z'.
        code = "Z" if text.isidentifier() else "z"
        if len(text) >= 256:
            code = "A" if code == "Z" else "a"
        self.out.append(ord(code) | flag)
        if code in "Zz":
            self.out.append(len(text))
        else:
            self._i32(len(text))
        self.out += text.encode("ascii")

    def _code(self, c: Code, flag: int):
        self.out.append(ord("c") | flag)
        for value in (c.argcount, c.posonlyargcount, c.kwonlyargcount, c.stacksize, c.flags):
            self._i32(value)
        for obj in (c.code, c.consts, c.names, c.localsplusnames, c.localspluskinds,
                    c.filename, c.name, c.qualname):
            self._object(obj)
        self._i32(c.firstlineno)
        self._object(c.linetable)
        self._object(c.exceptiontable)


def pyc_bytes(module: Code, source: bytes, flags: int = 0, mtime: int = 1_700_000_000) -> bytes:
    """PEP 552 header + marshalled module."""
    header = MAGIC_BYTES + struct.pack("<I", flags)
    if flags & 1:
        # importlib's key is the 4 magic bytes as a little-endian int.
        header += _imp.source_hash(int.from_bytes(MAGIC_BYTES, "little"), source)
    else:
        header += struct.pack("<II", mtime, len(source))
    return header + MarshalWriter().dump(module)


# --------------------------------------------------------------------------
# The assembler
# --------------------------------------------------------------------------

class Opcodes:
    def __init__(self, path: Path):
        table = json.loads(path.read_text())
        assert table["magic_number_int"] == MAGIC and table["marshal_version"] == MARSHAL_VERSION
        self.opmap: dict[str, int] = {k: v for k, v in table["opmap"].items() if v < 256}
        self.caches: dict[str, int] = table["inline_cache_entries"]
        self.hasarg = set(table["hasarg"])
        self.hasjrel = set(table["hasjrel"])
        self.backward = set(table["backward_jumps"])
        self.extended_arg = table["EXTENDED_ARG"]


class Label:
    """A position in the instruction stream (a jump target or a range bound)."""


NO_LOCATION = None


def at(line, col, end_col, end_line=None):
    """A co_positions() entry: (line, end_line, col, end_col)."""
    return (line, line if end_line is None else end_line, col, end_col)


@dataclass
class Ins:
    name: str
    arg: object  # int, or a Label for jumps
    loc: tuple | None


@dataclass
class Assembler:
    ops: Opcodes
    firstlineno: int
    items: list = field(default_factory=list)  # Ins or Label
    handlers: list = field(default_factory=list)

    def emit(self, name, arg=0, loc=NO_LOCATION):
        self.items.append(Ins(name, arg, loc))

    def place(self, label: Label):
        self.items.append(label)

    def handler(self, start: Label, end: Label, target: Label, depth: int, lasti: bool):
        """co_exceptiontable entry: [start, end) -> target."""
        self.handlers.append((start, end, target, depth, lasti))

    # -- layout ---------------------------------------------------------

    def _size(self, ins: Ins, ext: int) -> int:
        return ext + 1 + self.ops.caches.get(ins.name, 0)

    def _layout(self):
        """Iterate to a fixed point: a jump's EXTENDED_ARG count moves targets."""
        instrs = [i for i in self.items if isinstance(i, Ins)]
        ext = {id(i): 0 for i in instrs}
        while True:
            labels, starts, unit = {}, {}, 0
            for item in self.items:
                if isinstance(item, Label):
                    labels[id(item)] = unit
                else:
                    starts[id(item)] = unit
                    unit += self._size(item, ext[id(item)])
            args = {id(i): self._arg(i, starts[id(i)], ext[id(i)], labels) for i in instrs}
            new_ext = {k: (a > 0xFF) + (a > 0xFFFF) + (a > 0xFFFFFF) for k, a in args.items()}
            if new_ext == ext:
                return instrs, starts, labels, args, ext
            ext = new_ext

    def _arg(self, ins: Ins, start: int, ext: int, labels) -> int:
        op = self.ops.opmap[ins.name]
        if op in self.ops.hasjrel:
            # Relative to the unit after the instruction's caches (3.12+).
            base = start + self._size(ins, ext)
            target = labels[id(ins.arg)]
            return base - target if ins.name in self.ops.backward else target - base
        assert not isinstance(ins.arg, Label), ins
        assert ins.arg == 0 or op in self.ops.hasarg, f"{ins.name} takes no argument"
        return ins.arg

    # -- output ---------------------------------------------------------

    def assemble(self):
        instrs, starts, labels, args, ext = self._layout()
        code = bytearray()
        for ins in instrs:
            arg = args[id(ins)]
            assert arg >= 0, f"{ins.name}: negative jump"
            for shift in range(ext[id(ins)], 0, -1):
                code += bytes([self.ops.extended_arg, (arg >> (8 * shift)) & 0xFF])
            code += bytes([self.ops.opmap[ins.name], arg & 0xFF])
            code += b"\0\0" * self.ops.caches.get(ins.name, 0)  # CACHE entries are zero
        spans = [(self._size(i, ext[id(i)]), i.loc) for i in instrs]
        table = bytearray()
        for start, end, target, depth, lasti in self.handlers:
            s, e, t = labels[id(start)], labels[id(end)], labels[id(target)]
            table += _except_varint(s, first=True) + _except_varint(e - s)
            table += _except_varint(t) + _except_varint(depth << 1 | int(lasti))
        return bytes(code), location_table(spans, self.firstlineno), bytes(table)


def _except_varint(value: int, first: bool = False) -> bytes:
    """6-bit groups, most significant first; 0x40 = more follow; 0x80 starts an entry."""
    groups = [value & 63]
    value >>= 6
    while value:
        groups.append(value & 63)
        value >>= 6
    groups.reverse()
    out = bytearray(g | 0x40 for g in groups[:-1]) + bytes([groups[-1]])
    if first:
        out[0] |= 0x80
    return bytes(out)


def _varint(value: int) -> bytes:
    """6-bit groups, least significant first; 0x40 = more follow."""
    out = bytearray()
    while value >= 64:
        out.append(0x40 | (value & 63))
        value >>= 6
    out.append(value)
    return bytes(out)


def _svarint(value: int) -> bytes:
    return _varint((-value << 1) | 1 if value < 0 else value << 1)


def location_table(spans, firstlineno: int) -> bytes:
    """The 3.11+ location table, choosing forms the way CPython's assembler does."""
    merged: list[list] = []
    for units, loc in spans:
        if merged and merged[-1][1] == loc:
            merged[-1][0] += units
        else:
            merged.append([units, loc])
    out, prev_line = bytearray(), firstlineno
    for units, loc in merged:
        while units > 0:
            chunk = min(units, 8)
            units -= chunk
            entry, prev_line = _location_entry(chunk, loc, prev_line)
            out += entry
    return bytes(out)


def _location_entry(units: int, loc, prev_line: int):
    def head(code):
        return bytes([0x80 | code << 3 | (units - 1)])

    if loc is None:
        return head(15), prev_line
    line, end_line, col, end_col = loc
    delta = line - prev_line
    if col is None or end_col is None:
        assert end_line == line
        return head(13) + _svarint(delta), line
    if end_line == line:
        if delta == 0 and col < 80 and 0 <= end_col - col < 16:
            return head(col // 8) + bytes([(col % 8) << 4 | (end_col - col)]), line
        if 0 <= delta < 3 and col < 128 and end_col < 128:
            return head(10 + delta) + bytes([col, end_col]), line
    body = _svarint(delta) + _varint(end_line - line) + _varint(col + 1) + _varint(end_col + 1)
    return head(14) + body, line


# --------------------------------------------------------------------------
# The fixtures
# --------------------------------------------------------------------------

@dataclass
class Fixture:
    name: str
    source: str
    about: str
    module: Code
    flags: int = 0


MODULE_RESUME = at(0, 0, 0, end_line=1)  # what CPython gives a module's RESUME


def make_code(ops, filename, name, firstlineno, build, *, consts=(), names=(),
              args=(), locals_=(), flags=0, argcount=0, stacksize=1, qualname=None):
    """Assemble `build(asm)` into a Code; `args`/`locals_` are (name, kind) pairs."""
    asm = Assembler(ops, firstlineno)
    build(asm)
    code, linetable, exceptiontable = asm.assemble()
    plus = tuple(args) + tuple(locals_)
    return Code(argcount, 0, 0, stacksize, flags, code, tuple(consts), tuple(names),
                tuple(n for n, _ in plus), bytes(k for _, k in plus), filename, name,
                qualname or name, firstlineno, linetable, exceptiontable)


def header_fixtures(ops) -> list[Fixture]:
    source = "x = 7\n"
    fn = "header.py"

    def body(a):
        a.emit("RESUME", 0, MODULE_RESUME)
        a.emit("LOAD_SMALL_INT", 7, at(1, 4, 5))
        a.emit("STORE_NAME", 0, at(1, 0, 1))
        a.emit("LOAD_CONST", 0, at(1, 0, 1))
        a.emit("RETURN_VALUE", 0, at(1, 0, 1))

    def module():
        return make_code(ops, fn, "<module>", 1, body, consts=(None,), names=("x",),
                         stacksize=1)

    return [
        Fixture("header_timestamp", source, "timestamp-based header (flags 0, mtime 1700000000, "
                "size 6); LOAD_SMALL_INT at module level", module(), flags=0),
        Fixture("header_hash_unchecked", source, "hash-based header, flags 1 (unchecked); "
                "SipHash from _imp.source_hash with the 3.14 magic as key", module(), flags=1),
        Fixture("header_hash_checked", source, "hash-based header, flags 3 (check_source)",
                module(), flags=3),
    ]


def slice_fixture(ops) -> Fixture:
    source = "def f(x):\n    return x[1:2:3]\ns = x[1:2:3]\n"
    fn = "slice_const.py"
    # The compiler's constant cache makes both slice(1, 2, 3) one object, so
    # marshal writes it once (FLAG_REF) in f and as 'r' in the module.
    the_slice = slice(1, 2, 3)

    def f_body(a):
        a.emit("RESUME", 0, at(1, 0, 0))
        a.emit("LOAD_FAST_BORROW", 0, at(2, 11, 12))
        a.emit("LOAD_CONST", 0, at(2, 13, 18))  # folded BUILD_SLICE 3
        a.emit("BINARY_OP", 26, at(2, 11, 19))  # NB_SUBSCR
        a.emit("RETURN_VALUE", 0, at(2, 4, 19))

    f = make_code(ops, fn, "f", 1, f_body, consts=(the_slice,), args=[("x", KIND_ARG)],
                  flags=FUNCTION_FLAGS, argcount=1, stacksize=2)

    def module_body(a):
        a.emit("RESUME", 0, MODULE_RESUME)
        a.emit("LOAD_CONST", 0, at(1, 0, 19, end_line=2))
        a.emit("MAKE_FUNCTION", 0, at(1, 0, 19, end_line=2))
        a.emit("STORE_NAME", 0, at(1, 0, 19, end_line=2))
        a.emit("LOAD_NAME", 1, at(3, 4, 5))
        a.emit("LOAD_CONST", 1, at(3, 6, 11))
        a.emit("BINARY_OP", 26, at(3, 4, 12))
        a.emit("STORE_NAME", 2, at(3, 0, 1))
        a.emit("LOAD_CONST", 2, at(3, 0, 1))
        a.emit("RETURN_VALUE", 0, at(3, 0, 1))

    module = make_code(ops, fn, "<module>", 1, module_body, consts=(f, the_slice, None),
                       names=("f", "x", "s"), stacksize=2)
    return Fixture("slice_const", source, "constant slice(1, 2, 3) in co_consts (marshal ':'), "
                   "BINARY_OP 26 (NB_SUBSCR); the module's copy is a back-reference 'r' to "
                   "the slice written inside f", module)


def fast_locals_fixture(ops) -> Fixture:
    source = ("def add(a, b):\n    return a + b\n\n"
              "def seven():\n    return 7\n\n"
              "def inc(a):\n    return a + 7\n")
    fn = "fast_locals.py"

    def add_body(a):
        a.emit("RESUME", 0, at(1, 0, 0))
        a.emit("LOAD_FAST_BORROW_LOAD_FAST_BORROW", 0 << 4 | 1, at(2, 11, 12))
        a.emit("BINARY_OP", 0, at(2, 11, 16))
        a.emit("RETURN_VALUE", 0, at(2, 4, 16))

    def seven_body(a):
        a.emit("RESUME", 0, at(4, 0, 0))
        a.emit("LOAD_SMALL_INT", 7, at(5, 11, 12))
        a.emit("RETURN_VALUE", 0, at(5, 4, 12))

    def inc_body(a):
        a.emit("RESUME", 0, at(7, 0, 0))
        a.emit("LOAD_FAST_BORROW", 0, at(8, 11, 12))
        a.emit("LOAD_SMALL_INT", 7, at(8, 15, 16))
        a.emit("BINARY_OP", 0, at(8, 11, 16))
        a.emit("RETURN_VALUE", 0, at(8, 4, 16))

    add = make_code(ops, fn, "add", 1, add_body, args=[("a", KIND_ARG), ("b", KIND_ARG)],
                    flags=FUNCTION_FLAGS, argcount=2, stacksize=2)
    seven = make_code(ops, fn, "seven", 4, seven_body, flags=FUNCTION_FLAGS, stacksize=1)
    inc = make_code(ops, fn, "inc", 7, inc_body, args=[("a", KIND_ARG)],
                    flags=FUNCTION_FLAGS, argcount=1, stacksize=2)

    def module_body(a):
        a.emit("RESUME", 0, MODULE_RESUME)
        for i, (first, last, end_col) in enumerate([(1, 2, 16), (4, 5, 12), (7, 8, 16)]):
            loc = at(first, 0, end_col, end_line=last)
            a.emit("LOAD_CONST", i, loc)
            a.emit("MAKE_FUNCTION", 0, loc)
            a.emit("STORE_NAME", i, loc)
        a.emit("LOAD_CONST", 3, loc)
        a.emit("RETURN_VALUE", 0, loc)

    module = make_code(ops, fn, "<module>", 1, module_body, consts=(add, seven, inc, None),
                       names=("add", "seven", "inc"), stacksize=1)
    return Fixture("fast_locals", source, "LOAD_FAST_BORROW_LOAD_FAST_BORROW (a, b), "
                   "LOAD_FAST_BORROW, LOAD_SMALL_INT 7; functions without a docstring have "
                   "empty co_consts", module)


def call_ex_fixture(ops) -> Fixture:
    source = ("def g(*args, **kw):\n    return f(*args, **kw)\n"
              "def h(*args):\n    return f(*args)\n")
    fn = "call_ex.py"

    def g_body(a):
        a.emit("RESUME", 0, at(1, 0, 0))
        a.emit("LOAD_GLOBAL", 0 << 1 | 1, at(2, 11, 12))  # f, then NULL (3.13+ order)
        a.emit("LOAD_FAST_BORROW", 0, at(2, 14, 18))
        a.emit("BUILD_MAP", 0, at(2, 11, 25))
        a.emit("LOAD_FAST_BORROW", 1, at(2, 22, 24))
        a.emit("DICT_MERGE", 1, at(2, 11, 25))
        a.emit("CALL_FUNCTION_EX", 0, at(2, 11, 25))  # no oparg in 3.14
        a.emit("RETURN_VALUE", 0, at(2, 4, 25))

    def h_body(a):
        a.emit("RESUME", 0, at(3, 0, 0))
        a.emit("LOAD_GLOBAL", 0 << 1 | 1, at(4, 11, 12))
        a.emit("LOAD_FAST_BORROW", 0, at(4, 14, 18))
        a.emit("PUSH_NULL", 0, at(4, 11, 19))  # the kwargs slot is always present
        a.emit("CALL_FUNCTION_EX", 0, at(4, 11, 19))
        a.emit("RETURN_VALUE", 0, at(4, 4, 19))

    g = make_code(ops, fn, "g", 1, g_body, names=("f",),
                  args=[("args", KIND_VARARGS), ("kw", KIND_VARKW)],
                  flags=FUNCTION_FLAGS | CO_VARARGS | CO_VARKEYWORDS, stacksize=5)
    h = make_code(ops, fn, "h", 3, h_body, names=("f",), args=[("args", KIND_VARARGS)],
                  flags=FUNCTION_FLAGS | CO_VARARGS, stacksize=4)

    def module_body(a):
        a.emit("RESUME", 0, MODULE_RESUME)
        for i, (first, end_col) in enumerate([(1, 25), (3, 19)]):
            loc = at(first, 0, end_col, end_line=first + 1)
            a.emit("LOAD_CONST", i, loc)
            a.emit("MAKE_FUNCTION", 0, loc)
            a.emit("STORE_NAME", i, loc)
        a.emit("LOAD_CONST", 2, loc)
        a.emit("RETURN_VALUE", 0, loc)

    module = make_code(ops, fn, "<module>", 1, module_body, consts=(g, h, None),
                       names=("g", "h"), stacksize=1)
    return Fixture("call_ex", source, "CALL_FUNCTION_EX without oparg: stack f, NULL, args, "
                   "kwargs dict (g) or PUSH_NULL (h); *args/**kw kinds 0x2a/0x2c", module)


EXTARG_STATEMENTS = 30  # 30 × 9 code units pushes the if's jump past 255


def extended_arg_fixture(ops) -> Fixture:
    body_lines = "".join("        x = x + 1\n" for _ in range(EXTARG_STATEMENTS))
    source = "def grow(x):\n    if x:\n" + body_lines + "    return x\n"
    fn = "extended_arg.py"
    ret_line = 3 + EXTARG_STATEMENTS

    def grow_body(a):
        after_if = Label()
        a.emit("RESUME", 0, at(1, 0, 0))
        a.emit("LOAD_FAST_BORROW", 0, at(2, 7, 8))
        a.emit("TO_BOOL", 0, at(2, 7, 8))
        a.emit("POP_JUMP_IF_FALSE", after_if, at(2, 7, 8))  # needs EXTENDED_ARG 1
        a.emit("NOT_TAKEN", 0, at(2, 7, 8))
        for line in range(3, 3 + EXTARG_STATEMENTS):
            a.emit("LOAD_FAST_BORROW", 0, at(line, 12, 13))
            a.emit("LOAD_SMALL_INT", 1, at(line, 16, 17))
            a.emit("BINARY_OP", 0, at(line, 12, 17))
            a.emit("STORE_FAST", 0, at(line, 8, 9))
        a.place(after_if)
        a.emit("LOAD_FAST", 0, at(ret_line, 11, 12))  # returned: not borrowed
        a.emit("RETURN_VALUE", 0, at(ret_line, 4, 12))

    grow = make_code(ops, fn, "grow", 1, grow_body, args=[("x", KIND_ARG)],
                     flags=FUNCTION_FLAGS, argcount=1, stacksize=2)

    def module_body(a):
        loc = at(1, 0, 12, end_line=ret_line)
        a.emit("RESUME", 0, MODULE_RESUME)
        a.emit("LOAD_CONST", 0, loc)
        a.emit("MAKE_FUNCTION", 0, loc)
        a.emit("STORE_NAME", 0, loc)
        a.emit("LOAD_CONST", 1, loc)
        a.emit("RETURN_VALUE", 0, loc)

    module = make_code(ops, fn, "<module>", 1, module_body, consts=(grow, None),
                       names=("grow",), stacksize=1)
    return Fixture("extended_arg", source, "nested code object whose forward "
                   "POP_JUMP_IF_FALSE needs EXTENDED_ARG (271 code units), TO_BOOL/NOT_TAKEN, "
                   "plain LOAD_FAST before RETURN_VALUE", module)


def try_except_fixture(ops) -> Fixture:
    source = "try:\n    x = f()\nexcept ValueError:\n    x = None\n"
    fn = "try_except.py"
    whole = at(3, 0, 12, end_line=4)  # the except clause

    def body(a):
        body_start, body_end, handler, handler_end, no_match, cleanup = (Label() for _ in range(6))
        a.emit("RESUME", 0, MODULE_RESUME)
        a.emit("NOP", 0, at(1, 0, 12, end_line=4))
        a.place(body_start)
        a.emit("LOAD_NAME", 0, at(2, 8, 9))
        a.emit("PUSH_NULL", 0, at(2, 8, 9))
        a.emit("CALL", 0, at(2, 8, 11))
        a.emit("STORE_NAME", 1, at(2, 4, 5))
        a.place(body_end)
        a.emit("LOAD_CONST", 0, at(2, 4, 5))
        a.emit("RETURN_VALUE", 0, at(2, 4, 5))
        a.place(handler)
        a.emit("PUSH_EXC_INFO", 0, NO_LOCATION)
        a.emit("LOAD_NAME", 2, at(3, 7, 17))
        a.emit("CHECK_EXC_MATCH", 0, whole)
        a.emit("POP_JUMP_IF_FALSE", no_match, whole)
        a.emit("NOT_TAKEN", 0, whole)
        a.emit("POP_TOP", 0, whole)
        a.emit("LOAD_CONST", 0, at(4, 8, 12))
        a.emit("STORE_NAME", 1, at(4, 4, 5))
        a.place(handler_end)
        a.emit("POP_EXCEPT", 0, at(4, 4, 5))
        a.emit("LOAD_CONST", 0, at(4, 4, 5))
        a.emit("RETURN_VALUE", 0, at(4, 4, 5))
        a.place(no_match)
        a.emit("RERAISE", 0, whole)
        a.place(cleanup)
        a.emit("COPY", 3, NO_LOCATION)
        a.emit("POP_EXCEPT", 0, NO_LOCATION)
        a.emit("RERAISE", 1, NO_LOCATION)
        a.handler(body_start, body_end, handler, depth=0, lasti=False)
        a.handler(handler, handler_end, cleanup, depth=1, lasti=True)
        a.handler(no_match, cleanup, cleanup, depth=1, lasti=True)

    module = make_code(ops, fn, "<module>", 1, body, consts=(None,),
                       names=("f", "x", "ValueError"), stacksize=4)
    return Fixture("try_except", source, "zero-cost try/except: three co_exceptiontable "
                   "entries, PUSH_EXC_INFO/CHECK_EXC_MATCH/POP_EXCEPT/RERAISE, no-location "
                   "entries in the location table", module)


def all_fixtures(ops) -> list[Fixture]:
    return [*header_fixtures(ops), slice_fixture(ops), fast_locals_fixture(ops),
            call_ex_fixture(ops), extended_arg_fixture(ops), try_except_fixture(ops)]


def readme(fixtures: list[Fixture]) -> str:
    parts = [
        "# CPython 3.14 fixtures\n\n",
        "Generated by `tools/make_py314_fixtures.py` (do not edit; re-run the script).\n",
        "No 3.14 interpreter exists here, so each file is hand-assembled from\n",
        "`opcodes_314.json` and `bytecode.md`: magic 3627 (`2b 0e 0d 0a`), marshal\n",
        "version 5, the 3.11+ code object layout. Each stands for what 3.14.0 compiles\n",
        "for the source below (positions follow 3.13's for the same source).\n",
        "\nAssumptions no interpreter could confirm: argument kinds in\n",
        "co_localspluskinds are 0x26 (positional-or-keyword), 0x2a (`*args`), 0x2c\n",
        "(`**kw`); functions without a docstring get an empty co_consts; `f(*a, **kw)`\n",
        "keeps 3.13's `BUILD_MAP 0; ...; DICT_MERGE 1`; a returned local is loaded with\n",
        "LOAD_FAST, one consumed by an operator with LOAD_FAST_BORROW.\n",
    ]
    for fx in fixtures:
        parts.append(f"\n## {fx.name}.pyc\n\n{fx.about}.\n\n```python\n{fx.source}```\n")
    return "".join(parts)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--opcodes", type=Path, default=DEFAULT_OPCODES)
    options = parser.parse_args()
    ops = Opcodes(options.opcodes)
    fixtures = all_fixtures(ops)
    options.out.mkdir(parents=True, exist_ok=True)
    for fx in fixtures:
        data = pyc_bytes(fx.module, fx.source.encode(), fx.flags)
        (options.out / f"{fx.name}.pyc").write_bytes(data)
        print(f"{fx.name}.pyc: {len(data)} bytes")
    (options.out / "README.md").write_text(readme(fixtures))


if __name__ == "__main__":
    main()
