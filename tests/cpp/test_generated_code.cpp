// Bytecode no compiler emits from source, as Dynamo writes it: values that stay
// on the stack while statements run, lists extended after being shared, and
// code objects used as plain values. Built with the test assembler, decompiled,
// and compared with the expected source.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "assembler.h"
#include "decompile/decompile.h"
#include "objects.h"

namespace {

using unveil::testing::Assembler;

// (`names`: views of literals, as a code object's names may be.)
std::string decompile(Assembler& a, int minor, unveil::NameList names,
                      std::vector<unveil::ObjectRef> consts) {
  auto code = a.code();
  code->names = std::move(names);
  code->consts = std::move(consts);
  code->name = code->qualname = "<module>";
  return unveil::decompile_to_source(code, *unveil::find_version(minor));
}

using unveil::testing::integer;
using unveil::testing::none;

void end(Assembler& a) {
  a.op("LOAD_CONST", 0);
  a.op("RETURN_VALUE");
}

}  // namespace

// `b[0]` is computed before `del b`, so it must be kept before the del runs.
TEST(GeneratedCode, ValueComputedBeforeADeleteIsKeptInATemporary) {
  Assembler a(11);
  a.op("LOAD_NAME", 0);  // a
  a.op("LOAD_NAME", 1);  // b
  a.op("LOAD_CONST", 1);
  a.op("BINARY_SUBSCR");
  a.op("DELETE_NAME", 1);
  a.op("BUILD_TUPLE", 2);
  a.op("STORE_NAME", 2);
  end(a);
  EXPECT_EQ(decompile(a, 11, {"a", "b", "c"}, {none(), integer(0)}), "_t1 = b[0]\ndel b\nc = (a, _t1)\n");
}

// A call result waiting on the stack while an unrelated statement runs is
// computed first; the temporary is not folded back (that would reorder).
TEST(GeneratedCode, CallBeforeAStatementRunsFirst) {
  Assembler a(11);
  a.op("PUSH_NULL");
  a.op("LOAD_NAME", 0);  // f
  a.op("PRECALL", 0);
  a.op("CALL", 0);
  a.op("LOAD_CONST", 1);
  a.op("LOAD_NAME", 1);
  a.op("STORE_ATTR", 0);  // c.f = 0
  a.op("STORE_NAME", 2);  // d = f()
  end(a);
  EXPECT_EQ(decompile(a, 11, {"f", "c", "d"}, {none(), integer(0)}), "_t1 = f()\nc.f = 0\nd = _t1\n");
}

// 3.11+ compiles `d, c = f(), 0` without the tuple and the SWAP: two values
// pending, then their stores in reverse order.
TEST(GeneratedCode, StoresOfPendingValuesAreATupleAssignment) {
  Assembler a(11);
  a.op("PUSH_NULL");
  a.op("LOAD_NAME", 0);  // f
  a.op("PRECALL", 0);
  a.op("CALL", 0);
  a.op("LOAD_CONST", 1);
  a.op("STORE_NAME", 1);
  a.op("STORE_NAME", 2);
  end(a);
  EXPECT_EQ(decompile(a, 11, {"f", "c", "d"}, {none(), integer(0)}), "d, c = (f(), 0)\n");
}

// A list stored and then extended through the stack copy: one list object.
TEST(GeneratedCode, SharedListIsExtendedByName) {
  for (int minor : {9, 11, 13}) {
    Assembler a(minor);
    a.op("BUILD_LIST", 0);
    a.op(minor >= 11 ? "COPY" : "DUP_TOP", minor >= 11 ? 1 : 0);
    a.op("STORE_NAME", 0);  // c
    a.op("LOAD_NAME", 1);   // a
    a.op("LIST_EXTEND", 1);
    a.op("STORE_NAME", 2);  // d
    end(a);
    EXPECT_EQ(decompile(a, minor, {"c", "a", "d"}, {none()}), "c = []\nc.extend(a)\nd = c\n")
        << "3." << minor;
  }
}

