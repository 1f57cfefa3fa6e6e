// Decoding hand-built code objects: EXTENDED_ARG, caches, jumps, errors, and
// the resolution of every argument kind.
#include <gtest/gtest.h>

#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>

#include "decode/argument.h"
#include "decode/decode.h"
#include "support/error.h"
#include "versions.h"

namespace unveil {
namespace {

using testing::opcode_of;
using testing::version;

struct Op {
  std::string_view name;
  std::uint8_t arg = 0;
};

// One code unit per op, followed by the op's zeroed CACHE units.
std::string assemble(const VersionTraits& traits, std::initializer_list<Op> ops) {
  std::string out;
  for (const Op& op : ops) {
    const std::uint8_t opcode = opcode_of(traits, op.name);
    out.push_back(static_cast<char>(opcode));
    out.push_back(static_cast<char>(op.arg));
    out.append(2 * std::size_t{traits.opcodes[opcode].caches}, '\0');
  }
  return out;
}

std::shared_ptr<CodeObject> make_code(int minor, std::string bytes) {
  auto code = std::make_shared<CodeObject>();
  code->version_minor = minor;
  code->code = std::move(bytes);
  code->name = code->qualname = "f";
  code->filename = "<test>";
  code->firstlineno = 1;
  return code;
}

DecodedCode decode_ops(int minor, std::initializer_list<Op> ops) {
  return decode(make_code(minor, assemble(version(minor), ops)), version(minor));
}

// Decodes and returns the Error it must raise.
Error decode_error(int minor, std::string bytes) {
  try {
    decode(make_code(minor, std::move(bytes)), version(minor));
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error for 3." << minor;
  return Error(ErrorKind::Unsupported, "none");
}

Error decode_error(int minor, std::initializer_list<Op> ops) {
  return decode_error(minor, assemble(version(minor), ops));
}

// ---------------------------------------------------------------------------

TEST(Decode, SimpleStream) {
  DecodedCode d = decode_ops(8, {{"LOAD_CONST", 0}, {"RETURN_VALUE"}});
  ASSERT_EQ(d.instructions.size(), 2u);
  EXPECT_EQ(d.traits, &version(8));
  EXPECT_EQ(d.code->name, "f");
  const Instruction& load = d.instructions[0];
  EXPECT_EQ(load.name(), "LOAD_CONST");
  EXPECT_EQ(load.offset, 0u);
  EXPECT_EQ(load.start_offset, 0u);
  EXPECT_EQ(load.end_offset, 2u);
  EXPECT_EQ(load.arg, 0u);
  EXPECT_FALSE(load.jump_target);
  EXPECT_EQ(d.instructions[1].name(), "RETURN_VALUE");
  EXPECT_EQ(d.instructions[1].offset, 2u);
  EXPECT_EQ(d.instructions[1].end_offset, 4u);
  EXPECT_TRUE(d.exception_table.empty());
  EXPECT_TRUE(d.positions.empty());
}

TEST(Decode, EmptyCode) {
  for (int minor = 8; minor <= 14; ++minor) {
    DecodedCode d = decode(make_code(minor, ""), version(minor));
    EXPECT_TRUE(d.instructions.empty());
    EXPECT_FALSE(d.index_at(0));
  }
}

TEST(Decode, OneExtendedArg) {
  DecodedCode d = decode_ops(10, {{"NOP"}, {"EXTENDED_ARG", 1}, {"LOAD_CONST", 2}});
  ASSERT_EQ(d.instructions.size(), 3u);
  const Instruction& ext = d.instructions[1];
  EXPECT_EQ(ext.name(), "EXTENDED_ARG");
  EXPECT_EQ(ext.arg, 1u);
  EXPECT_EQ(ext.offset, 2u);
  EXPECT_EQ(ext.start_offset, 2u);
  const Instruction& load = d.instructions[2];
  EXPECT_EQ(load.arg, 0x102u);
  EXPECT_EQ(load.offset, 4u);
  EXPECT_EQ(load.start_offset, 2u);
  EXPECT_EQ(load.end_offset, 6u);
}

TEST(Decode, TwoAndThreeExtendedArgs) {
  DecodedCode two = decode_ops(12, {{"EXTENDED_ARG", 1}, {"EXTENDED_ARG", 2}, {"LOAD_CONST", 3}});
  ASSERT_EQ(two.instructions.size(), 3u);
  EXPECT_EQ(two.instructions[0].arg, 1u);
  EXPECT_EQ(two.instructions[1].arg, 0x102u);  // dis shows the partial value
  EXPECT_EQ(two.instructions[1].start_offset, 2u);
  EXPECT_EQ(two.instructions[2].arg, 0x10203u);
  EXPECT_EQ(two.instructions[2].start_offset, 0u);

  // 3.13 renumbered EXTENDED_ARG to 71: the table, not a constant, must drive this.
  DecodedCode three = decode_ops(
      13, {{"EXTENDED_ARG", 0x81}, {"EXTENDED_ARG", 2}, {"EXTENDED_ARG", 3}, {"LOAD_CONST", 4}});
  ASSERT_EQ(three.instructions.size(), 4u);
  EXPECT_EQ(three.instructions[3].arg, 0x81020304u);
  EXPECT_EQ(three.instructions[3].offset, 6u);
  EXPECT_EQ(three.instructions[3].start_offset, 0u);
}

TEST(Decode, ExtendedArgIsNotCarriedPastAnInstruction) {
  DecodedCode d = decode_ops(9, {{"EXTENDED_ARG", 1}, {"NOP"}, {"LOAD_CONST", 2}});
  ASSERT_EQ(d.instructions.size(), 3u);
  EXPECT_EQ(d.instructions[2].arg, 2u);
  EXPECT_EQ(d.instructions[2].start_offset, 4u);
}

TEST(Decode, FourExtendedArgsAreAnError) {
  Error e = decode_error(11, {{"EXTENDED_ARG", 1},
                              {"EXTENDED_ARG", 2},
                              {"EXTENDED_ARG", 3},
                              {"EXTENDED_ARG", 4},
                              {"LOAD_CONST", 5}});
  EXPECT_EQ(e.kind(), ErrorKind::Decode);
  EXPECT_EQ(e.offset(), 6u);
  EXPECT_NE(e.detail().find("more than 3 EXTENDED_ARG"), std::string::npos) << e.what();
}

TEST(Decode, ExtendedArgAtTheEnd) {
  Error e = decode_error(8, {{"LOAD_CONST", 0}, {"EXTENDED_ARG", 1}});
  EXPECT_EQ(e.kind(), ErrorKind::Decode);
  EXPECT_EQ(e.offset(), 2u);
  EXPECT_NE(e.detail().find("EXTENDED_ARG at the end"), std::string::npos) << e.what();
}

TEST(Decode, OddLength) {
  Error e = decode_error(12, std::string("\x64\x00\x53", 3));
  EXPECT_EQ(e.kind(), ErrorKind::Decode);
  EXPECT_EQ(e.offset(), 2u);
  EXPECT_NE(e.detail().find("odd length 3"), std::string::npos) << e.what();
}

TEST(Decode, UnknownOpcodes) {
  Error e = decode_error(12, assemble(version(12), {{"NOP"}}) + std::string("\xe7\x00", 2));
  EXPECT_EQ(e.kind(), ErrorKind::Decode);
  EXPECT_EQ(e.detail(), "unknown opcode 231 for Python 3.12");
  EXPECT_EQ(e.offset(), 2u);
  // Opcode 0 does not exist before 3.11; instrumented and specialized ones never.
  EXPECT_EQ(decode_error(8, std::string("\x00\x00", 2)).detail(),
            "unknown opcode 0 for Python 3.8");
  EXPECT_EQ(decode_error(12, std::string("\xed\x00", 2)).detail(),
            "unknown opcode 237 for Python 3.12");
  EXPECT_EQ(decode_error(14, std::string("\xff\x00", 2)).detail(),
            "unknown opcode 255 for Python 3.14");
}

TEST(Decode, CachesAreSkipped) {
  // 3.11: LOAD_GLOBAL has 5 caches; 3.12: 4; LOAD_ATTR 4 then 9.
  DecodedCode d11 = decode_ops(11, {{"LOAD_GLOBAL", 1}, {"LOAD_ATTR", 0}, {"RETURN_VALUE"}});
  ASSERT_EQ(d11.instructions.size(), 3u);
  EXPECT_EQ(d11.instructions[0].end_offset, 12u);
  EXPECT_EQ(d11.instructions[1].offset, 12u);
  EXPECT_EQ(d11.instructions[1].end_offset, 22u);
  EXPECT_EQ(d11.instructions[2].offset, 22u);

  DecodedCode d12 = decode_ops(12, {{"LOAD_GLOBAL", 1}, {"LOAD_ATTR", 0}, {"RETURN_VALUE"}});
  ASSERT_EQ(d12.instructions.size(), 3u);
  EXPECT_EQ(d12.instructions[1].offset, 10u);
  EXPECT_EQ(d12.instructions[1].end_offset, 30u);
  EXPECT_EQ(d12.instructions[2].offset, 30u);
}

TEST(Decode, CacheUnitsAreNotInterpreted) {
  // Non-zero cache contents (as in _co_code_adaptive) are still skipped.
  std::string bytes = assemble(version(13), {{"TO_BOOL"}, {"RETURN_VALUE"}});
  bytes[2] = '\x5a';
  bytes[4] = '\xff';
  DecodedCode d = decode(make_code(13, bytes), version(13));
  ASSERT_EQ(d.instructions.size(), 2u);
  EXPECT_EQ(d.instructions[1].offset, 8u);
}

TEST(Decode, TruncatedCacheRun) {
  std::string bytes = assemble(version(12), {{"NOP"}, {"LOAD_ATTR", 0}});
  bytes.resize(bytes.size() - 12);  // keep 3 of LOAD_ATTR's 9 caches
  Error e = decode_error(12, bytes);
  EXPECT_EQ(e.kind(), ErrorKind::Decode);
  EXPECT_EQ(e.offset(), 2u);
  EXPECT_EQ(e.detail(), "LOAD_ATTR at 2 needs 9 CACHE entries but the code ends after 3");
}

TEST(Decode, JumpsInBytes38And39) {
  // 3.8: JUMP_ABSOLUTE arg is a byte offset; relative jumps count from the next instruction.
  DecodedCode d = decode_ops(8, {{"JUMP_FORWARD", 2}, {"NOP"}, {"JUMP_ABSOLUTE", 2}});
  EXPECT_EQ(d.instructions[0].jump_target, 4u);
  EXPECT_EQ(d.instructions[2].jump_target, 2u);
  DecodedCode d9 = decode_ops(9, {{"NOP"}, {"FOR_ITER", 4}, {"NOP"}, {"NOP"}, {"RETURN_VALUE"}});
  EXPECT_EQ(d9.instructions[1].jump_target, 8u);
}

TEST(Decode, JumpsInCodeUnits310) {
  DecodedCode d = decode_ops(
      10, {{"JUMP_FORWARD", 1}, {"NOP"}, {"POP_JUMP_IF_FALSE", 1}, {"JUMP_ABSOLUTE", 0}});
  EXPECT_EQ(d.instructions[0].jump_target, 4u);
  EXPECT_EQ(d.instructions[2].jump_target, 2u);
  EXPECT_EQ(d.instructions[3].jump_target, 0u);
  EXPECT_FALSE(d.instructions[1].jump_target);
}

TEST(Decode, BackwardJumps311) {
  DecodedCode d = decode_ops(
      11, {{"NOP"}, {"NOP"}, {"POP_JUMP_BACKWARD_IF_TRUE", 2}, {"JUMP_BACKWARD", 4},
           {"POP_JUMP_FORWARD_IF_FALSE", 0}, {"RETURN_VALUE"}});
  EXPECT_EQ(d.instructions[2].jump_target, 2u);   // 6 - 2*2
  EXPECT_EQ(d.instructions[3].jump_target, 0u);   // 8 - 4*2
  EXPECT_EQ(d.instructions[4].jump_target, 10u);  // 10 + 0
}

TEST(Decode, RelativeJumpsCountFromTheEndOfTheCaches) {
  // 3.12: FOR_ITER has one cache, JUMP_BACKWARD none.
  DecodedCode d12 = decode_ops(
      12, {{"FOR_ITER", 2}, {"STORE_FAST", 0}, {"JUMP_BACKWARD", 4}, {"END_FOR"}, {"RETURN_VALUE"}});
  EXPECT_EQ(d12.instructions[0].end_offset, 4u);
  EXPECT_EQ(d12.instructions[0].jump_target, 8u);  // end 4 + 2*2: END_FOR
  EXPECT_EQ(d12.instructions[2].offset, 6u);
  EXPECT_EQ(d12.instructions[2].jump_target, 0u);  // end 8 - 4*2: FOR_ITER
  // 3.13: JUMP_BACKWARD and POP_JUMP_IF_* have one cache each.
  DecodedCode d13 = decode_ops(
      13, {{"NOP"}, {"POP_JUMP_IF_FALSE", 2}, {"JUMP_BACKWARD", 4}, {"RETURN_VALUE"}});
  EXPECT_EQ(d13.instructions[1].offset, 2u);
  EXPECT_EQ(d13.instructions[1].jump_target, 10u);  // end 6 + 2*2
  EXPECT_EQ(d13.instructions[2].offset, 6u);
  EXPECT_EQ(d13.instructions[2].jump_target, 2u);   // end 10 - 4*2
  // 3.14: END_ASYNC_FOR jumps backward to the SEND.
  DecodedCode d14 = decode_ops(14, {{"SEND", 1}, {"NOP"}, {"END_ASYNC_FOR", 4}});
  EXPECT_EQ(d14.instructions[0].jump_target, 6u);  // end 4 + 1*2
  EXPECT_EQ(d14.instructions[2].jump_target, 0u);  // end 8 - 4*2: the SEND
}

TEST(Decode, ExtendedArgJumps) {
  // The relative base is the instruction that owns the oparg, not its prefix.
  std::string bytes = assemble(version(10), {{"EXTENDED_ARG", 1}, {"JUMP_FORWARD", 0}});
  bytes += std::string(512, '\x09');  // NOP; NOP is 9 in 3.10
  bytes += assemble(version(10), {{"RETURN_VALUE"}});
  DecodedCode d = decode(make_code(10, bytes), version(10));
  EXPECT_EQ(d.instructions[1].arg, 256u);
  EXPECT_EQ(d.instructions[1].jump_target, 4u + 512u);
  EXPECT_EQ(d.instructions.back().name(), "RETURN_VALUE");

  // A jump to an EXTENDED_ARG-prefixed instruction lands on its first prefix.
  DecodedCode t = decode_ops(
      10, {{"JUMP_ABSOLUTE", 1}, {"EXTENDED_ARG", 1}, {"LOAD_CONST", 0}, {"RETURN_VALUE"}});
  EXPECT_EQ(t.instructions[0].jump_target, 2u);
  Error past = decode_error(
      10, {{"JUMP_ABSOLUTE", 2}, {"EXTENDED_ARG", 1}, {"LOAD_CONST", 0}, {"RETURN_VALUE"}});
  EXPECT_EQ(past.kind(), ErrorKind::Decode);
  EXPECT_EQ(past.offset(), 0u);
  EXPECT_NE(past.detail().find("jump into the middle of an instruction"), std::string::npos)
      << past.what();
}

TEST(Decode, JumpOutsideTheCode) {
  std::string bytes = assemble(version(10), {{"JUMP_ABSOLUTE", 200}});
  bytes += std::string(118, '\x09');  // 120 bytes in all
  Error e = decode_error(10, bytes);
  EXPECT_EQ(e.kind(), ErrorKind::Decode);
  EXPECT_EQ(e.detail(), "jump target 400 outside the code (0..120)");
  EXPECT_EQ(e.offset(), 0u);
  // Just past the end, and before the start.
  EXPECT_EQ(decode_error(8, {{"NOP"}, {"JUMP_FORWARD", 0}}).detail(),
            "jump target 4 outside the code (0..4)");
  Error back = decode_error(12, {{"NOP"}, {"JUMP_BACKWARD", 3}});
  EXPECT_EQ(back.detail(), "jump target -2 outside the code (0..4)");
  EXPECT_EQ(back.offset(), 2u);
}

TEST(Decode, JumpIntoCaches) {
  // 3.12: LOAD_GLOBAL at 2 owns the CACHE units 4..10.
  Error e = decode_error(12, {{"JUMP_FORWARD", 0}, {"LOAD_GLOBAL", 0}, {"JUMP_BACKWARD", 4}});
  EXPECT_EQ(e.offset(), 12u);
  EXPECT_EQ(e.detail(),
            "jump into the middle of an instruction: target 6 is a CACHE entry of LOAD_GLOBAL at 2");
  Error c = decode_error(12, {{"JUMP_FORWARD", 1}, {"LOAD_GLOBAL", 0}, {"RETURN_VALUE"}});
  EXPECT_EQ(c.kind(), ErrorKind::Decode);
  EXPECT_EQ(c.offset(), 0u);
  EXPECT_EQ(c.detail(),
            "jump into the middle of an instruction: target 4 is a CACHE entry of LOAD_GLOBAL at 2");
  // 3.8/3.9 jump in bytes: an odd target splits an instruction.
  Error odd = decode_error(8, {{"JUMP_ABSOLUTE", 3}, {"NOP"}, {"NOP"}});
  EXPECT_NE(odd.detail().find("jump into the middle of an instruction"), std::string::npos)
      << odd.what();
}

TEST(Decode, ExceptionTable) {
  // One entry: units [0, 1) → handler at unit 2, depth 1, lasti.
  auto code = make_code(11, assemble(version(11), {{"NOP"}, {"RETURN_VALUE"}, {"PUSH_EXC_INFO"},
                                                   {"RERAISE", 0}}));
  code->exceptiontable = std::string("\x80\x01\x02\x03", 4);
  DecodedCode d = decode(code, version(11));
  ASSERT_EQ(d.exception_table.size(), 1u);
  EXPECT_EQ(d.exception_table[0].start, 0u);
  EXPECT_EQ(d.exception_table[0].end, 0u);
  EXPECT_EQ(d.exception_table[0].target, 4u);
  EXPECT_EQ(d.exception_table[0].depth, 1u);
  EXPECT_TRUE(d.exception_table[0].lasti);

  // A handler inside LOAD_GLOBAL's caches.
  auto bad = make_code(12, assemble(version(12), {{"LOAD_GLOBAL", 0}, {"RETURN_VALUE"}}));
  bad->exceptiontable = std::string("\x80\x01\x02\x00", 4);
  try {
    decode(bad, version(12));
    ADD_FAILURE() << "handler inside caches accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Decode);
    EXPECT_NE(e.detail().find("CACHE entry of LOAD_GLOBAL at 0"), std::string::npos) << e.what();
  }
  // Before 3.11 co_exceptiontable is not read at all.
  auto old = make_code(10, assemble(version(10), {{"NOP"}}));
  old->exceptiontable = "garbage";
  EXPECT_TRUE(decode(old, version(10)).exception_table.empty());
}

TEST(Decode, IndexAt) {
  DecodedCode d = decode_ops(12, {{"EXTENDED_ARG", 1}, {"LOAD_GLOBAL", 0}, {"RETURN_VALUE"}});
  ASSERT_EQ(d.instructions.size(), 3u);
  EXPECT_EQ(d.index_at(0), 0u);  // the prefix itself
  EXPECT_EQ(d.index_at(2), 1u);
  EXPECT_FALSE(d.index_at(4));   // a cache unit
  EXPECT_FALSE(d.index_at(3));
  EXPECT_EQ(d.index_at(12), 2u);
  EXPECT_FALSE(d.index_at(14));
}

TEST(Decode, PositionsForLocationTables) {
  DecodedCode d = decode_ops(12, {{"LOAD_GLOBAL", 0}, {"RETURN_VALUE"}});
  // co_positions() has one entry per code unit, caches included; none before 3.11.
  EXPECT_EQ(d.positions.size(), 6u);
  EXPECT_TRUE(decode_ops(10, {{"NOP"}}).positions.empty());
}

TEST(Decode, NullCode) {
  try {
    decode(nullptr, version(12));
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Decode);
  }
}

// ---------------------------------------------------------------------------
// resolve_argument

ResolvedArg resolve_at(const DecodedCode& d, std::size_t index) {
  return resolve_argument(d, d.instructions.at(index));
}

Error resolve_error(const DecodedCode& d, std::size_t index) {
  try {
    resolve_at(d, index);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error for instruction " << index;
  return Error(ErrorKind::Unsupported, "none");
}

DecodedCode with_tables(int minor, std::initializer_list<Op> ops,
                        void (*fill)(CodeObject&) = nullptr) {
  auto code = make_code(minor, assemble(version(minor), ops));
  for (int i = 0; i < 5; ++i) code->consts.push_back(make_object(IntValue{.small = i * 10, .digits = {}}));
  code->names = {"a", "b", "c"};
  if (fill) fill(*code);
  return decode(code, version(minor));
}

TEST(DecodeArgument, ConstsAndOutOfRange) {
  DecodedCode d = with_tables(8, {{"LOAD_CONST", 3}, {"LOAD_CONST", 12}, {"RETURN_VALUE"}});
  ResolvedArg c = resolve_at(d, 0);
  EXPECT_EQ(c.kind, ArgKind::Const);
  EXPECT_EQ(c.number, 3);
  ASSERT_TRUE(c.constant);
  EXPECT_EQ(c.constant.get(), d.code->consts[3].get());
  Error e = resolve_error(d, 1);
  EXPECT_EQ(e.kind(), ErrorKind::Decode);
  EXPECT_EQ(e.detail(), "LOAD_CONST 12 out of range of co_consts (5 entries)");
  EXPECT_EQ(e.offset(), 2u);
  EXPECT_EQ(resolve_at(d, 2).kind, ArgKind::None);
}

TEST(DecodeArgument, Names) {
  DecodedCode d10 = with_tables(10, {{"LOAD_GLOBAL", 2}, {"LOAD_ATTR", 1}});
  EXPECT_EQ(resolve_at(d10, 0).text, "c");
  EXPECT_EQ(resolve_at(d10, 1).text, "b");

  DecodedCode d11 = with_tables(11, {{"LOAD_GLOBAL", 3}, {"LOAD_ATTR", 2}, {"LOAD_GLOBAL", 6}});
  ResolvedArg global = resolve_at(d11, 0);
  EXPECT_EQ(global.kind, ArgKind::NameShift1);
  EXPECT_EQ(global.text, "b");
  EXPECT_EQ(global.number, 1);
  EXPECT_EQ(resolve_at(d11, 1).text, "c");  // LOAD_ATTR is not shifted in 3.11
  EXPECT_EQ(resolve_error(d11, 2).detail(),
            "LOAD_GLOBAL 3 (oparg 6) out of range of co_names (3 entries)");

  DecodedCode d12 = with_tables(12, {{"LOAD_ATTR", 4}, {"LOAD_SUPER_ATTR", 7}, {"STORE_ATTR", 2}});
  ResolvedArg attr = resolve_at(d12, 0);
  EXPECT_EQ(attr.text, "c");
  EXPECT_EQ(attr.number, 0);
  ResolvedArg super = resolve_at(d12, 1);
  EXPECT_EQ(super.kind, ArgKind::NameShift2);
  EXPECT_EQ(super.text, "b");
  EXPECT_EQ(super.number, 3);
  EXPECT_EQ(resolve_at(d12, 2).text, "c");
}

TEST(DecodeArgument, LocalsSplitLayout) {
  DecodedCode d = with_tables(
      10, {{"LOAD_FAST", 1}, {"LOAD_DEREF", 0}, {"LOAD_DEREF", 2}, {"LOAD_DEREF", 3},
           {"LOAD_FAST", 2}},
      [](CodeObject& c) {
        c.varnames = {"x", "y"};
        c.cellvars = {"cell0", "cell1"};
        c.freevars = {"free0"};
        c.localsplusnames = {"wrong", "wrong", "wrong", "wrong", "wrong"};
      });
  EXPECT_EQ(resolve_at(d, 0).text, "y");
  EXPECT_EQ(resolve_at(d, 0).kind, ArgKind::Local);
  EXPECT_EQ(resolve_at(d, 1).text, "cell0");
  EXPECT_EQ(resolve_at(d, 2).text, "free0");
  EXPECT_EQ(resolve_at(d, 2).kind, ArgKind::Free);
  EXPECT_EQ(resolve_error(d, 3).detail(),
            "LOAD_DEREF 3 out of range of co_cellvars + co_freevars (3 entries)");
  EXPECT_EQ(resolve_error(d, 4).detail(), "LOAD_FAST 2 out of range of co_varnames (2 entries)");
}

TEST(DecodeArgument, LocalsPlusLayout) {
  auto fill = [](CodeObject& c) {
    c.localsplusnames = {"x", "y", "cell", "free"};
    c.localspluskinds = {kLocalPlain, kLocalPlain, kLocalCell, kLocalFree};
    c.varnames = {"wrong"};
  };
  DecodedCode d11 = with_tables(11, {{"LOAD_FAST", 1}, {"LOAD_DEREF", 3}, {"MAKE_CELL", 2}}, fill);
  EXPECT_EQ(resolve_at(d11, 0).text, "y");
  EXPECT_EQ(resolve_at(d11, 1).text, "free");
  EXPECT_EQ(resolve_at(d11, 2).text, "cell");

  DecodedCode d13 = with_tables(
      13, {{"LOAD_FAST_LOAD_FAST", 0x13}, {"STORE_FAST_STORE_FAST", 0x20}, {"LOAD_FAST_LOAD_FAST", 0x14}},
      fill);
  ResolvedArg pair = resolve_at(d13, 0);
  EXPECT_EQ(pair.kind, ArgKind::LocalPair);
  EXPECT_EQ(pair.text, "y");
  EXPECT_EQ(pair.second, "free");
  EXPECT_EQ(resolve_at(d13, 1).text, "cell");
  EXPECT_EQ(resolve_at(d13, 1).second, "x");
  EXPECT_EQ(resolve_error(d13, 2).detail(),
            "LOAD_FAST_LOAD_FAST 4 (oparg 20) out of range of co_localsplusnames (4 entries)");

  DecodedCode d14 = with_tables(14, {{"LOAD_FAST_BORROW_LOAD_FAST_BORROW", 0x01}}, fill);
  EXPECT_EQ(resolve_at(d14, 0).text, "x");
  EXPECT_EQ(resolve_at(d14, 0).second, "y");
}

TEST(DecodeArgument, Comparisons) {
  DecodedCode d8 = with_tables(8, {{"COMPARE_OP", 10}, {"COMPARE_OP", 12}});
  EXPECT_EQ(resolve_at(d8, 0).text, "exception match");
  EXPECT_EQ(resolve_error(d8, 1).detail(), "COMPARE_OP 12 out of range of cmp_op (12 entries)");

  DecodedCode d11 = with_tables(11, {{"COMPARE_OP", 4}});
  EXPECT_EQ(resolve_at(d11, 0).text, ">");
  EXPECT_EQ(resolve_at(d11, 0).number, 0);

  DecodedCode d12 = with_tables(12, {{"COMPARE_OP", (4 << 4) | 4}, {"COMPARE_OP", 6 << 4}});
  EXPECT_EQ(resolve_at(d12, 0).text, ">");
  EXPECT_EQ(resolve_at(d12, 0).number, 4);
  EXPECT_NE(resolve_error(d12, 1).detail().find("out of range of cmp_op"), std::string::npos);

  DecodedCode d13 = with_tables(13, {{"COMPARE_OP", (2 << 5) | 16 | 8}});
  EXPECT_EQ(resolve_at(d13, 0).text, "==");
  EXPECT_EQ(resolve_at(d13, 0).number, 24);
}

TEST(DecodeArgument, Jumps) {
  DecodedCode d = with_tables(12, {{"NOP"}, {"JUMP_BACKWARD", 2}});
  ResolvedArg jump = resolve_at(d, 1);
  EXPECT_EQ(jump.kind, ArgKind::Jump);
  EXPECT_EQ(jump.number, 0);
}

TEST(DecodeArgument, OperatorTables) {
  DecodedCode d11 = with_tables(11, {{"BINARY_OP", 13}, {"BINARY_OP", 26}});
  EXPECT_EQ(resolve_at(d11, 0).kind, ArgKind::BinaryOp);
  EXPECT_EQ(resolve_at(d11, 0).text, "+=");
  EXPECT_EQ(resolve_at(d11, 0).number, 13);
  EXPECT_EQ(resolve_error(d11, 1).detail(),
            "BINARY_OP 26 out of range of the binary operators (26 entries)");
  DecodedCode d14 = with_tables(14, {{"BINARY_OP", 26}});
  EXPECT_EQ(resolve_at(d14, 0).text, "[]");

  DecodedCode d12 = with_tables(12, {{"CALL_INTRINSIC_1", 5}, {"CALL_INTRINSIC_2", 1},
                                     {"CALL_INTRINSIC_1", 40}});
  EXPECT_EQ(resolve_at(d12, 0).text, "INTRINSIC_UNARY_POSITIVE");
  EXPECT_EQ(resolve_at(d12, 1).text, "INTRINSIC_PREP_RERAISE_STAR");
  EXPECT_EQ(resolve_error(d12, 2).kind(), ErrorKind::Decode);
}

TEST(DecodeArgument, Formatting) {
  DecodedCode d12 = with_tables(12, {{"FORMAT_VALUE", 6}, {"FORMAT_VALUE", 0}, {"FORMAT_VALUE", 3}});
  ResolvedArg repr_spec = resolve_at(d12, 0);
  EXPECT_EQ(repr_spec.kind, ArgKind::FormatValue);
  EXPECT_EQ(repr_spec.text, "repr");
  EXPECT_TRUE(repr_spec.has_format_spec);
  EXPECT_EQ(resolve_at(d12, 1).text, "");
  EXPECT_FALSE(resolve_at(d12, 1).has_format_spec);
  EXPECT_EQ(resolve_at(d12, 2).text, "ascii");

  DecodedCode d13 = with_tables(13, {{"CONVERT_VALUE", 1}, {"CONVERT_VALUE", 4}});
  EXPECT_EQ(resolve_at(d13, 0).kind, ArgKind::ConvertValue);
  EXPECT_EQ(resolve_at(d13, 0).text, "str");
  EXPECT_EQ(resolve_error(d13, 1).kind(), ErrorKind::Decode);
}

TEST(DecodeArgument, Python314Kinds) {
  DecodedCode d = with_tables(14, {{"LOAD_SMALL_INT", 200},
                                   {"LOAD_COMMON_CONSTANT", 1},
                                   {"LOAD_SPECIAL", 1},
                                   {"LOAD_SPECIAL", 9},
                                   {"LOAD_COMMON_CONSTANT", 5},
                                   {"BUILD_TUPLE", 3}});
  ResolvedArg small = resolve_at(d, 0);
  EXPECT_EQ(small.kind, ArgKind::SmallInt);
  EXPECT_EQ(small.number, 200);
  EXPECT_EQ(resolve_at(d, 1).text, "NotImplementedError");
  EXPECT_EQ(resolve_at(d, 2).text, "__exit__");
  EXPECT_EQ(resolve_error(d, 3).detail(), "LOAD_SPECIAL 9 out of range of the special methods (4 entries)");
  EXPECT_EQ(resolve_error(d, 4).detail(),
            "LOAD_COMMON_CONSTANT 5 out of range of the common constants (5 entries)");
  ResolvedArg plain = resolve_at(d, 5);
  EXPECT_EQ(plain.kind, ArgKind::Plain);
  EXPECT_EQ(plain.number, 3);
}

}  // namespace
}  // namespace unveil
