// The disassembler against the real `dis`: code objects rebuilt field by
// field from functions compiled by the pyenv interpreters 3.8.18 … 3.13.0,
// and the listing each interpreter's dis.dis() printed for them (3.13 with
// show_offsets=True; "w" with show_caches=True), " at 0x..." addresses
// removed since our code-object reprs have none.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "decode/decode.h"
#include "disasm/disassemble.h"
#include "hex.h"
#include "objects.h"
#include "support/error.h"
#include "versions.h"

namespace unveil {
namespace {

using testing::binary;
using testing::code_const;
using testing::integer;
using testing::none;
using testing::opcode_of;
using testing::real;
using testing::text;
using testing::tuple;
using testing::unhex;
using testing::version;

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Line-by-line comparison, so a failure names the first differing line.
void expect_same_listing(std::string_view got, std::string_view want) {
  const auto g = split_lines(got), w = split_lines(want);
  for (std::size_t i = 0; i < std::min(g.size(), w.size()); ++i)
    ASSERT_EQ(g[i], w[i]) << "line " << i + 1;
  EXPECT_EQ(g.size(), w.size());
  EXPECT_EQ(got, want);
}

// ------------------------------------------------------------- generated data
// clang-format off
std::shared_ptr<CodeObject> code_8_g_2() {
  auto c = std::make_shared<CodeObject>();
  c->version_minor = 8;
  c->argcount = 0;
  c->posonlyargcount = 0;
  c->kwonlyargcount = 0;
  c->nlocals = 0;
  c->stacksize = 1;
  c->flags = 0x13;
  c->firstlineno = 2;
  c->code = unhex("88005300");
  c->consts = {none()};
  c->names = {};
  c->varnames = {};
  c->cellvars = {};
  c->freevars = {"a"};
  c->filename = "t.py";
  c->name = "g";
  c->qualname = "g";
  c->localsplusnames = {"a"};
  c->linetable = unhex("0001");
  return c;
}

std::shared_ptr<CodeObject> code_8_f_1() {
  auto c = std::make_shared<CodeObject>();
  c->version_minor = 8;
  c->argcount = 2;
  c->posonlyargcount = 0;
  c->kwonlyargcount = 1;
  c->nlocals = 8;
  c->stacksize = 10;
  c->flags = 0x3;
  c->firstlineno = 1;
  c->code = unhex("870066016401640284087d0388006a006a016403640464058d027d0474026406830144005d0e7d0588007c016b007224712471247a0c64037c011b007d0657006e26040074036b0a726601007d0701007a0864077d065700350064007d077e07580059006e02580088007c016b00727e880064089b067c019b009d0253007c035300");
  c->consts = {none(), code_const(code_8_g_2()), text("f.<locals>.g"), integer(1), integer(2), tuple({text("k")}), integer(3), real(0x1.0000000000000p-1), text(">10")};
  c->names = {"b", "c", "range", "ZeroDivisionError"};
  c->varnames = {"a", "b", "c", "g", "y", "i", "z", "e"};
  c->cellvars = {"a"};
  c->freevars = {};
  c->filename = "t.py";
  c->name = "f";
  c->qualname = "f";
  c->localsplusnames = {"a", "b", "c", "g", "y", "i", "z", "e", "a"};
  c->linetable = unhex("00010c0210010c010801040102010c0110011601");
  return c;
}

// dis.dis(code) of Python 3.8, addresses removed.
constexpr std::string_view kDis_8_f = R"dis(  2           0 LOAD_CLOSURE             0 (a)
              2 BUILD_TUPLE              1
              4 LOAD_CONST               1 (<code object g, file "t.py", line 2>)
              6 LOAD_CONST               2 ('f.<locals>.g')
              8 MAKE_FUNCTION            8 (closure)
             10 STORE_FAST               3 (g)

  4          12 LOAD_DEREF               0 (a)
             14 LOAD_ATTR                0 (b)
             16 LOAD_ATTR                1 (c)
             18 LOAD_CONST               3 (1)
             20 LOAD_CONST               4 (2)
             22 LOAD_CONST               5 (('k',))
             24 CALL_FUNCTION_KW         2
             26 STORE_FAST               4 (y)

  5          28 LOAD_GLOBAL              2 (range)
             30 LOAD_CONST               6 (3)
             32 CALL_FUNCTION            1
             34 GET_ITER
        >>   36 FOR_ITER                14 (to 52)
             38 STORE_FAST               5 (i)

  6          40 LOAD_DEREF               0 (a)
             42 LOAD_FAST                1 (b)
             44 COMPARE_OP               0 (<)
             46 POP_JUMP_IF_FALSE       36

  7          48 JUMP_ABSOLUTE           36
             50 JUMP_ABSOLUTE           36

  8     >>   52 SETUP_FINALLY           12 (to 66)

  9          54 LOAD_CONST               3 (1)
             56 LOAD_FAST                1 (b)
             58 BINARY_TRUE_DIVIDE
             60 STORE_FAST               6 (z)
             62 POP_BLOCK
             64 JUMP_FORWARD            38 (to 104)

 10     >>   66 DUP_TOP
             68 LOAD_GLOBAL              3 (ZeroDivisionError)
             70 COMPARE_OP              10 (exception match)
             72 POP_JUMP_IF_FALSE      102
             74 POP_TOP
             76 STORE_FAST               7 (e)
             78 POP_TOP
             80 SETUP_FINALLY            8 (to 90)

 11          82 LOAD_CONST               7 (0.5)
             84 STORE_FAST               6 (z)
             86 POP_BLOCK
             88 BEGIN_FINALLY
        >>   90 LOAD_CONST               0 (None)
             92 STORE_FAST               7 (e)
             94 DELETE_FAST              7 (e)
             96 END_FINALLY
             98 POP_EXCEPT
            100 JUMP_FORWARD             2 (to 104)
        >>  102 END_FINALLY

 12     >>  104 LOAD_DEREF               0 (a)
            106 LOAD_FAST                1 (b)
            108 COMPARE_OP               0 (<)
            110 POP_JUMP_IF_FALSE      126
            112 LOAD_DEREF               0 (a)
            114 LOAD_CONST               8 ('>10')
            116 FORMAT_VALUE             6 (repr, with format)
            118 LOAD_FAST                1 (b)
            120 FORMAT_VALUE             0
            122 BUILD_STRING             2
            124 RETURN_VALUE
        >>  126 LOAD_FAST                3 (g)
            128 RETURN_VALUE

Disassembly of <code object g, file "t.py", line 2>:
  3           0 LOAD_DEREF               0 (a)
              2 RETURN_VALUE
)dis";

std::shared_ptr<CodeObject> code_9_g_2() {
  auto c = std::make_shared<CodeObject>();
  c->version_minor = 9;
  c->argcount = 0;
  c->posonlyargcount = 0;
  c->kwonlyargcount = 0;
  c->nlocals = 0;
  c->stacksize = 1;
  c->flags = 0x13;
  c->firstlineno = 2;
  c->code = unhex("88005300");
  c->consts = {none()};
  c->names = {};
  c->varnames = {};
  c->cellvars = {};
  c->freevars = {"a"};
  c->filename = "t.py";
  c->name = "g";
  c->qualname = "g";
  c->localsplusnames = {"a"};
  c->linetable = unhex("0001");
  return c;
}

std::shared_ptr<CodeObject> code_9_f_1() {
  auto c = std::make_shared<CodeObject>();
  c->version_minor = 9;
  c->argcount = 2;
  c->posonlyargcount = 0;
  c->kwonlyargcount = 1;
  c->nlocals = 8;
  c->stacksize = 10;
  c->flags = 0x3;
  c->firstlineno = 1;
  c->code = unhex("870066016401640284087d0388006a006a016403640464058d027d0474026406830144005d0e7d0588007c016b007224712471247a0c64037c011b007d0657006e2804007403796801007d0701007a1064077d065700590064007d077e076e0a64007d077e073000300088007c016b007280880064089b067c019b009d0253007c035300");
  c->consts = {none(), code_const(code_9_g_2()), text("f.<locals>.g"), integer(1), integer(2), tuple({text("k")}), integer(3), real(0x1.0000000000000p-1), text(">10")};
  c->names = {"b", "c", "range", "ZeroDivisionError"};
  c->varnames = {"a", "b", "c", "g", "y", "i", "z", "e"};
  c->cellvars = {"a"};
  c->freevars = {};
  c->filename = "t.py";
  c->name = "f";
  c->qualname = "f";
  c->localsplusnames = {"a", "b", "c", "g", "y", "i", "z", "e", "a"};
  c->linetable = unhex("00010c0210010c010801040102010c010e011a01");
  return c;
}

// dis.dis(code) of Python 3.9, addresses removed.
constexpr std::string_view kDis_9_f = R"dis(  2           0 LOAD_CLOSURE             0 (a)
              2 BUILD_TUPLE              1
              4 LOAD_CONST               1 (<code object g, file "t.py", line 2>)
              6 LOAD_CONST               2 ('f.<locals>.g')
              8 MAKE_FUNCTION            8 (closure)
             10 STORE_FAST               3 (g)

