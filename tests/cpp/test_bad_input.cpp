// Bytecode that is not valid gives an unveil::Error(Decode) that names the
// offset, never a crash: a jump into the middle of an instruction (or past the
// end), a stack depth that differs where paths merge, and a stack underflow,
// on hand-assembled code objects of 3.8, 3.11, 3.12, 3.13 and 3.14. The last
// tests run the whole pipeline (decompile_to_source) on the same input.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "assembler.h"
#include "cfg/graph.h"
#include "decode/decode.h"
#include "decompile/decompile.h"
#include "support/error.h"

namespace unveil {
namespace {

using testing::Assembler;

// The conditional jump every version has under some name.
std::string pop_jump_if_false(int minor) {
  return minor == 11 ? "POP_JUMP_FORWARD_IF_FALSE" : "POP_JUMP_IF_FALSE";
}

// decode + build_graph, as every later stage sees the code; the error they throw.
std::optional<Error> graph_error(Assembler& a) {
  try {
    const DecodedCode code = a.decoded();
    (void)cfg::build_graph(code);
  } catch (const Error& e) {
    return e;
  }
  return std::nullopt;
}

// Offset of the index-th instruction that is not an EXTENDED_ARG.
std::uint32_t offset_of(Assembler& a, std::size_t index) {
  const DecodedCode code = a.decoded();
  for (const Instruction& in : code.instructions) {
    if (in.opcode == code.traits->extended_arg) continue;
    if (index-- == 0) return in.offset;
  }
  ADD_FAILURE() << "no instruction " << index;
  return 0;
}

void expect_error(const std::optional<Error>& e, std::uint32_t offset, const std::string& says) {
  ASSERT_TRUE(e.has_value()) << "no error; expected one at offset " << offset;
  EXPECT_EQ(e->kind(), ErrorKind::Decode) << e->what();
  EXPECT_EQ(e->offset(), std::optional<std::size_t>(offset)) << e->what();
  const std::string text = e->what();
  EXPECT_NE(text.find(says), std::string::npos) << text;
  EXPECT_NE(text.find("at offset " + std::to_string(offset)), std::string::npos) << text;
}

class BadInput : public ::testing::TestWithParam<int> {
 protected:
  int minor() const { return GetParam(); }
};

// (a) JUMP_FORWARD onto the LOAD_CONST of `EXTENDED_ARG 1; LOAD_CONST 0`: the
// instruction starts at its prefix, so the target is inside it.
TEST_P(BadInput, JumpIntoTheMiddleOfAnInstruction) {
  Assembler a(minor());
  const std::uint32_t unit = find_version(minor())->jump_unit;
  a.op("JUMP_FORWARD", 2 / unit);  // from the end of JUMP_FORWARD (2) to 4
  a.op("LOAD_CONST", 0x100);       // EXTENDED_ARG at 2, LOAD_CONST at 4
  a.op("RETURN_VALUE");
  expect_error(graph_error(a), 0, "jump into the middle of an instruction");
}

// (a) A target one code unit past the last instruction.
TEST_P(BadInput, JumpPastTheEnd) {
  Assembler a(minor());
  const std::uint32_t unit = find_version(minor())->jump_unit;
  a.op("JUMP_FORWARD", 4 / unit);  // 2 + 4 = 6, the code is 6 bytes long
  a.op("LOAD_CONST", 0);
  a.op("RETURN_VALUE");
  expect_error(graph_error(a), 0, "jump target 6 outside the code (0..6)");
}

// (a) 3.8-3.9 count jumps in bytes: an odd target.
TEST(BadInput38, OddJumpTarget) {
  Assembler a(8);
  a.op("JUMP_FORWARD", 1);  // 2 + 1
  a.op("LOAD_CONST", 0);
  a.op("RETURN_VALUE");
  expect_error(graph_error(a), 0, "target 3 is an odd offset");
}

// (b) `if x: <push one more>`: the join is reached with depth 0 and 1.
TEST_P(BadInput, StackDepthDiffersAtMerge) {
  Assembler a(minor());
  const int join = a.label();
  a.op("LOAD_FAST", 0);
  a.jump(pop_jump_if_false(minor()), join);
  a.op("LOAD_CONST", 0);  // one more value on the fall-through path only
  a.bind(join);
  a.op("LOAD_CONST", 0);
  a.op("RETURN_VALUE");
  const std::uint32_t at = offset_of(a, 3);
  expect_error(graph_error(a), at,
               "the block at " + std::to_string(at) + " is reached with stack depths ");
  const std::string text = graph_error(a)->what();
  EXPECT_NE(text.find(" 0 "), std::string::npos) << text;
  EXPECT_NE(text.find(" 1 "), std::string::npos) << text;
}

// (b) A loop whose body leaves one value behind: the header is reached with
// depth 0 from the entry and 1 along the back edge.
TEST_P(BadInput, LoopGrowsTheStack) {
  Assembler a(minor());
  const int head = a.label();
  a.bind(head);
  a.op("LOAD_CONST", 0);
  a.jump(find_version(minor())->has_exception_table() ? "JUMP_BACKWARD" : "JUMP_ABSOLUTE", head);
  expect_error(graph_error(a), 0, "the block at 0 is reached with stack depths ");
}

// (c) The second POP_TOP finds nothing to pop.
TEST_P(BadInput, StackUnderflow) {
  Assembler a(minor());
  a.op("LOAD_CONST", 0);
  a.op("POP_TOP");
  a.op("POP_TOP");
  a.op("LOAD_CONST", 0);
  a.op("RETURN_VALUE");
  const std::uint32_t at = offset_of(a, 2);
  expect_error(graph_error(a), at, "stack underflow");
  EXPECT_NE(std::string(graph_error(a)->what()).find("POP_TOP at " + std::to_string(at)),
            std::string::npos);
}

// The whole pipeline keeps going: the code object becomes a fallback body whose
// comment carries the same message, offset included; nothing is thrown.
TEST_P(BadInput, PipelineReportsTheOffset) {
  Assembler a(minor());
  a.op("LOAD_CONST", 0);
  a.op("POP_TOP");
  a.op("POP_TOP");
  a.op("LOAD_CONST", 0);
  a.op("RETURN_VALUE");
  const std::uint32_t at = offset_of(a, 2);
  std::string source;
  ASSERT_NO_THROW(source = decompile_to_source(a.code(), *find_version(minor())));
  EXPECT_NE(source.find("stack underflow"), std::string::npos) << source;
  EXPECT_NE(source.find("at offset " + std::to_string(at)), std::string::npos) << source;
}

INSTANTIATE_TEST_SUITE_P(Versions, BadInput, ::testing::Values(8, 10, 11, 12, 13, 14),
                         [](const auto& info) { return "py3" + std::to_string(info.param); });

// 3.11+: exception-table entries that promise more stack than there is.
class BadTableInput : public ::testing::TestWithParam<int> {};

// A handler that unwinds to depth 3 protects code running at depth 0.
TEST_P(BadTableInput, HandlerDeeperThanTheStack) {
  Assembler a(GetParam());
  const int s = a.label(), e = a.label(), h = a.label();
  a.bind(s);
  a.op("NOP");
  a.bind(e);
  a.op("LOAD_CONST", 0);
  a.op("RETURN_VALUE");
  a.bind(h);
  a.op("RERAISE", 0);
  a.handler(s, e, h, 3);
  expect_error(graph_error(a), 0, "under the depth 3 its exception handler");
}

// Two entries send exceptions to one handler with different depths.
TEST_P(BadTableInput, HandlerReachedWithTwoDepths) {
  Assembler a(GetParam());
  const int s1 = a.label(), s2 = a.label(), e = a.label(), h = a.label();
  a.op("LOAD_CONST", 0);
  a.bind(s1);
  a.op("NOP");
  a.bind(s2);
  a.op("NOP");
  a.bind(e);
  a.op("RETURN_VALUE");
  a.bind(h);
  a.op("RERAISE", 0);
  a.handler(s1, s2, h, 0);
  a.handler(s2, e, h, 1);
  const std::uint32_t at = offset_of(a, 4);
  expect_error(graph_error(a), at,
               "the block at " + std::to_string(at) + " is reached with stack depths ");
}

// (c) 3.11+ count what each instruction pops, so a binary operator on one
// value is caught where it runs (≤3.10 count net effects as compile.c does: the
// same code fails at the RETURN_VALUE after it).
TEST_P(BadTableInput, OperatorUnderflow) {
  Assembler a(GetParam());
  a.op("LOAD_CONST", 0);
  a.op("BINARY_OP", 0);
  a.op("RETURN_VALUE");
  const std::uint32_t at = offset_of(a, 1);
  expect_error(graph_error(a), at, "stack underflow: BINARY_OP at " + std::to_string(at) +
                                       " needs 2 values on the stack, which holds 1");
}

// (a) 3.11+: JUMP_FORWARD onto the first inline cache of LOAD_GLOBAL.
TEST_P(BadTableInput, JumpOntoACacheEntry) {
  Assembler a(GetParam());
  a.op("JUMP_FORWARD", 1);  // from 2 to 4, LOAD_GLOBAL's first CACHE
  a.op("LOAD_GLOBAL", 0);
  a.op("RETURN_VALUE");
  expect_error(graph_error(a), 0, "target 4 is a CACHE entry of LOAD_GLOBAL");
}

INSTANTIATE_TEST_SUITE_P(Versions, BadTableInput, ::testing::Values(11, 12, 13, 14),
                         [](const auto& info) { return "py3" + std::to_string(info.param); });

}  // namespace
}  // namespace unveil