// LIST_EXTEND on a value that is not a display (a slice of a shared list):
// the list is computed once, the slice is extended by name.
TEST(GeneratedCode, ExtendingASliceOfASharedList) {
  Assembler a(11);
  a.op("LOAD_NAME", 0);  // a
  a.op("BUILD_LIST", 1);
  a.op("COPY", 1);
  a.op("LOAD_CONST", 1);
  a.op("LOAD_CONST", 2);
  a.op("BUILD_SLICE", 2);
  a.op("BINARY_SUBSCR");  // [a][0:1]
  a.op("SWAP", 2);
  a.op("BUILD_LIST", 0);
  a.op("LIST_EXTEND", 2);  // extends the slice, not [a]
  a.op("POP_TOP");
  a.op("STORE_NAME", 1);  // s = the slice
  end(a);
  EXPECT_EQ(decompile(a, 11, {"a", "s"}, {none(), integer(0), integer(1)}),
            "_t2 = [a][0:1]\n_t2.extend([])\ns = _t2\n");  // [a] is used once: folded back
}

// A code object used as a value prints as a name the caller binds.
TEST(GeneratedCode, CodeConstantUsedAsAValue) {
  Assembler inner(11);
  inner.op("LOAD_CONST", 0);
  inner.op("RETURN_VALUE");
  auto code = inner.code();
  code->name = code->qualname = "inner";
  code->firstlineno = 7;
  Assembler a(11);
  a.op("LOAD_CONST", 1);
  a.op("STORE_NAME", 0);
  end(a);
  EXPECT_EQ(decompile(a, 11, {"k"}, {none(), unveil::make_object(unveil::CodeValue{code})}),
            "k = __unveil_code_inner_7\n");
}

// Names never collide with the code's own: `_t1` is taken, so `_t2`.
TEST(GeneratedCode, TemporariesAvoidExistingNames) {
  Assembler a(11);
  a.op("PUSH_NULL");
  a.op("LOAD_NAME", 0);  // f
  a.op("PRECALL", 0);
  a.op("CALL", 0);
  a.op("LOAD_CONST", 1);
  a.op("LOAD_NAME", 1);
  a.op("STORE_ATTR", 0);  // _t1.f = 0
  a.op("STORE_NAME", 2);  // d = f()
  end(a);
  EXPECT_EQ(decompile(a, 11, {"f", "_t1", "d"}, {none(), integer(0)}), "_t2 = f()\n_t1.f = 0\nd = _t2\n");
}

namespace {
// Found by the whole-pipeline fuzzer: ROT_N 0 (no compiler emits it) moved
// a value past the end of the symbolic stack. It is an error the module's
// fallback explains, not a crash.
TEST(GeneratedCode, RotationOfNoValuesIsAnError) {
  Assembler a(10);
  a.op("LOAD_CONST", 1);
  a.op("LOAD_CONST", 1);
  a.op("ROT_N", 0);
  a.op("BUILD_TUPLE", 2);
  a.op("STORE_NAME", 0);
  end(a);
  const std::string out = decompile(a, 10, {"x"}, {none(), integer(0)});
  EXPECT_NE(out.find("rotation of no values"), std::string::npos) << out;
}
}  // namespace

// A keyword no source can spell, in a function big enough to be dropped as it
// is printed: met after statements were dropped, it has the module built again
// and printed whole, renamed.
TEST(GeneratedCode, NameRenamedAfterStatementsWereDropped) {
  Assembler a(11);
  std::string expected;
  for (int k = 0; k < 1100; ++k) {  // (over 2,048 code units: see decompile.cpp)
    a.op("LOAD_CONST", 1);
    a.op("STORE_NAME", 0);  // x
    expected += "x = 1\n";
  }
  a.op("PUSH_NULL");
  a.op("LOAD_NAME", 1);  // f
  a.op("LOAD_CONST", 1);
  a.op("KW_NAMES", 2);  // ('a-b',)
  a.op("PRECALL", 1);
  a.op("CALL", 1);
  a.op("POP_TOP");
  end(a);
  unveil::TupleValue kwnames;
  kwnames.items.push_back(unveil::make_object(unveil::StrValue{"a-b"}));
  EXPECT_EQ(decompile(a, 11, {"x", "f"}, {none(), integer(1), unveil::make_object(std::move(kwnames))}),
            expected + "f(a_b=1)\n");
}