  4          12 LOAD_DEREF               0 (a)
             14 LOAD_ATTR                0 (b)
             16 LOAD_ATTR                1 (c)
             18 LOAD_CONST               3 (1)
             20 LOAD_CONST               4 (2)
             22 LOAD_CONST               5 (('k',))
             24 CALL_FUNCTION_KW         2
             26 STORE_FAST               4 (y)

  5          28 LOAD_GLOBAL              2 (range)
             30 LOAD_CONST               6 (3)
             32 CALL_FUNCTION            1
             34 GET_ITER
        >>   36 FOR_ITER                14 (to 52)
             38 STORE_FAST               5 (i)

  6          40 LOAD_DEREF               0 (a)
             42 LOAD_FAST                1 (b)
             44 COMPARE_OP               0 (<)
             46 POP_JUMP_IF_FALSE       36

  7          48 JUMP_ABSOLUTE           36
             50 JUMP_ABSOLUTE           36

  8     >>   52 SETUP_FINALLY           12 (to 66)

  9          54 LOAD_CONST               3 (1)
             56 LOAD_FAST                1 (b)
             58 BINARY_TRUE_DIVIDE
             60 STORE_FAST               6 (z)
             62 POP_BLOCK
             64 JUMP_FORWARD            40 (to 106)

 10     >>   66 DUP_TOP
             68 LOAD_GLOBAL              3 (ZeroDivisionError)
             70 JUMP_IF_NOT_EXC_MATCH   104
             72 POP_TOP
             74 STORE_FAST               7 (e)
             76 POP_TOP
             78 SETUP_FINALLY           16 (to 96)

 11          80 LOAD_CONST               7 (0.5)
             82 STORE_FAST               6 (z)
             84 POP_BLOCK
             86 POP_EXCEPT
             88 LOAD_CONST               0 (None)
             90 STORE_FAST               7 (e)
             92 DELETE_FAST              7 (e)
             94 JUMP_FORWARD            10 (to 106)
        >>   96 LOAD_CONST               0 (None)
             98 STORE_FAST               7 (e)
            100 DELETE_FAST              7 (e)
            102 RERAISE
        >>  104 RERAISE

 12     >>  106 LOAD_DEREF               0 (a)
            108 LOAD_FAST                1 (b)
            110 COMPARE_OP               0 (<)
            112 POP_JUMP_IF_FALSE      128
            114 LOAD_DEREF               0 (a)
            116 LOAD_CONST               8 ('>10')
            118 FORMAT_VALUE             6 (repr, with format)
            120 LOAD_FAST                1 (b)
            122 FORMAT_VALUE             0
            124 BUILD_STRING             2
            126 RETURN_VALUE
        >>  128 LOAD_FAST                3 (g)
            130 RETURN_VALUE

Disassembly of <code object g, file "t.py", line 2>:
  3           0 LOAD_DEREF               0 (a)
              2 RETURN_VALUE
)dis";

std::shared_ptr<CodeObject> code_10_g_2() {
  auto c = std::make_shared<CodeObject>();
  c->version_minor = 10;
  c->argcount = 0;
  c->posonlyargcount = 0;
  c->kwonlyargcount = 0;
  c->nlocals = 0;
  c->stacksize = 1;
  c->flags = 0x13;
  c->firstlineno = 2;
  c->code = unhex("88005300");
  c->consts = {none()};
  c->names = {};
  c->varnames = {};
  c->cellvars = {};
  c->freevars = {"a"};
  c->filename = "t.py";
  c->name = "g";
  c->qualname = "g";
  c->localsplusnames = {"a"};
  c->linetable = unhex("0401");
  return c;
}

std::shared_ptr<CodeObject> code_10_f_1() {
  auto c = std::make_shared<CodeObject>();
  c->version_minor = 10;
  c->argcount = 2;
  c->posonlyargcount = 0;
  c->kwonlyargcount = 1;
  c->nlocals = 8;
  c->stacksize = 10;
  c->flags = 0x3;
  c->firstlineno = 1;
  c->code = unhex("870066016401640284087d0388006a006a016403640464058d027d0474026406830144005d077d0588007c016b007219711271127a0664037c011b007d0657006e1404007403793401007d0701007a0864077d065700590064007d077e076e0564007d077e077701770088007c016b007240880064089b067c019b009d0253007c035300");
  c->consts = {none(), code_const(code_10_g_2()), text("f.<locals>.g"), integer(1), integer(2), tuple({text("k")}), integer(3), real(0x1.0000000000000p-1), text(">10")};
  c->names = {"b", "c", "range", "ZeroDivisionError"};
  c->varnames = {"a", "b", "c", "g", "y", "i", "z", "e"};
  c->cellvars = {"a"};
  c->freevars = {};
  c->filename = "t.py";
  c->name = "f";
  c->qualname = "f";
  c->localsplusnames = {"a", "b", "c", "g", "y", "i", "z", "e", "a"};
  c->linetable = unhex("0c0110020c010801020102ff02020c010e011001088002ff1a02");
  return c;
}

// dis.dis(code) of Python 3.10, addresses removed.
constexpr std::string_view kDis_10_f = R"dis(  2           0 LOAD_CLOSURE             0 (a)
              2 BUILD_TUPLE              1
              4 LOAD_CONST               1 (<code object g, file "t.py", line 2>)
              6 LOAD_CONST               2 ('f.<locals>.g')
              8 MAKE_FUNCTION            8 (closure)
             10 STORE_FAST               3 (g)

  4          12 LOAD_DEREF               0 (a)
             14 LOAD_ATTR                0 (b)
             16 LOAD_ATTR                1 (c)
             18 LOAD_CONST               3 (1)
             20 LOAD_CONST               4 (2)
             22 LOAD_CONST               5 (('k',))
             24 CALL_FUNCTION_KW         2
             26 STORE_FAST               4 (y)

  5          28 LOAD_GLOBAL              2 (range)
             30 LOAD_CONST               6 (3)
             32 CALL_FUNCTION            1
             34 GET_ITER
        >>   36 FOR_ITER                 7 (to 52)
             38 STORE_FAST               5 (i)

  6          40 LOAD_DEREF               0 (a)
             42 LOAD_FAST                1 (b)
             44 COMPARE_OP               0 (<)
             46 POP_JUMP_IF_FALSE       25 (to 50)

  7          48 JUMP_ABSOLUTE           18 (to 36)

  6     >>   50 JUMP_ABSOLUTE           18 (to 36)

  8     >>   52 SETUP_FINALLY            6 (to 66)

  9          54 LOAD_CONST               3 (1)
             56 LOAD_FAST                1 (b)
             58 BINARY_TRUE_DIVIDE
             60 STORE_FAST               6 (z)
             62 POP_BLOCK
             64 JUMP_FORWARD            20 (to 106)

 10     >>   66 DUP_TOP
             68 LOAD_GLOBAL              3 (ZeroDivisionError)
             70 JUMP_IF_NOT_EXC_MATCH    52 (to 104)
             72 POP_TOP
             74 STORE_FAST               7 (e)
             76 POP_TOP
             78 SETUP_FINALLY            8 (to 96)

 11          80 LOAD_CONST               7 (0.5)
             82 STORE_FAST               6 (z)
             84 POP_BLOCK
             86 POP_EXCEPT
             88 LOAD_CONST               0 (None)
             90 STORE_FAST               7 (e)
             92 DELETE_FAST              7 (e)
             94 JUMP_FORWARD             5 (to 106)
        >>   96 LOAD_CONST               0 (None)
             98 STORE_FAST               7 (e)
            100 DELETE_FAST              7 (e)
            102 RERAISE                  1

 10     >>  104 RERAISE                  0

 12     >>  106 LOAD_DEREF               0 (a)
            108 LOAD_FAST                1 (b)
            110 COMPARE_OP               0 (<)
            112 POP_JUMP_IF_FALSE       64 (to 128)
            114 LOAD_DEREF               0 (a)
            116 LOAD_CONST               8 ('>10')
            118 FORMAT_VALUE             6 (repr, with format)
            120 LOAD_FAST                1 (b)
            122 FORMAT_VALUE             0
            124 BUILD_STRING             2
            126 RETURN_VALUE
        >>  128 LOAD_FAST                3 (g)
            130 RETURN_VALUE

Disassembly of <code object g, file "t.py", line 2>:
  3           0 LOAD_DEREF               0 (a)
              2 RETURN_VALUE
)dis";

