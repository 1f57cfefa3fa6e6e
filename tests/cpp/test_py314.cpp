// CPython 3.14 end to end on hand-assembled fixtures: .pyc header → marshal v5
// → decode → argument resolution, line and exception tables.
//
// The fixtures come from tools/make_py314_fixtures.py (see
// tests/fixtures/py314/README.md for the source each one stands for).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "decode/argument.h"
#include "decode/decode.h"
#include "fixtures.h"
#include "read/pyc.h"
#include "support/error.h"

namespace unveil {
namespace {

std::vector<std::uint8_t> fixture_bytes(std::string_view name) {
  const std::string path = std::string(UNVEIL_FIXTURES_DIR "/py314/") + std::string(name) + ".pyc";
  return testing::read_fixture(path, " (run tools/make_py314_fixtures.py)");
}

PycFile load(std::string_view name) {
  const auto bytes = fixture_bytes(name);
  return read_pyc(bytes);
}

std::shared_ptr<const CodeObject> code_of(const ObjectRef& object) {
  if (!object) throw std::runtime_error("null object where a code object was expected");
  const auto* value = object->as<CodeValue>();
  if (!value) throw std::runtime_error(std::string("expected code, got ") + object->type_name());
  return value->code;
}

const VersionTraits& py314() {
  const VersionTraits* traits = find_version(14);
  if (!traits) throw std::runtime_error("3.14 is not a supported version");
  return *traits;
}

DecodedCode decode_314(std::shared_ptr<const CodeObject> code) { return decode(std::move(code), py314()); }

// consts[index] of `parent` as a code object, decoded.
DecodedCode nested(const CodeObject& parent, std::size_t index) {
  EXPECT_LT(index, parent.consts.size());
  return decode_314(code_of(parent.consts.at(index)));
}

std::string constant_text(const Object& object) {
  if (object.is<NoneValue>()) return "None";
  if (const auto* i = object.as<IntValue>()) return i->to_decimal();
  if (const auto* s = object.as<StrValue>()) return "'" + s->utf8 + "'";
  if (const auto* c = object.as<CodeValue>()) return "<code " + c->code->name + ">";
  if (const auto* s = object.as<SliceValue>()) {
    auto part = [](const ObjectRef& p) { return p ? constant_text(*p) : std::string("<null>"); };
    return "slice(" + part(s->start) + ", " + part(s->stop) + ", " + part(s->step) + ")";
  }
  return std::string("<") + object.type_name() + ">";
}

// One instruction the way `dis` would show it: "OPNAME arg (meaning)".
std::string render(const DecodedCode& code, const Instruction& ins) {
  std::string out(ins.name());
  if (!ins.info->has_arg()) return out;
  out += " " + std::to_string(ins.arg);
  const ResolvedArg r = resolve_argument(code, ins);
  switch (r.kind) {
    case ArgKind::Const:
      return out + " (" + (r.constant ? constant_text(*r.constant) : "<null>") + ")";
    case ArgKind::NameShift1:
      return out + " (" + std::string(r.text) + (r.number & 1 ? " + NULL" : "") + ")";
    case ArgKind::LocalPair:
      return out + " (" + std::string(r.text) + ", " + std::string(r.second) + ")";
    case ArgKind::Jump:
      return out + " (to " + std::to_string(r.number) + ")";
    case ArgKind::SmallInt:
      return out + " (" + std::to_string(r.number) + ")";
    case ArgKind::Plain:
      return out;
    default:
      return out + " (" + std::string(r.text) + ")";
  }
}

std::vector<std::string> listing(const DecodedCode& code) {
  std::vector<std::string> out;
  for (const auto& ins : code.instructions) out.push_back(render(code, ins));
  return out;
}

const Instruction& instruction_at(const DecodedCode& code, std::uint32_t offset) {
  const auto index = code.index_at(offset);
  if (!index) throw std::runtime_error("no instruction at offset " + std::to_string(offset));
  return code.instructions.at(*index);
}

// co_lines(): the line of the range holding byte `offset` (nullopt: no line).
std::optional<int> line_at(const DecodedCode& code, std::uint32_t offset) {
  for (const auto& range : code.lines)
    if (range.start <= offset && offset < range.end) return range.line;
  ADD_FAILURE() << "no line range covers offset " << offset;
  return std::nullopt;
}

// -- header -----------------------------------------------------------------

const std::vector<std::string> kTrivialModule = {
    "RESUME 0", "LOAD_SMALL_INT 7 (7)", "STORE_NAME 0 (x)", "LOAD_CONST 0 (None)", "RETURN_VALUE"};

TEST(Py314Header, TimestampBased) {
  const auto bytes = fixture_bytes("header_timestamp");
  const PycHeader header = read_pyc_header(bytes);
  EXPECT_EQ(header.magic, 3627);
  EXPECT_EQ(header.flags, 0u);
  EXPECT_FALSE(header.hash_based());
  EXPECT_EQ(header.mtime, 1700000000u);
  EXPECT_EQ(header.source_size, 6u);  // len("x = 7\n")
  ASSERT_NE(header.version, nullptr);
  EXPECT_EQ(header.version->minor, 14);
  EXPECT_EQ(header.version->marshal_version, 5);

  const PycFile pyc = read_pyc(bytes);
  const auto module = code_of(pyc.module);
  EXPECT_EQ(module->version_minor, 14);
  EXPECT_EQ(module->name, "<module>");
  EXPECT_EQ(module->filename, "header.py");
  EXPECT_EQ(listing(decode_314(module)), kTrivialModule);
}

TEST(Py314Header, HashBasedUnchecked) {
  const PycFile pyc = load("header_hash_unchecked");
  EXPECT_EQ(pyc.header.flags, 1u);
  EXPECT_TRUE(pyc.header.hash_based());
  EXPECT_FALSE(pyc.header.check_source());
  // Bytes 8..15 of the file, 64 82 52 ef b6 11 61 40, little-endian.
  EXPECT_EQ(pyc.header.source_hash, 0x406111b6ef528464ull);
  EXPECT_EQ(listing(decode_314(code_of(pyc.module))), kTrivialModule);
}

TEST(Py314Header, HashBasedChecked) {
  const PycFile pyc = load("header_hash_checked");
  EXPECT_EQ(pyc.header.flags, 3u);
  EXPECT_TRUE(pyc.header.hash_based());
  EXPECT_TRUE(pyc.header.check_source());
  EXPECT_EQ(pyc.header.source_hash, 0x406111b6ef528464ull);
  EXPECT_EQ(pyc.header.version, find_version(14));
}

TEST(Py314Header, TruncatedFilesThrowUnveilErrors) {
  const auto bytes = fixture_bytes("header_timestamp");
  for (std::size_t size : {std::size_t{0}, std::size_t{3}, std::size_t{15}, std::size_t{16},
                           std::size_t{40}, bytes.size() - 1}) {
    const std::vector<std::uint8_t> cut(bytes.begin(), bytes.begin() + size);
    EXPECT_THROW(read_pyc(cut), Error) << "size " << size;
  }
  auto wrong_magic = bytes;
  wrong_magic[0] = 0x2c;  // 3628: not a 3.14 magic
  try {
    read_pyc(wrong_magic);
    ADD_FAILURE() << "unknown magic accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Pyc);
  }
}

// -- marshal v5 slices --------------------------------------------------------

TEST(Py314Slice, ConstantSliceAndBackReference) {
  const PycFile pyc = load("slice_const");
  const auto module = code_of(pyc.module);
  ASSERT_EQ(module->consts.size(), 3u);
  const DecodedCode mod = decode_314(module);
  EXPECT_EQ(listing(mod), (std::vector<std::string>{
                              "RESUME 0", "LOAD_CONST 0 (<code f>)", "MAKE_FUNCTION",
                              "STORE_NAME 0 (f)", "LOAD_NAME 1 (x)",
                              "LOAD_CONST 1 (slice(1, 2, 3))", "BINARY_OP 26 ([])",
                              "STORE_NAME 2 (s)", "LOAD_CONST 2 (None)", "RETURN_VALUE"}));

  const auto* slice = module->consts[1]->as<SliceValue>();
  ASSERT_NE(slice, nullptr);
  ASSERT_TRUE(slice->start && slice->stop && slice->step);
  ASSERT_TRUE(slice->step->is<IntValue>());
  EXPECT_EQ(slice->start->as<IntValue>()->small, 1);
  EXPECT_EQ(slice->stop->as<IntValue>()->small, 2);
  EXPECT_EQ(slice->step->as<IntValue>()->small, 3);

  const DecodedCode f = nested(*module, 0);
  EXPECT_EQ(listing(f), (std::vector<std::string>{
                            "RESUME 0", "LOAD_FAST_BORROW 0 (x)", "LOAD_CONST 0 (slice(1, 2, 3))",
                            "BINARY_OP 26 ([])", "RETURN_VALUE"}));
  // The module's slice is marshal 'r' to the one written inside f.
  EXPECT_EQ(f.code->consts.at(0).get(), module->consts[1].get());

  // BINARY_OP has 5 cache units in 3.14.
  const Instruction& subscr = instruction_at(mod, 12);
  EXPECT_EQ(subscr.name(), "BINARY_OP");
  EXPECT_EQ(subscr.end_offset, 24u);
  EXPECT_EQ(instruction_at(mod, 24).name(), "STORE_NAME");
  EXPECT_EQ(line_at(mod, 0), 0);  // a module's RESUME is on line 0
  EXPECT_EQ(line_at(mod, 2), 1);
  EXPECT_EQ(line_at(mod, 12), 3);
  EXPECT_EQ(line_at(f, 6), 2);
}

// -- LOAD_SMALL_INT, LOAD_FAST_BORROW ----------------------------------------

TEST(Py314FastLocals, BorrowedLoadsAndSmallInts) {
  const auto module = code_of(load("fast_locals").module);
  const DecodedCode add = nested(*module, 0);
  EXPECT_EQ(listing(add), (std::vector<std::string>{
                              "RESUME 0", "LOAD_FAST_BORROW_LOAD_FAST_BORROW 1 (a, b)",
                              "BINARY_OP 0 (+)", "RETURN_VALUE"}));
  EXPECT_EQ(add.code->argcount, 2);
  EXPECT_TRUE(add.code->consts.empty());
  EXPECT_EQ(add.code->localsplusnames, (std::vector<std::string_view>{"a", "b"}));
  EXPECT_EQ(add.code->localspluskinds, (std::vector<std::uint8_t>{0x26, 0x26}));
  EXPECT_EQ(add.code->varnames, (std::vector<std::string_view>{"a", "b"}));

  const ResolvedArg pair = resolve_argument(add, add.instructions.at(1));
  EXPECT_EQ(pair.kind, ArgKind::LocalPair);
  EXPECT_EQ(pair.text, "a");
  EXPECT_EQ(pair.second, "b");

  const DecodedCode seven = nested(*module, 1);
  EXPECT_EQ(listing(seven),
            (std::vector<std::string>{"RESUME 0", "LOAD_SMALL_INT 7 (7)", "RETURN_VALUE"}));
  const ResolvedArg small = resolve_argument(seven, seven.instructions.at(1));
  EXPECT_EQ(small.kind, ArgKind::SmallInt);
  EXPECT_EQ(small.number, 7);
  EXPECT_EQ(seven.code->firstlineno, 4);
  EXPECT_EQ(line_at(seven, 2), 5);

  const DecodedCode inc = nested(*module, 2);
  EXPECT_EQ(listing(inc), (std::vector<std::string>{
                              "RESUME 0", "LOAD_FAST_BORROW 0 (a)", "LOAD_SMALL_INT 7 (7)",
                              "BINARY_OP 0 (+)", "RETURN_VALUE"}));
  EXPECT_EQ(resolve_argument(inc, inc.instructions.at(1)).kind, ArgKind::Local);
  EXPECT_EQ(line_at(inc, 4), 8);
}

// -- CALL_FUNCTION_EX ----------------------------------------------------------

TEST(Py314CallEx, NoOpargAndKwargsSlot) {
  const auto module = code_of(load("call_ex").module);
  const DecodedCode g = nested(*module, 0);
  EXPECT_EQ(listing(g), (std::vector<std::string>{
                            "RESUME 0", "LOAD_GLOBAL 1 (f + NULL)", "LOAD_FAST_BORROW 0 (args)",
                            "BUILD_MAP 0", "LOAD_FAST_BORROW 1 (kw)", "DICT_MERGE 1",
                            "CALL_FUNCTION_EX", "RETURN_VALUE"}));
  EXPECT_EQ(g.code->flags & (kCoVarargs | kCoVarkeywords), kCoVarargs | kCoVarkeywords);
  EXPECT_EQ(g.code->localspluskinds, (std::vector<std::uint8_t>{0x2a, 0x2c}));

  const Instruction& call = g.instructions.at(6);
  EXPECT_EQ(call.name(), "CALL_FUNCTION_EX");
  EXPECT_FALSE(call.info->has_arg());
  EXPECT_EQ(call.arg, 0u);
  EXPECT_EQ(call.offset, 20u);
  EXPECT_EQ(call.end_offset, 22u);  // no caches
  EXPECT_EQ(instruction_at(g, 2).end_offset, 12u);  // LOAD_GLOBAL: 4 caches

  const ResolvedArg global = resolve_argument(g, g.instructions.at(1));
  EXPECT_EQ(global.kind, ArgKind::NameShift1);
  EXPECT_EQ(global.text, "f");
  EXPECT_EQ(global.number, 1);

  const DecodedCode h = nested(*module, 1);
  EXPECT_EQ(listing(h), (std::vector<std::string>{
                            "RESUME 0", "LOAD_GLOBAL 1 (f + NULL)", "LOAD_FAST_BORROW 0 (args)",
                            "PUSH_NULL", "CALL_FUNCTION_EX", "RETURN_VALUE"}));
  EXPECT_EQ(h.code->firstlineno, 3);
  EXPECT_EQ(line_at(h, 16), 4);
}

// -- EXTENDED_ARG ---------------------------------------------------------------

TEST(Py314ExtendedArg, LongForwardJumpInNestedCode) {
  const auto module = code_of(load("extended_arg").module);
  const DecodedCode grow = nested(*module, 0);
  std::vector<std::string> expected = {
      "RESUME 0",          "LOAD_FAST_BORROW 0 (x)",
      "TO_BOOL",           "EXTENDED_ARG 1",
      "POP_JUMP_IF_FALSE 271 (to 560)", "NOT_TAKEN"};
  for (int i = 0; i < 30; ++i)
    expected.insert(expected.end(), {"LOAD_FAST_BORROW 0 (x)", "LOAD_SMALL_INT 1 (1)",
                                     "BINARY_OP 0 (+)", "STORE_FAST 0 (x)"});
  expected.insert(expected.end(), {"LOAD_FAST 0 (x)", "RETURN_VALUE"});
  EXPECT_EQ(listing(grow), expected);

  const Instruction& jump = grow.instructions.at(4);
  EXPECT_EQ(jump.offset, 14u);
  EXPECT_EQ(jump.start_offset, 12u);  // the EXTENDED_ARG prefix
  EXPECT_EQ(jump.end_offset, 18u);    // one cache unit
  ASSERT_TRUE(jump.jump_target.has_value());
  EXPECT_EQ(*jump.jump_target, 560u);
  EXPECT_EQ(instruction_at(grow, 560).name(), "LOAD_FAST");

  EXPECT_EQ(line_at(grow, 0), 1);
  EXPECT_EQ(line_at(grow, 14), 2);
  EXPECT_EQ(line_at(grow, 20), 3);
  EXPECT_EQ(line_at(grow, 560 - 2), 32);
  EXPECT_EQ(line_at(grow, 560), 33);
  ASSERT_EQ(grow.positions.size(), grow.code->code.size() / 2);
  const Position& at_jump = grow.positions[14 / 2];
  EXPECT_EQ(at_jump.line, 2);
  EXPECT_EQ(at_jump.column, 7);
  EXPECT_EQ(at_jump.end_column, 8);
}

// -- exception and location tables ---------------------------------------------

TEST(Py314TryExcept, ExceptionTableAndLocations) {
  const DecodedCode mod = decode_314(code_of(load("try_except").module));
  EXPECT_EQ(listing(mod), (std::vector<std::string>{
                              "RESUME 0",
                              "NOP",
                              "LOAD_NAME 0 (f)",
                              "PUSH_NULL",
                              "CALL 0",
                              "STORE_NAME 1 (x)",
                              "LOAD_CONST 0 (None)",
                              "RETURN_VALUE",
                              "PUSH_EXC_INFO",
                              "LOAD_NAME 2 (ValueError)",
                              "CHECK_EXC_MATCH",
                              "POP_JUMP_IF_FALSE 7 (to 46)",
                              "NOT_TAKEN",
                              "POP_TOP",
                              "LOAD_CONST 0 (None)",
                              "STORE_NAME 1 (x)",
                              "POP_EXCEPT",
                              "LOAD_CONST 0 (None)",
                              "RETURN_VALUE",
                              "RERAISE 0",
                              "COPY 3",
                              "POP_EXCEPT",
                              "RERAISE 1"}));

  // dis: "L1 to L2 -> L3 [0]", "L3 to L4 -> L6 [1] lasti", "L5 to L6 -> L6 [1] lasti".
  ASSERT_EQ(mod.exception_table.size(), 3u);
  struct Row {
    std::uint32_t start, end, target, depth;
    bool lasti;
  };
  const Row rows[] = {{4, 16, 22, 0, false}, {22, 38, 48, 1, true}, {46, 46, 48, 1, true}};
  for (std::size_t i = 0; i < 3; ++i) {
    const ExceptionTableEntry& e = mod.exception_table[i];
    EXPECT_EQ(e.start, rows[i].start) << "entry " << i;
    EXPECT_EQ(e.end, rows[i].end) << "entry " << i;
    EXPECT_EQ(e.target, rows[i].target) << "entry " << i;
    EXPECT_EQ(e.depth, rows[i].depth) << "entry " << i;
    EXPECT_EQ(e.lasti, rows[i].lasti) << "entry " << i;
  }
  EXPECT_EQ(instruction_at(mod, 22).name(), "PUSH_EXC_INFO");
  EXPECT_EQ(instruction_at(mod, 48).name(), "COPY");

  EXPECT_EQ(line_at(mod, 0), 0);
  EXPECT_EQ(line_at(mod, 2), 1);
  EXPECT_EQ(line_at(mod, 4), 2);
  EXPECT_EQ(line_at(mod, 22), std::nullopt);  // PUSH_EXC_INFO has no location
  EXPECT_EQ(line_at(mod, 24), 3);
  EXPECT_EQ(line_at(mod, 36), 4);
  EXPECT_EQ(line_at(mod, 46), 3);              // RERAISE 0 belongs to the except clause
  EXPECT_EQ(line_at(mod, 48), std::nullopt);

  ASSERT_EQ(mod.positions.size(), mod.code->code.size() / 2);
  const Position& resume = mod.positions[0];
  EXPECT_EQ(resume.line, 0);
  EXPECT_EQ(resume.end_line, 1);
  const Position& handler_name = mod.positions[24 / 2];  // ValueError
  EXPECT_EQ(handler_name.line, 3);
  EXPECT_EQ(handler_name.end_line, 3);
  EXPECT_EQ(handler_name.column, 7);
  EXPECT_EQ(handler_name.end_column, 17);
  const Position& clause = mod.positions[26 / 2];  // CHECK_EXC_MATCH spans lines 3-4
  EXPECT_EQ(clause.line, 3);
  EXPECT_EQ(clause.end_line, 4);
  EXPECT_EQ(clause.column, 0);
  EXPECT_EQ(clause.end_column, 12);
  EXPECT_FALSE(mod.positions[22 / 2].line.has_value());
  EXPECT_FALSE(mod.positions[22 / 2].column.has_value());
  // CALL's caches share its position.
  for (std::size_t unit = 4; unit < 8; ++unit) {
    EXPECT_EQ(mod.positions[unit].line, 2) << "unit " << unit;
    EXPECT_EQ(mod.positions[unit].column, 8) << "unit " << unit;
    EXPECT_EQ(mod.positions[unit].end_column, 11) << "unit " << unit;
  }
}

// -- every fixture, every code object ----------------------------------------

void decode_all(const std::shared_ptr<const CodeObject>& code, int& count) {
  const DecodedCode decoded = decode_314(code);
  ++count;
  for (const auto& ins : decoded.instructions) {
    EXPECT_NO_THROW(resolve_argument(decoded, ins)) << code->qualname << " @" << ins.offset;
  }
  for (const auto& constant : code->consts)
    if (const auto* nested_code = constant->as<CodeValue>()) decode_all(nested_code->code, count);
}

TEST(Py314AllFixtures, DecodeAndResolveEverything) {
  int count = 0;
  for (const char* name : {"header_timestamp", "header_hash_unchecked", "header_hash_checked",
                           "slice_const", "fast_locals", "call_ex", "extended_arg",
                           "try_except"}) {
    SCOPED_TRACE(name);
    decode_all(code_of(load(name).module), count);
  }
  EXPECT_EQ(count, 3 + 2 + 4 + 3 + 2 + 1);
}

}  // namespace
}  // namespace unveil
