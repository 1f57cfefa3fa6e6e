// Stack effects of the 3.8-3.10 opcodes, as compile.c's stack_effect() counts
// them (dis.stack_effect). Only needed where handlers come from SETUP_*
// instructions: the depth a handler starts from is the depth at its SETUP.
// The compiler's numbers, not the interpreter's, are used on purpose: they are
// balanced at every merge (3.8 counts BEGIN_FINALLY's single NULL as 6 so that
// the finally body starts at one depth whether entered normally or by an
// exception), so a forward dataflow with them finds one depth per block.
// tests/cpp/test_cfg.cpp checks every entry against dis.stack_effect of each
// interpreter (tests/fixtures/cfg/stack_effects_3X.txt).
#include <algorithm>
#include <array>
#include <bit>
#include <unordered_map>

#include "cfg/flow.h"

namespace unveil::cfg {
namespace {

enum class Rule : std::uint8_t {
  Fixed,        // `nojump` / `jump`
  Linear,       // nojump + jump * oparg (`jump` holds the factor)
  UnpackEx,     // (oparg & 0xff) + (oparg >> 8)
  BuildSlice,   // -2 for three operands, else -1
  MakeFunction, // -1 - one per flag bit 0-3 (defaults, kwdefaults, annotations, closure)
  CallEx,       // -1 - (oparg & 1) (a keyword dict)
  FormatValue,  // -1 with a format spec (bit 2), else 0
};

struct Effect {
  std::string_view name;
  Rule rule;
  std::int8_t nojump = 0;
  std::int8_t jump = 0;
};

constexpr Effect fixed(std::string_view name, int both) {
  return {name, Rule::Fixed, static_cast<std::int8_t>(both), static_cast<std::int8_t>(both)};
}
constexpr Effect fixed2(std::string_view name, int nojump, int jump) {
  return {name, Rule::Fixed, static_cast<std::int8_t>(nojump), static_cast<std::int8_t>(jump)};
}
constexpr Effect linear(std::string_view name, int base, int factor) {
  return {name, Rule::Linear, static_cast<std::int8_t>(base), static_cast<std::int8_t>(factor)};
}
constexpr Effect special(std::string_view name, Rule rule) { return {name, rule, 0, 0}; }

constexpr auto kEffects = std::to_array<Effect>({
    // Operators.
    fixed("UNARY_POSITIVE", 0), fixed("UNARY_NEGATIVE", 0), fixed("UNARY_NOT", 0),
    fixed("UNARY_INVERT", 0),
    fixed("BINARY_POWER", -1), fixed("BINARY_MULTIPLY", -1), fixed("BINARY_MATRIX_MULTIPLY", -1),
    fixed("BINARY_MODULO", -1), fixed("BINARY_ADD", -1), fixed("BINARY_SUBTRACT", -1),
    fixed("BINARY_SUBSCR", -1), fixed("BINARY_FLOOR_DIVIDE", -1),
    fixed("BINARY_TRUE_DIVIDE", -1), fixed("BINARY_LSHIFT", -1), fixed("BINARY_RSHIFT", -1),
    fixed("BINARY_AND", -1), fixed("BINARY_XOR", -1), fixed("BINARY_OR", -1),
    fixed("INPLACE_POWER", -1), fixed("INPLACE_MULTIPLY", -1),
    fixed("INPLACE_MATRIX_MULTIPLY", -1), fixed("INPLACE_MODULO", -1), fixed("INPLACE_ADD", -1),
    fixed("INPLACE_SUBTRACT", -1), fixed("INPLACE_FLOOR_DIVIDE", -1),
    fixed("INPLACE_TRUE_DIVIDE", -1), fixed("INPLACE_LSHIFT", -1), fixed("INPLACE_RSHIFT", -1),
    fixed("INPLACE_AND", -1), fixed("INPLACE_XOR", -1), fixed("INPLACE_OR", -1),
    fixed("COMPARE_OP", -1), fixed("IS_OP", -1), fixed("CONTAINS_OP", -1),

    // Stack shuffling.
    fixed("NOP", 0), fixed("EXTENDED_ARG", 0), fixed("POP_TOP", -1), fixed("ROT_TWO", 0),
    fixed("ROT_THREE", 0), fixed("ROT_FOUR", 0), fixed("ROT_N", 0), fixed("DUP_TOP", 1),
    fixed("DUP_TOP_TWO", 2),

    // Loads, stores, deletes.
    fixed("LOAD_CONST", 1), fixed("LOAD_NAME", 1), fixed("LOAD_GLOBAL", 1), fixed("LOAD_FAST", 1),
    fixed("LOAD_DEREF", 1), fixed("LOAD_CLASSDEREF", 1), fixed("LOAD_CLOSURE", 1),
    fixed("LOAD_ATTR", 0), fixed("LOAD_METHOD", 1), fixed("LOAD_BUILD_CLASS", 1),
    fixed("LOAD_ASSERTION_ERROR", 1),
    fixed("STORE_NAME", -1), fixed("STORE_GLOBAL", -1), fixed("STORE_FAST", -1),
    fixed("STORE_DEREF", -1), fixed("STORE_ATTR", -2), fixed("STORE_SUBSCR", -3),
    fixed("DELETE_NAME", 0), fixed("DELETE_GLOBAL", 0), fixed("DELETE_FAST", 0),
    fixed("DELETE_DEREF", 0), fixed("DELETE_ATTR", -1), fixed("DELETE_SUBSCR", -2),
    fixed("IMPORT_NAME", -1), fixed("IMPORT_FROM", 1), fixed("IMPORT_STAR", -1),
    fixed("SETUP_ANNOTATIONS", 0), fixed("PRINT_EXPR", -1),

    // Building containers and calling.
    linear("BUILD_TUPLE", 1, -1), linear("BUILD_LIST", 1, -1), linear("BUILD_SET", 1, -1),
    linear("BUILD_STRING", 1, -1), linear("BUILD_MAP", 1, -2), linear("BUILD_CONST_KEY_MAP", 0, -1),
    linear("BUILD_TUPLE_UNPACK", 1, -1), linear("BUILD_TUPLE_UNPACK_WITH_CALL", 1, -1),
    linear("BUILD_LIST_UNPACK", 1, -1), linear("BUILD_SET_UNPACK", 1, -1),
    linear("BUILD_MAP_UNPACK", 1, -1), linear("BUILD_MAP_UNPACK_WITH_CALL", 1, -1),
    special("BUILD_SLICE", Rule::BuildSlice),
    fixed("LIST_APPEND", -1), fixed("SET_ADD", -1), fixed("MAP_ADD", -2),
    fixed("LIST_EXTEND", -1), fixed("SET_UPDATE", -1), fixed("DICT_UPDATE", -1),
    fixed("DICT_MERGE", -1), fixed("LIST_TO_TUPLE", 0),
    linear("UNPACK_SEQUENCE", -1, 1), special("UNPACK_EX", Rule::UnpackEx),
    linear("CALL_FUNCTION", 0, -1), linear("CALL_FUNCTION_KW", -1, -1),
    linear("CALL_METHOD", -1, -1), special("CALL_FUNCTION_EX", Rule::CallEx),
    special("MAKE_FUNCTION", Rule::MakeFunction), special("FORMAT_VALUE", Rule::FormatValue),

    // Iteration, generators, coroutines.
    fixed("GET_ITER", 0), fixed2("FOR_ITER", 1, -1), fixed("GET_YIELD_FROM_ITER", 0),
    fixed("YIELD_VALUE", 0), fixed("YIELD_FROM", -1), fixed("GET_AWAITABLE", 0),
    fixed("GET_AITER", 0), fixed("GET_ANEXT", 1), fixed("BEFORE_ASYNC_WITH", 1),
    fixed("END_ASYNC_FOR", -7), fixed("GEN_START", -1),

    // Jumps.
    fixed("JUMP_FORWARD", 0), fixed("JUMP_ABSOLUTE", 0), fixed("POP_JUMP_IF_FALSE", -1),
    fixed("POP_JUMP_IF_TRUE", -1), fixed2("JUMP_IF_FALSE_OR_POP", -1, 0),
    fixed2("JUMP_IF_TRUE_OR_POP", -1, 0), fixed("JUMP_IF_NOT_EXC_MATCH", -2),
    fixed("RETURN_VALUE", -1), linear("RAISE_VARARGS", 0, -1), fixed("RERAISE", -3),

    // Exceptions. On the jump edge a SETUP_* pushes what ceval pushes on entering
    // its handler, from the depth at the SETUP (one less for SETUP_ASYNC_WITH,
    // whose __aenter__ result is not under the handler).
    fixed2("SETUP_FINALLY", 0, 6), fixed2("SETUP_WITH", 1, 6), fixed2("SETUP_ASYNC_WITH", 0, 5),
    fixed("POP_BLOCK", 0), fixed("POP_EXCEPT", -3), fixed("WITH_EXCEPT_START", 1),
    fixed("BEGIN_FINALLY", 6), fixed2("CALL_FINALLY", 0, 1), fixed("POP_FINALLY", -6),
    fixed("END_FINALLY", -6), fixed("WITH_CLEANUP_START", 2), fixed("WITH_CLEANUP_FINISH", -3),

    // Pattern matching (3.10).
    fixed("GET_LEN", 1), fixed("MATCH_MAPPING", 1), fixed("MATCH_SEQUENCE", 1),
    fixed("MATCH_KEYS", 2), fixed("MATCH_CLASS", -1), fixed("COPY_DICT_WITHOUT_KEYS", 0),
});

constexpr bool effect_names_unique() {
  for (std::size_t i = 0; i < kEffects.size(); ++i)
    for (std::size_t j = i + 1; j < kEffects.size(); ++j)
      if (kEffects[i].name == kEffects[j].name) return false;
  return true;
}
static_assert(effect_names_unique(), "an opname is listed twice in the stack effect table");

}  // namespace

std::optional<std::int64_t> block_stack_effect(std::string_view opname, std::uint32_t oparg,
                                               bool jump) {
  // Built once (thread-safe static initialisation); lookups are per instruction.
  static const auto index = [] {
    std::unordered_map<std::string_view, const Effect*> map;
    for (const Effect& e : kEffects) map.emplace(e.name, &e);
    return map;
  }();
  auto found = index.find(opname);
  if (found == index.end()) return std::nullopt;
  const Effect* it = found->second;
  const std::int64_t arg = oparg;
  switch (it->rule) {
    case Rule::Fixed: return jump ? it->jump : it->nojump;
    case Rule::Linear: return it->nojump + std::int64_t{it->jump} * arg;
    case Rule::UnpackEx: return (arg & 0xff) + (arg >> 8);
    case Rule::BuildSlice: return arg == 3 ? -2 : -1;
    case Rule::MakeFunction: return -1 - std::popcount(oparg & 0xfu);
    case Rule::CallEx: return -1 - std::int64_t{oparg & 1u};
    case Rule::FormatValue: return (oparg & 4u) ? -1 : 0;
  }
  return std::nullopt;
}

}  // namespace unveil::cfg