std::shared_ptr<CodeObject> code_11_g_2() {
  auto c = std::make_shared<CodeObject>();
  c->version_minor = 11;
  c->argcount = 0;
  c->posonlyargcount = 0;
  c->kwonlyargcount = 0;
  c->nlocals = 0;
  c->stacksize = 1;
  c->flags = 0x13;
  c->firstlineno = 2;
  c->code = unhex("9501970089005300");
  c->consts = {none()};
  c->names = {};
  c->varnames = {};
  c->cellvars = {};
  c->freevars = {"a"};
  c->filename = "t.py";
  c->name = "g";
  c->qualname = "f.<locals>.g";
  c->localsplusnames = {"a"};
  c->localspluskinds = {0x80};
  c->linetable = unhex("f88000d80f108808");
  c->exceptiontable = unhex("");
  return c;
}

std::shared_ptr<CodeObject> code_11_f_1() {
  auto c = std::make_shared<CodeObject>();
  c->version_minor = 11;
  c->argcount = 2;
  c->posonlyargcount = 0;
  c->kwonlyargcount = 1;
  c->nlocals = 8;
  c->stacksize = 4;
  c->flags = 0x3;
  c->firstlineno = 1;
  c->code = unhex("8700970088006601640184087d0389006a000000000000000000a001000000000000000000000000000000000000000064026403ac04a6020000ab0200000000000000007d047405000000000000000000006405a6010000ab01000000000000000044005d097d0589007c016b000000000072018c098c0a090064027c017a0b00007d066e1923007406000000000000000000002400720c7d0764067d06590064007d077e076e0864007d077e077701770078035900770189007c016b00000000007207890064079b067c019b009d026e017c035300");
  c->consts = {none(), code_const(code_11_g_2()), integer(1), integer(2), tuple({text("k")}), integer(3), real(0x1.0000000000000p-1), text(">10")};
  c->names = {"b", "c", "range", "ZeroDivisionError"};
  c->varnames = {"a", "b", "c", "g", "y", "i", "z", "e"};
  c->cellvars = {"a"};
  c->freevars = {};
  c->filename = "t.py";
  c->name = "f";
  c->qualname = "f";
  c->localsplusnames = {"a", "b", "c", "g", "y", "i", "z", "e"};
  c->localspluskinds = {0x60, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20};
  c->linetable = unhex("f88000f002010511f000010511f000010511f000010511f000010511e008098c038f058a05886190318805890d8c0d8041dd0d12903189588c58f000020515f0000205158801d80b0c88718a358835d80c14f003000c11f004030510d80c0d9001894588018801f8dd0b1cf000010510f000010510f000010510d80c0f880188018801880188018801f8f8f8f8f003010510f8f8f8e01e1fa0219a6598658861883f883f9071883f883f883fa811d0042a");
  c->exceptiontable = unhex("bd05410300c1030a411903c10d02411403c11405411903");
  return c;
}

// dis.dis(code) of Python 3.11, addresses removed.
constexpr std::string_view kDis_11_f = R"dis(              0 MAKE_CELL                0 (a)

  1           2 RESUME                   0

  2           4 LOAD_CLOSURE             0 (a)
              6 BUILD_TUPLE              1
              8 LOAD_CONST               1 (<code object g, file "t.py", line 2>)
             10 MAKE_FUNCTION            8 (closure)
             12 STORE_FAST               3 (g)

  4          14 LOAD_DEREF               0 (a)
             16 LOAD_ATTR                0 (b)
             26 LOAD_METHOD              1 (c)
             48 LOAD_CONST               2 (1)
             50 LOAD_CONST               3 (2)
             52 KW_NAMES                 4
             54 PRECALL                  2
             58 CALL                     2
             68 STORE_FAST               4 (y)

  5          70 LOAD_GLOBAL              5 (NULL + range)
             82 LOAD_CONST               5 (3)
             84 PRECALL                  1
             88 CALL                     1
             98 GET_ITER
        >>  100 FOR_ITER                 9 (to 120)
            102 STORE_FAST               5 (i)

  6         104 LOAD_DEREF               0 (a)
            106 LOAD_FAST                1 (b)
            108 COMPARE_OP               0 (<)
            114 POP_JUMP_FORWARD_IF_FALSE     1 (to 118)

  7         116 JUMP_BACKWARD            9 (to 100)

  6     >>  118 JUMP_BACKWARD           10 (to 100)

  8     >>  120 NOP

  9         122 LOAD_CONST               2 (1)
            124 LOAD_FAST                1 (b)
            126 BINARY_OP               11 (/)
            130 STORE_FAST               6 (z)
            132 JUMP_FORWARD            25 (to 184)
        >>  134 PUSH_EXC_INFO

 10         136 LOAD_GLOBAL              6 (ZeroDivisionError)
            148 CHECK_EXC_MATCH
            150 POP_JUMP_FORWARD_IF_FALSE    12 (to 176)
            152 STORE_FAST               7 (e)

 11         154 LOAD_CONST               6 (0.5)
            156 STORE_FAST               6 (z)
            158 POP_EXCEPT
            160 LOAD_CONST               0 (None)
            162 STORE_FAST               7 (e)
            164 DELETE_FAST              7 (e)
            166 JUMP_FORWARD             8 (to 184)
        >>  168 LOAD_CONST               0 (None)
            170 STORE_FAST               7 (e)
            172 DELETE_FAST              7 (e)
            174 RERAISE                  1

 10     >>  176 RERAISE                  0
        >>  178 COPY                     3
            180 POP_EXCEPT
            182 RERAISE                  1

 12     >>  184 LOAD_DEREF               0 (a)
            186 LOAD_FAST                1 (b)
            188 COMPARE_OP               0 (<)
            194 POP_JUMP_FORWARD_IF_FALSE     7 (to 210)
            196 LOAD_DEREF               0 (a)
            198 LOAD_CONST               7 ('>10')
            200 FORMAT_VALUE             6 (repr, with format)
            202 LOAD_FAST                1 (b)
            204 FORMAT_VALUE             0
            206 BUILD_STRING             2
            208 JUMP_FORWARD             1 (to 212)
        >>  210 LOAD_FAST                3 (g)
        >>  212 RETURN_VALUE
ExceptionTable:
  122 to 130 -> 134 [0]
  134 to 152 -> 178 [1] lasti
  154 to 156 -> 168 [1] lasti
  168 to 176 -> 178 [1] lasti

Disassembly of <code object g, file "t.py", line 2>:
              0 COPY_FREE_VARS           1

  2           2 RESUME                   0

  3           4 LOAD_DEREF               0 (a)
              6 RETURN_VALUE
)dis";

std::shared_ptr<CodeObject> code_12_g_2() {
  auto c = std::make_shared<CodeObject>();
  c->version_minor = 12;
  c->argcount = 0;
  c->posonlyargcount = 0;
  c->kwonlyargcount = 0;
  c->nlocals = 0;
  c->stacksize = 1;
  c->flags = 0x13;
  c->firstlineno = 2;
  c->code = unhex("9501970089005300");
  c->consts = {none()};
  c->names = {};
  c->varnames = {};
  c->cellvars = {};
  c->freevars = {"a"};
  c->filename = "t.py";
  c->name = "g";
  c->qualname = "f.<locals>.g";
  c->localsplusnames = {"a"};
  c->localspluskinds = {0x80};
  c->linetable = unhex("f88000d80f108808");
  c->exceptiontable = unhex("");
  return c;
}

std::shared_ptr<CodeObject> code_12_f_1() {
  auto c = std::make_shared<CodeObject>();
  c->version_minor = 12;
  c->argcount = 2;
  c->posonlyargcount = 0;
  c->kwonlyargcount = 1;
  c->nlocals = 8;
  c->stacksize = 4;
  c->flags = 0x3;
  c->firstlineno = 1;
  c->code = unhex("8700970088006601640184087d0389006a000000000000000000000000000000000000006a0300000000000000000000000000000000000064026403ac04ab020000000000007d04740500000000000000006405ab0100000000000044005d0800007d0589007c016b02000073018c098c0a0400090064027c017a0b00007d0689007c016b0200007207890064079b067c019b009d0253007c0353002300740600000000000000002400720c7d0764067d06590064007d077e078c1e64007d077e0777017700780359007701");
  c->consts = {none(), code_const(code_12_g_2()), integer(1), integer(2), tuple({text("k")}), integer(3), real(0x1.0000000000000p-1), text(">10")};
  c->names = {"b", "c", "range", "ZeroDivisionError"};
  c->varnames = {"a", "b", "c", "g", "y", "i", "z", "e"};
  c->cellvars = {"a"};
  c->freevars = {};
  c->filename = "t.py";
  c->name = "f";
  c->qualname = "f";
  c->localsplusnames = {"a", "b", "c", "g", "y", "i", "z", "e"};
  c->localspluskinds = {0x60, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20};
  c->linetable = unhex("f88000f402010511e008098f0389038f0589058861903188058b0d8041dc0d1290318b58f2000205158801d80b0c88718b35d80c14f005020515f006030510d80c0d900189458801f006001f20a0219a6588619023885990719063883fd0042aa811d0042af8f405000c1df200010510d80c0f8d01fbf003010510fa");
  c->exceptiontable = unhex("bb05410e00c10e09412303c11702411e03c11e05412303");
  return c;
}

// dis.dis(code) of Python 3.12, addresses removed.
constexpr std::string_view kDis_12_f = R"dis(              0 MAKE_CELL                0 (a)

  1           2 RESUME                   0

  2           4 LOAD_CLOSURE             0 (a)
              6 BUILD_TUPLE              1
              8 LOAD_CONST               1 (<code object g, file "t.py", line 2>)
             10 MAKE_FUNCTION            8 (closure)
             12 STORE_FAST               3 (g)

  4          14 LOAD_DEREF               0 (a)
             16 LOAD_ATTR                0 (b)
             36 LOAD_ATTR                3 (NULL|self + c)
             56 LOAD_CONST               2 (1)
             58 LOAD_CONST               3 (2)
             60 KW_NAMES                 4 (('k',))
             62 CALL                     2
             70 STORE_FAST               4 (y)

  5          72 LOAD_GLOBAL              5 (NULL + range)
             82 LOAD_CONST               5 (3)
             84 CALL                     1
             92 GET_ITER
        >>   94 FOR_ITER                 8 (to 114)
             98 STORE_FAST               5 (i)

  6         100 LOAD_DEREF               0 (a)
            102 LOAD_FAST                1 (b)
            104 COMPARE_OP               2 (<)
            108 POP_JUMP_IF_TRUE         1 (to 112)
            110 JUMP_BACKWARD            9 (to 94)

  7     >>  112 JUMP_BACKWARD           10 (to 94)

  5     >>  114 END_FOR

  8         116 NOP

  9         118 LOAD_CONST               2 (1)
            120 LOAD_FAST                1 (b)
            122 BINARY_OP               11 (/)
            126 STORE_FAST               6 (z)

 12     >>  128 LOAD_DEREF               0 (a)
            130 LOAD_FAST                1 (b)
            132 COMPARE_OP               2 (<)
            136 POP_JUMP_IF_FALSE        7 (to 152)
            138 LOAD_DEREF               0 (a)
            140 LOAD_CONST               7 ('>10')
            142 FORMAT_VALUE             6 (repr, with format)
            144 LOAD_FAST                1 (b)
            146 FORMAT_VALUE             0
            148 BUILD_STRING             2
            150 RETURN_VALUE
        >>  152 LOAD_FAST                3 (g)
            154 RETURN_VALUE
        >>  156 PUSH_EXC_INFO

 10         158 LOAD_GLOBAL              6 (ZeroDivisionError)
            168 CHECK_EXC_MATCH
            170 POP_JUMP_IF_FALSE       12 (to 196)
            172 STORE_FAST               7 (e)

 11         174 LOAD_CONST               6 (0.5)
            176 STORE_FAST               6 (z)
            178 POP_EXCEPT
            180 LOAD_CONST               0 (None)
            182 STORE_FAST               7 (e)
            184 DELETE_FAST              7 (e)
            186 JUMP_BACKWARD           30 (to 128)
        >>  188 LOAD_CONST               0 (None)
            190 STORE_FAST               7 (e)
            192 DELETE_FAST              7 (e)
            194 RERAISE                  1

 10     >>  196 RERAISE                  0
        >>  198 COPY                     3
            200 POP_EXCEPT
            202 RERAISE                  1
ExceptionTable:
  118 to 126 -> 156 [0]
  156 to 172 -> 198 [1] lasti
  174 to 176 -> 188 [1] lasti
  188 to 196 -> 198 [1] lasti

Disassembly of <code object g, file "t.py", line 2>:
              0 COPY_FREE_VARS           1

  2           2 RESUME                   0

  3           4 LOAD_DEREF               0 (a)
              6 RETURN_VALUE
)dis";

std::shared_ptr<CodeObject> code_12_w_3() {
  auto c = std::make_shared<CodeObject>();
  c->version_minor = 12;
  c->argcount = 1;
  c->posonlyargcount = 0;
  c->kwonlyargcount = 0;
  c->nlocals = 1;
  c->stacksize = 4;
  c->flags = 0x3;
  c->firstlineno = 1200;
  c->code = unhex("97007c0072157c006a0100000000000000000000000000000000000064016402ab020000000000007d007c0072018c157c005300");
  c->consts = {none(), real(-0x1.8000000000000p+0), binary(unhex("00"))};
  c->names = {"y"};
  c->varnames = {"x"};
  c->cellvars = {};
  c->freevars = {};
  c->filename = "t.py";
  c->name = "w";
  c->qualname = "w";
  c->localsplusnames = {"x"};
  c->localspluskinds = {0x20};
  c->linetable = unhex("8000d90a0bd80c0d8f43894390049067d30c1e8801f203000b0ce00b0c8048");
  c->exceptiontable = unhex("");
  return c;
}

// dis.dis(code, show_caches=True) of Python 3.12, addresses removed.
constexpr std::string_view kDis_12_w = R"dis(1200           0 RESUME                   0

1201           2 LOAD_FAST                0 (x)
               4 POP_JUMP_IF_FALSE       21 (to 48)

1202     >>    6 LOAD_FAST                0 (x)
               8 LOAD_ATTR                1 (NULL|self + y)
              10 CACHE                    0 (counter: 0)
              12 CACHE                    0 (version: 0)
              14 CACHE                    0
              16 CACHE                    0 (keys_version: 0)
              18 CACHE                    0
              20 CACHE                    0 (descr: 0)
              22 CACHE                    0
              24 CACHE                    0
              26 CACHE                    0
              28 LOAD_CONST               1 (-1.5)
              30 LOAD_CONST               2 (b'\x00')
              32 CALL                     2
              34 CACHE                    0 (counter: 0)
              36 CACHE                    0 (func_version: 0)
              38 CACHE                    0
              40 STORE_FAST               0 (x)

1201          42 LOAD_FAST                0 (x)
              44 POP_JUMP_IF_FALSE        1 (to 48)
              46 JUMP_BACKWARD           21 (to 6)

1203     >>   48 LOAD_FAST                0 (x)
              50 RETURN_VALUE
)dis";

std::shared_ptr<CodeObject> code_12_e_4() {
  auto c = std::make_shared<CodeObject>();
  c->version_minor = 12;
  c->argcount = 0;
  c->posonlyargcount = 0;
  c->kwonlyargcount = 0;
  c->nlocals = 0;
  c->stacksize = 2;
  c->flags = 0x3;
  c->firstlineno = 1;
  c->code = unhex("97006700740000000000000000009101740200000000000000009101740400000000000000009101740600000000000000009101740800000000000000009101740a00000000000000009101740c00000000000000009101740e00000000000000009101741000000000000000009101741200000000000000009101741400000000000000009101741600000000000000009101741800000000000000009101741a00000000000000009101741c00000000000000009101741e00000000000000009101742000000000000000009101742200000000000000009101742400000000000000009101742600000000000000009101742800000000000000009101742a00000000000000009101742c00000000000000009101742e00000000000000009101743000000000000000009101743200000000000000009101743400000000000000009101743600000000000000009101743800000000000000009101743a00000000000000009101743c00000000000000009101743e00000000000000009101744000000000000000009101744200000000000000009101744400000000000000009101744600000000000000009101744800000000000000009101744a00000000000000009101744c00000000000000009101744e00000000000000009101745000000000000000009101745200000000000000009101745400000000000000009101745600000000000000009101745800000000000000009101745a00000000000000009101745c00000000000000009101745e00000000000000009101746000000000000000009101746200000000000000009101746400000000000000009101746600000000000000009101746800000000000000009101746a00000000000000009101746c00000000000000009101746e00000000000000009101747000000000000000009101747200000000000000009101747400000000000000009101747600000000000000009101747800000000000000009101747a00000000000000009101747c00000000000000009101747e00000000000000009101748000000000000000009101748200000000000000009101748400000000000000009101748600000000000000009101748800000000000000009101748a00000000000000009101748c00000000000000009101748e00000000000000009101749000000000000000009101749200000000000000009101749400000000000000009101749600000000000000009101749800000000000000009101749a00000000000000009101749c00000000000000009101749e0000000000000000910174a00000000000000000910174a20000000000000000910174a40000000000000000910174a60000000000000000910174a80000000000000000910174aa0000000000000000910174ac0000000000000000910174ae0000000000000000910174b00000000000000000910174b20000000000000000910174b40000000000000000910174b60000000000000000910174b80000000000000000910174ba0000000000000000910174bc0000000000000000910174be0000000000000000910174c00000000000000000910174c20000000000000000910174c40000000000000000910174c60000000000000000910174c80000000000000000910174ca0000000000000000910174cc0000000000000000910174ce0000000000000000910174d00000000000000000910174d20000000000000000910174d40000000000000000910174d60000000000000000910174d80000000000000000910174da0000000000000000910174dc0000000000000000910174de0000000000000000910174e00000000000000000910174e20000000000000000910174e40000000000000000910174e60000000000000000910174e80000000000000000910174ea0000000000000000910174ec0000000000000000910174ee0000000000000000910174f00000000000000000910174f20000000000000000910174f40000000000000000910174f60000000000000000910174f80000000000000000910174fa0000000000000000910174fc0000000000000000910174fe00000000000000009101900174000000000000000000910190017402000000000000000091015300");
  c->consts = {none()};
  c->names = {"v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15", "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28", "v29", "v30", "v31", "v32", "v33", "v34", "v35", "v36", "v37", "v38", "v39", "v40", "v41", "v42", "v43", "v44", "v45", "v46", "v47", "v48", "v49", "v50", "v51", "v52", "v53", "v54", "v55", "v56", "v57", "v58", "v59", "v60", "v61", "v62", "v63", "v64", "v65", "v66", "v67", "v68", "v69", "v70", "v71", "v72", "v73", "v74", "v75", "v76", "v77", "v78", "v79", "v80", "v81", "v82", "v83", "v84", "v85", "v86", "v87", "v88", "v89", "v90", "v91", "v92", "v93", "v94", "v95", "v96", "v97", "v98", "v99", "v100", "v101", "v102", "v103", "v104", "v105", "v106", "v107", "v108", "v109", "v110", "v111", "v112", "v113", "v114", "v115", "v116", "v117", "v118", "v119", "v120", "v121", "v122", "v123", "v124", "v125", "v126", "v127", "v128", "v129"};
  c->varnames = {};
  c->cellvars = {};
  c->freevars = {};
  c->filename = "t.py";
  c->name = "e";
  c->qualname = "e";
  c->localsplusnames = {};
  c->localspluskinds = {};
  c->linetable = unhex("8000f002000c6a0a8c42f000000c6a0a9402f000000c6a0a9442f000000c6a0a9c02f000000c6a0a9c42f000000c6a0aa402f000000c6a0aa442f000000c6a0aac02f000000c6a0aac42f000000c6a0ab402f000000c6a0ab443f000000c6a0abc13f000000c6a0abc63f000000c6a0ac433f000000c6a0acc03f000000c6a0acc53f000000c6a0ad45255f000000c6a0ad4575af000000c6a0ad45c5ff000000c6a0ad46164f000000c6a0ad46669f000000c6a0ad46b6ef000000c6a0ad47073f000000c6a0ad47578f000000c6a0ad47a7df000000c6a0af4000040024302f000000c6a0af4000045024802f000000c6a0af400004a024d02f000000c6a0af400004f025202f000000c6a0af4000054025702f000000c6a0af4000059025c02f000000c6a0af400005e026102f000000c6a0af4000063026602f000000c6a0af4000068026b02f000000c6a0af400006d027002f000000c6a0af4000072027502f000000c6a0af4000077027a02f000000c6a0af400007c027f02f000000c6a0af4000041034403f000000c6a0af4000046034903f000000c6a0af400004b034e03f000000c6a0af4000050035303f000000c6a0af4000055035803f000000c6a0af400005a035d03f000000c6a0af400005f036203f000000c6a0af4000064036703f000000c6a0af4000069036c03f000000c6a0af400006e037103f000000c6a0af4000073037603f000000c6a0af4000078037b03f000000c6a0af400007d034004f000000c6a0af4000042044504f000000c6a0af4000047044a04f000000c6a0af400004c044f04f000000c6a0af4000051045404f000000c6a0af4000056045904f000000c6a0af400005b045e04f000000c6a0af4000060046304f000000c6a0af4000065046804f000000c6a0af400006a046d04f000000c6a0af400006f047204f000000c6a0af4000074047704f000000c6a0af4000079047c04f000000c6a0af400007e044105f000000c6a0af4000043054605f000000c6a0af4000048054b05f000000c6a0af400004d055005f000000c6a0af4000052055505f000000c6a0af4000057055a05f000000c6a0af400005c055f05f000000c6a0af4000061056405f000000c6a0af4000066056905f000000c6a0af400006b056e05f000000c6a0af4000070057305f000000c6a0af4000075057805f000000c6a0af400007a057d05f000000c6a0af400007f054206f000000c6a0af4000044064706f000000c6a0af4000049064c06f000000c6a0af400004e065106f000000c6a0af4000053065606f000000c6a0af4000058065b06f000000c6a0af400005d066006f000000c6a0af4000062066506f000000c6a0af4000067066a06f000000c6a0af400006c066f06f000000c6a0af4000071067406f000000c6a0af4000076067906f000000c6a0af400007b067e06f000000c6a0af4000040074307f000000c6a0af4000045074807f000000c6a0af400004a074d07f000000c6a0af400004f075207f000000c6a0af4000054075707f000000c6a0af4000059075c07f000000c6a0af400005e076107f000000c6a0af4000063076607f000000c6a0af4000068076b07f000000c6a0af400006d077007f000000c6a0af4000072077507f000000c6a0af4000077077b07f000000c6a0af400007d074108f000000c6a0af4000043084708f000000c6a0af4000049084d08f000000c6a0af400004f085308f000000c6a0af4000055085908f000000c6a0af400005b085f08f000000c6a0af4000061086508f000000c6a0af4000067086b08f000000c6a0af400006d087108f000000c6a0af4000073087708f000000c6a0af4000079087d08f000000c6a0af400007f084309f000000c6a0af4000045094909f000000c6a0af400004b094f09f000000c6a0af4000051095509f000000c6a0af4000057095b09f000000c6a0af400005d096109f000000c6a0af4000063096709f000000c6a0af4000069096d09f000000c6a0af400006f097309f000000c6a0af4000075097909f000000c6a0af400007b097f09f000000c6a0af40000410a450af000000c6a0af40000470a4b0af000000c6a0af400004d0a510af000000c6a0af40000530a570af000000c6a0af40000590a5d0af000000c6a0af500005f0a630af000000c6a0af50000650a690af000000c6a0af00000056a0a");
  c->exceptiontable = unhex("");
  return c;
}

// dis.dis(code) of Python 3.12, addresses removed.
constexpr std::string_view kDis_12_e = R"dis(  1           0 RESUME                   0

  2           2 BUILD_LIST               0
              4 LOAD_GLOBAL              0 (v0)
             14 LIST_APPEND              1
             16 LOAD_GLOBAL              2 (v1)
             26 LIST_APPEND              1
             28 LOAD_GLOBAL              4 (v2)
             38 LIST_APPEND              1
             40 LOAD_GLOBAL              6 (v3)
             50 LIST_APPEND              1
             52 LOAD_GLOBAL              8 (v4)
             62 LIST_APPEND              1
             64 LOAD_GLOBAL             10 (v5)
             74 LIST_APPEND              1
             76 LOAD_GLOBAL             12 (v6)
             86 LIST_APPEND              1
             88 LOAD_GLOBAL             14 (v7)
             98 LIST_APPEND              1
            100 LOAD_GLOBAL             16 (v8)
            110 LIST_APPEND              1
            112 LOAD_GLOBAL             18 (v9)
            122 LIST_APPEND              1
            124 LOAD_GLOBAL             20 (v10)
            134 LIST_APPEND              1
            136 LOAD_GLOBAL             22 (v11)
            146 LIST_APPEND              1
            148 LOAD_GLOBAL             24 (v12)
            158 LIST_APPEND              1
            160 LOAD_GLOBAL             26 (v13)
            170 LIST_APPEND              1
            172 LOAD_GLOBAL             28 (v14)
            182 LIST_APPEND              1
            184 LOAD_GLOBAL             30 (v15)
            194 LIST_APPEND              1
            196 LOAD_GLOBAL             32 (v16)
            206 LIST_APPEND              1
            208 LOAD_GLOBAL             34 (v17)
            218 LIST_APPEND              1
            220 LOAD_GLOBAL             36 (v18)
            230 LIST_APPEND              1
            232 LOAD_GLOBAL             38 (v19)
            242 LIST_APPEND              1
            244 LOAD_GLOBAL             40 (v20)
            254 LIST_APPEND              1
            256 LOAD_GLOBAL             42 (v21)
            266 LIST_APPEND              1
            268 LOAD_GLOBAL             44 (v22)
            278 LIST_APPEND              1
            280 LOAD_GLOBAL             46 (v23)
            290 LIST_APPEND              1
            292 LOAD_GLOBAL             48 (v24)
            302 LIST_APPEND              1
            304 LOAD_GLOBAL             50 (v25)
            314 LIST_APPEND              1
            316 LOAD_GLOBAL             52 (v26)
            326 LIST_APPEND              1
            328 LOAD_GLOBAL             54 (v27)
            338 LIST_APPEND              1
            340 LOAD_GLOBAL             56 (v28)
            350 LIST_APPEND              1
            352 LOAD_GLOBAL             58 (v29)
            362 LIST_APPEND              1
            364 LOAD_GLOBAL             60 (v30)
            374 LIST_APPEND              1
            376 LOAD_GLOBAL             62 (v31)
            386 LIST_APPEND              1
            388 LOAD_GLOBAL             64 (v32)
            398 LIST_APPEND              1
            400 LOAD_GLOBAL             66 (v33)
            410 LIST_APPEND              1
            412 LOAD_GLOBAL             68 (v34)
            422 LIST_APPEND              1
            424 LOAD_GLOBAL             70 (v35)
            434 LIST_APPEND              1
            436 LOAD_GLOBAL             72 (v36)
            446 LIST_APPEND              1
            448 LOAD_GLOBAL             74 (v37)
            458 LIST_APPEND              1
            460 LOAD_GLOBAL             76 (v38)
            470 LIST_APPEND              1
            472 LOAD_GLOBAL             78 (v39)
            482 LIST_APPEND              1
            484 LOAD_GLOBAL             80 (v40)
            494 LIST_APPEND              1
            496 LOAD_GLOBAL             82 (v41)
            506 LIST_APPEND              1
            508 LOAD_GLOBAL             84 (v42)
            518 LIST_APPEND              1
            520 LOAD_GLOBAL             86 (v43)
            530 LIST_APPEND              1
            532 LOAD_GLOBAL             88 (v44)
            542 LIST_APPEND              1
            544 LOAD_GLOBAL             90 (v45)
            554 LIST_APPEND              1
            556 LOAD_GLOBAL             92 (v46)
            566 LIST_APPEND              1
            568 LOAD_GLOBAL             94 (v47)
            578 LIST_APPEND              1
            580 LOAD_GLOBAL             96 (v48)
            590 LIST_APPEND              1
            592 LOAD_GLOBAL             98 (v49)
            602 LIST_APPEND              1
            604 LOAD_GLOBAL            100 (v50)
            614 LIST_APPEND              1
            616 LOAD_GLOBAL            102 (v51)
            626 LIST_APPEND              1
            628 LOAD_GLOBAL            104 (v52)
            638 LIST_APPEND              1
            640 LOAD_GLOBAL            106 (v53)
            650 LIST_APPEND              1
            652 LOAD_GLOBAL            108 (v54)
            662 LIST_APPEND              1
            664 LOAD_GLOBAL            110 (v55)
            674 LIST_APPEND              1
            676 LOAD_GLOBAL            112 (v56)
            686 LIST_APPEND              1
            688 LOAD_GLOBAL            114 (v57)
            698 LIST_APPEND              1
            700 LOAD_GLOBAL            116 (v58)
            710 LIST_APPEND              1
            712 LOAD_GLOBAL            118 (v59)
            722 LIST_APPEND              1
            724 LOAD_GLOBAL            120 (v60)
            734 LIST_APPEND              1
            736 LOAD_GLOBAL            122 (v61)
            746 LIST_APPEND              1
            748 LOAD_GLOBAL            124 (v62)
            758 LIST_APPEND              1
            760 LOAD_GLOBAL            126 (v63)
            770 LIST_APPEND              1
            772 LOAD_GLOBAL            128 (v64)
            782 LIST_APPEND              1
            784 LOAD_GLOBAL            130 (v65)
            794 LIST_APPEND              1
            796 LOAD_GLOBAL            132 (v66)
            806 LIST_APPEND              1
            808 LOAD_GLOBAL            134 (v67)
            818 LIST_APPEND              1
            820 LOAD_GLOBAL            136 (v68)
            830 LIST_APPEND              1
            832 LOAD_GLOBAL            138 (v69)
            842 LIST_APPEND              1
            844 LOAD_GLOBAL            140 (v70)
            854 LIST_APPEND              1
            856 LOAD_GLOBAL            142 (v71)
            866 LIST_APPEND              1
            868 LOAD_GLOBAL            144 (v72)
            878 LIST_APPEND              1
            880 LOAD_GLOBAL            146 (v73)
            890 LIST_APPEND              1
            892 LOAD_GLOBAL            148 (v74)
            902 LIST_APPEND              1
            904 LOAD_GLOBAL            150 (v75)
            914 LIST_APPEND              1
            916 LOAD_GLOBAL            152 (v76)
            926 LIST_APPEND              1
            928 LOAD_GLOBAL            154 (v77)
            938 LIST_APPEND              1
            940 LOAD_GLOBAL            156 (v78)
            950 LIST_APPEND              1
            952 LOAD_GLOBAL            158 (v79)
            962 LIST_APPEND              1
            964 LOAD_GLOBAL            160 (v80)
            974 LIST_APPEND              1
            976 LOAD_GLOBAL            162 (v81)
            986 LIST_APPEND              1
            988 LOAD_GLOBAL            164 (v82)
            998 LIST_APPEND              1
           1000 LOAD_GLOBAL            166 (v83)
           1010 LIST_APPEND              1
           1012 LOAD_GLOBAL            168 (v84)
           1022 LIST_APPEND              1
           1024 LOAD_GLOBAL            170 (v85)
           1034 LIST_APPEND              1
           1036 LOAD_GLOBAL            172 (v86)
           1046 LIST_APPEND              1
           1048 LOAD_GLOBAL            174 (v87)
           1058 LIST_APPEND              1
           1060 LOAD_GLOBAL            176 (v88)
           1070 LIST_APPEND              1
           1072 LOAD_GLOBAL            178 (v89)
           1082 LIST_APPEND              1
           1084 LOAD_GLOBAL            180 (v90)
           1094 LIST_APPEND              1
           1096 LOAD_GLOBAL            182 (v91)
           1106 LIST_APPEND              1
           1108 LOAD_GLOBAL            184 (v92)
           1118 LIST_APPEND              1
           1120 LOAD_GLOBAL            186 (v93)
           1130 LIST_APPEND              1
           1132 LOAD_GLOBAL            188 (v94)
           1142 LIST_APPEND              1
           1144 LOAD_GLOBAL            190 (v95)
           1154 LIST_APPEND              1
           1156 LOAD_GLOBAL            192 (v96)
           1166 LIST_APPEND              1
           1168 LOAD_GLOBAL            194 (v97)
           1178 LIST_APPEND              1
           1180 LOAD_GLOBAL            196 (v98)
           1190 LIST_APPEND              1
           1192 LOAD_GLOBAL            198 (v99)
           1202 LIST_APPEND              1
           1204 LOAD_GLOBAL            200 (v100)
           1214 LIST_APPEND              1
           1216 LOAD_GLOBAL            202 (v101)
           1226 LIST_APPEND              1
           1228 LOAD_GLOBAL            204 (v102)
           1238 LIST_APPEND              1
           1240 LOAD_GLOBAL            206 (v103)
           1250 LIST_APPEND              1
           1252 LOAD_GLOBAL            208 (v104)
           1262 LIST_APPEND              1
           1264 LOAD_GLOBAL            210 (v105)
           1274 LIST_APPEND              1
           1276 LOAD_GLOBAL            212 (v106)
           1286 LIST_APPEND              1
           1288 LOAD_GLOBAL            214 (v107)
           1298 LIST_APPEND              1
           1300 LOAD_GLOBAL            216 (v108)
           1310 LIST_APPEND              1
           1312 LOAD_GLOBAL            218 (v109)
           1322 LIST_APPEND              1
           1324 LOAD_GLOBAL            220 (v110)
           1334 LIST_APPEND              1
           1336 LOAD_GLOBAL            222 (v111)
           1346 LIST_APPEND              1
           1348 LOAD_GLOBAL            224 (v112)
           1358 LIST_APPEND              1
           1360 LOAD_GLOBAL            226 (v113)
           1370 LIST_APPEND              1
           1372 LOAD_GLOBAL            228 (v114)
           1382 LIST_APPEND              1
           1384 LOAD_GLOBAL            230 (v115)
           1394 LIST_APPEND              1
           1396 LOAD_GLOBAL            232 (v116)
           1406 LIST_APPEND              1
           1408 LOAD_GLOBAL            234 (v117)
           1418 LIST_APPEND              1
           1420 LOAD_GLOBAL            236 (v118)
           1430 LIST_APPEND              1
           1432 LOAD_GLOBAL            238 (v119)
           1442 LIST_APPEND              1
           1444 LOAD_GLOBAL            240 (v120)
           1454 LIST_APPEND              1
           1456 LOAD_GLOBAL            242 (v121)
           1466 LIST_APPEND              1
           1468 LOAD_GLOBAL            244 (v122)
           1478 LIST_APPEND              1
           1480 LOAD_GLOBAL            246 (v123)
           1490 LIST_APPEND              1
           1492 LOAD_GLOBAL            248 (v124)
           1502 LIST_APPEND              1
           1504 LOAD_GLOBAL            250 (v125)
           1514 LIST_APPEND              1
           1516 LOAD_GLOBAL            252 (v126)
           1526 LIST_APPEND              1
           1528 LOAD_GLOBAL            254 (v127)
           1538 LIST_APPEND              1
           1540 EXTENDED_ARG             1
           1542 LOAD_GLOBAL            256 (v128)
           1552 LIST_APPEND              1
           1554 EXTENDED_ARG             1
           1556 LOAD_GLOBAL            258 (v129)
           1566 LIST_APPEND              1
           1568 RETURN_VALUE
)dis";

std::shared_ptr<CodeObject> code_13_g_2() {
  auto c = std::make_shared<CodeObject>();
  c->version_minor = 13;
  c->argcount = 0;
  c->posonlyargcount = 0;
  c->kwonlyargcount = 0;
  c->nlocals = 0;
  c->stacksize = 1;
  c->flags = 0x13;
  c->firstlineno = 2;
  c->code = unhex("3e01950054002400");
  c->consts = {none()};
  c->names = {};
  c->varnames = {};
  c->cellvars = {};
  c->freevars = {"a"};
  c->filename = "t.py";
  c->name = "g";
  c->qualname = "f.<locals>.g";
  c->localsplusnames = {"a"};
  c->localspluskinds = {0x80};
  c->linetable = unhex("f88000d80f108808");
  c->exceptiontable = unhex("");
  return c;
}

std::shared_ptr<CodeObject> code_13_f_1() {
  auto c = std::make_shared<CodeObject>();
  c->version_minor = 13;
  c->argcount = 2;
  c->posonlyargcount = 0;
  c->kwonlyargcount = 1;
  c->nlocals = 8;
  c->stacksize = 5;
  c->flags = 0x3;
  c->firstlineno = 1;
  c->code = unhex("5e0095005500340153011a006a086e0354005200000000000000000000000000000000000000520300000000000000000000000000000000000053025303530439026e045b050000000000000000530535010000000000001300480b00006e05540055013a120000640200004d0b00004d0d00000b0020001e00530255012d0b00006e06540055013a1200006108000054003c0253070f0055010e00330224005503240021005b0600000000000000000700610c00006e0753066e061f0053006e0741074e2153006e074107660166003d031f006601");
  c->consts = {none(), code_const(code_13_g_2()), integer(1), integer(2), tuple({text("k")}), integer(3), real(0x1.0000000000000p-1), text(">10")};
  c->names = {"b", "c", "range", "ZeroDivisionError"};
  c->varnames = {"a", "b", "c", "g", "y", "i", "z", "e"};
  c->cellvars = {"a"};
  c->freevars = {};
  c->filename = "t.py";
  c->name = "f";
  c->qualname = "f";
  c->localsplusnames = {"a", "b", "c", "g", "y", "i", "z", "e"};
  c->localspluskinds = {0x60, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20};
  c->linetable = unhex("f88000f502010511e008098f0389038f058905886190318805880d8041dc0d1290318e588801d80b0c88718d35d90c14f105000e16f006030510d80c0d900189458801f006001f20a0219b65886188599023885990719063883fd0042aa811d0042af8f405000c1df300010510d80c0f8d01fbf003010510fa");
  c->exceptiontable = unhex("bd05411200c1120a412803c11c02412303c12305412803");
  return c;
}

// dis.dis(code, show_offsets=True) of Python 3.13, addresses removed.
constexpr std::string_view kDis_13_f = R"dis(  --           0       MAKE_CELL                0 (a)

   1           2       RESUME                   0

   2           4       LOAD_FAST                0 (a)
               6       BUILD_TUPLE              1
               8       LOAD_CONST               1 (<code object g, file "t.py", line 2>)
              10       MAKE_FUNCTION
              12       SET_FUNCTION_ATTRIBUTE   8 (closure)
              14       STORE_FAST               3 (g)

   4          16       LOAD_DEREF               0 (a)
              18       LOAD_ATTR                0 (b)
              38       LOAD_ATTR                3 (c + NULL|self)
              58       LOAD_CONST               2 (1)
              60       LOAD_CONST               3 (2)
              62       LOAD_CONST               4 (('k',))
              64       CALL_KW                  2
              66       STORE_FAST               4 (y)

   5          68       LOAD_GLOBAL              5 (range + NULL)
              78       LOAD_CONST               5 (3)
              80       CALL                     1
              88       GET_ITER
        L1:   90       FOR_ITER                11 (to L3)
              94       STORE_FAST               5 (i)

   6          96       LOAD_DEREF               0 (a)
              98       LOAD_FAST                1 (b)
             100       COMPARE_OP              18 (bool(<))
             104       POP_JUMP_IF_TRUE         2 (to L2)
             108       JUMP_BACKWARD           11 (to L1)

   7    L2:  112       JUMP_BACKWARD           13 (to L1)

   5    L3:  116       END_FOR
             118       POP_TOP

   8         120       NOP

   9    L4:  122       LOAD_CONST               2 (1)
             124       LOAD_FAST                1 (b)
             126       BINARY_OP               11 (/)
             130       STORE_FAST               6 (z)

  12    L5:  132       LOAD_DEREF               0 (a)
             134       LOAD_FAST                1 (b)
             136       COMPARE_OP              18 (bool(<))
             140       POP_JUMP_IF_FALSE        8 (to L6)
             144       LOAD_DEREF               0 (a)
             146       CONVERT_VALUE            2 (repr)
             148       LOAD_CONST               7 ('>10')
             150       FORMAT_WITH_SPEC
             152       LOAD_FAST                1 (b)
             154       FORMAT_SIMPLE
             156       BUILD_STRING             2
             158       RETURN_VALUE
        L6:  160       LOAD_FAST                3 (g)
             162       RETURN_VALUE

  --    L7:  164       PUSH_EXC_INFO

  10         166       LOAD_GLOBAL              6 (ZeroDivisionError)
             176       CHECK_EXC_MATCH
             178       POP_JUMP_IF_FALSE       12 (to L11)
             182       STORE_FAST               7 (e)

  11    L8:  184       LOAD_CONST               6 (0.5)
             186       STORE_FAST               6 (z)
        L9:  188       POP_EXCEPT
             190       LOAD_CONST               0 (None)
             192       STORE_FAST               7 (e)
             194       DELETE_FAST              7 (e)
             196       JUMP_BACKWARD_NO_INTERRUPT 33 (to L5)

  --   L10:  198       LOAD_CONST               0 (None)
             200       STORE_FAST               7 (e)
             202       DELETE_FAST              7 (e)
             204       RERAISE                  1

  10   L11:  206       RERAISE                  0

  --   L12:  208       COPY                     3
             210       POP_EXCEPT
             212       RERAISE                  1
ExceptionTable:
  L4 to L5 -> L7 [0]
  L7 to L8 -> L12 [1] lasti
  L8 to L9 -> L10 [1] lasti
  L10 to L12 -> L12 [1] lasti

Disassembly of <code object g, file "t.py", line 2>:
  --          0       COPY_FREE_VARS           1

   2          2       RESUME                   0

   3          4       LOAD_DEREF               0 (a)
              6       RETURN_VALUE
)dis";

std::shared_ptr<CodeObject> code_13_w_3() {
  auto c = std::make_shared<CodeObject>();
  c->version_minor = 13;
  c->argcount = 1;
  c->posonlyargcount = 0;
  c->kwonlyargcount = 0;
  c->nlocals = 1;
  c->stacksize = 4;
  c->flags = 0x3;
  c->firstlineno = 1200;
  c->code = unhex("950055002800000000000000611b0000550052010000000000000000000000000000000000005301530235020000000000006e0055002800000000000000610200004d1b000055002400");
  c->consts = {none(), real(-0x1.8000000000000p+0), binary(unhex("00"))};
  c->names = {"y"};
  c->varnames = {"x"};
  c->cellvars = {};
  c->freevars = {};
  c->filename = "t.py";
  c->name = "w";
  c->qualname = "w";
  c->localsplusnames = {"x"};
  c->localspluskinds = {0x20};
  c->linetable = unhex("8000de0a0bd80c0d8f43894390049067d30c1e8801f703000b0c8821e00b0c8048");
  c->exceptiontable = unhex("");
  return c;
}

// dis.dis(code, show_offsets=True, show_caches=True) of Python 3.13, addresses removed.
constexpr std::string_view kDis_13_w = R"dis(1200          0       RESUME                   0

1201          2       LOAD_FAST                0 (x)
              4       TO_BOOL
              6       CACHE                    0 (counter: 0)
              8       CACHE                    0 (version: 0)
             10       CACHE                    0
             12       POP_JUMP_IF_FALSE       27 (to L2)
             14       CACHE                    0 (counter: 0)

1202   L1:   16       LOAD_FAST                0 (x)
             18       LOAD_ATTR                1 (y + NULL|self)
             20       CACHE                    0 (counter: 0)
             22       CACHE                    0 (version: 0)
             24       CACHE                    0
             26       CACHE                    0 (keys_version: 0)
             28       CACHE                    0
             30       CACHE                    0 (descr: 0)
             32       CACHE                    0
             34       CACHE                    0
             36       CACHE                    0
             38       LOAD_CONST               1 (-1.5)
             40       LOAD_CONST               2 (b'\x00')
             42       CALL                     2
             44       CACHE                    0 (counter: 0)
             46       CACHE                    0 (func_version: 0)
             48       CACHE                    0
             50       STORE_FAST               0 (x)

1201         52       LOAD_FAST                0 (x)
             54       TO_BOOL
             56       CACHE                    0 (counter: 0)
             58       CACHE                    0 (version: 0)
             60       CACHE                    0
             62       POP_JUMP_IF_FALSE        2 (to L2)
             64       CACHE                    0 (counter: 0)
             66       JUMP_BACKWARD           27 (to L1)
             68       CACHE                    0 (counter: 0)

1203   L2:   70       LOAD_FAST                0 (x)
             72       RETURN_VALUE
)dis";

// clang-format on

struct DisCase {
  int minor;
  const char* function;
  std::shared_ptr<CodeObject> (*build)();
  std::string_view listing;
  bool show_caches;
};

const DisCase kCases[] = {
    {8, "f", code_8_f_1, kDis_8_f, false},
    {9, "f", code_9_f_1, kDis_9_f, false},
    {10, "f", code_10_f_1, kDis_10_f, false},
    {11, "f", code_11_f_1, kDis_11_f, false},
    {12, "f", code_12_f_1, kDis_12_f, false},
    {12, "w", code_12_w_3, kDis_12_w, true},
    {12, "e", code_12_e_4, kDis_12_e, false},
    {13, "f", code_13_f_1, kDis_13_f, false},
    {13, "w", code_13_w_3, kDis_13_w, true},
};

TEST(DisasmMatchesDis, EveryFixture) {
  for (const DisCase& c : kCases) {
    SCOPED_TRACE(std::string("3.") + std::to_string(c.minor) + " " + c.function);
    DisasmOptions options;
    options.show_caches = c.show_caches;
    expect_same_listing(disassemble(decode(c.build(), version(c.minor)), options), c.listing);
  }
}

TEST(DisasmMatchesDis, CoversEveryVersionWithAnInterpreter) {
  for (int minor : {8, 9, 10, 11, 12, 13}) {
    bool found = false;
    for (const DisCase& c : kCases) found |= c.minor == minor;
    EXPECT_TRUE(found) << "3." << minor;
  }
}

TEST(Disasm, NonRecursiveStopsBeforeNestedCode) {
  DisasmOptions options;
  options.recursive = false;
  const std::string flat = disassemble(decode(code_8_f_1(), version(8)), options);
  EXPECT_EQ(flat.find("Disassembly of"), std::string::npos);
  const std::string full = disassemble(decode(code_8_f_1(), version(8)));
  EXPECT_EQ(full.substr(0, flat.size()), flat);
  EXPECT_NE(full.find("\nDisassembly of <code object g, file \"t.py\", line 2>:\n"),
            std::string::npos);
}

TEST(Disasm, ShowCachesAddsCacheLines) {
  const std::string plain = disassemble(decode(code_12_w_3(), version(12)));
  DisasmOptions options;
  options.show_caches = true;
  const std::string cached = disassemble(decode(code_12_w_3(), version(12)), options);
  EXPECT_EQ(plain.find("CACHE"), std::string::npos);
  EXPECT_NE(cached.find("CACHE                    0 (counter: 0)"), std::string::npos);
}

// 3.14 has no interpreter here: a hand-assembled function, with the listing
// laid out by 3.13's dis.Formatter (3.14 keeps that layout) and argreprs as
// 3.14's dis.ArgResolver spells them.
std::shared_ptr<CodeObject> hand_built_314() {
  const VersionTraits& t = version(14);
  struct Op {
    std::string_view name;
    std::uint8_t arg;
  };
  const Op ops[] = {
      {"RESUME", 0}, {"LOAD_FAST_BORROW_LOAD_FAST_BORROW", 0x01}, {"BINARY_OP", 0},
      {"LOAD_SMALL_INT", 7}, {"COMPARE_OP", 18}, {"POP_JUMP_IF_FALSE", 3}, {"NOT_TAKEN", 0},
      {"LOAD_COMMON_CONSTANT", 3}, {"RETURN_VALUE", 0}, {"LOAD_FAST_BORROW", 0},
      {"LOAD_COMMON_CONSTANT", 0}, {"IS_OP", 1}, {"LOAD_CONST", 0}, {"CONTAINS_OP", 0},
      {"LOAD_SPECIAL", 1}, {"RETURN_VALUE", 0},
  };
  auto c = std::make_shared<CodeObject>();
  c->version_minor = 14;
  for (const Op& op : ops) {
    const std::uint8_t opcode = opcode_of(t, op.name);
    c->code.push_back(static_cast<char>(opcode));
    c->code.push_back(static_cast<char>(op.arg));
    c->code.append(2 * std::size_t{t.opcodes[opcode].caches}, '\0');
  }
  c->argcount = 2;
  c->consts = {none()};
  c->localsplusnames = c->varnames = {"x", "y"};
  c->localspluskinds = {0x22, 0x22};
  c->name = c->qualname = "f";
  c->filename = "t.py";
  c->firstlineno = 1;
  // NO_COLUMNS entries: 1 unit at line 1, 7 + 8 units at line 2, 8 at line 3.
  c->linetable = unhex("e800" "ee02" "ef00" "ef02");
  return c;
}

constexpr std::string_view kListing314 = R"dis(  1          0       RESUME                   0

  2          2       LOAD_FAST_BORROW_LOAD_FAST_BORROW 1 (x, y)
             4       BINARY_OP                0 (+)
            16       LOAD_SMALL_INT           7
            18       COMPARE_OP              18 (bool(<))
            22       POP_JUMP_IF_FALSE        3 (to L1)
            26       NOT_TAKEN
            28       LOAD_COMMON_CONSTANT     3 (<built-in function all>)
            30       RETURN_VALUE

  3   L1:   32       LOAD_FAST_BORROW         0 (x)
            34       LOAD_COMMON_CONSTANT     0 (AssertionError)
            36       IS_OP                    1 (is not)
            38       LOAD_CONST               0 (None)
            40       CONTAINS_OP              0 (in)
            44       LOAD_SPECIAL             1 (__exit__)
            46       RETURN_VALUE
)dis";

TEST(DisasmMatchesDis, Python314HandBuilt) {
  const auto code = hand_built_314();
  ASSERT_EQ(code->code.size(), 48u);
  expect_same_listing(disassemble(decode(code, version(14))), kListing314);
}

TEST(Disasm, BadArgumentIsShownNotThrown) {
  // LOAD_CONST 5 with an empty co_consts: dis would raise IndexError.
  auto c = std::make_shared<CodeObject>();
  c->version_minor = 10;
  c->code = unhex("6405" "5300");
  c->name = c->qualname = "f";
  c->filename = "t.py";
  c->firstlineno = 1;
  c->linetable = unhex("0401");
  const std::string listing = disassemble(decode(c, version(10)));
  EXPECT_NE(listing.find("LOAD_CONST               5 (<"), std::string::npos) << listing;
  EXPECT_NE(listing.find("out of range"), std::string::npos) << listing;
}

TEST(Disasm, EmptyLineTableOmitsTheLineColumn) {
  auto c = std::make_shared<CodeObject>();
  c->version_minor = 10;
  c->code = unhex("6400" "5300");
  c->consts = {none()};
  c->name = c->qualname = "f";
  c->filename = "t.py";
  // 3.10: co_lines() yields only a line-less range, so dis drops the column.
  EXPECT_EQ(disassemble(decode(c, version(10))),
            "          0 LOAD_CONST               0 (None)\n"
            "          2 RETURN_VALUE\n");
}

}  // namespace
}  // namespace unveil
