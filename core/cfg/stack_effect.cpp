// Stack effects of every opcode, as CPython's compiler counts them.
//
// 3.8-3.10 (block_stack_effect): compile.c's stack_effect() (dis.stack_effect).
// Needed where handlers come from SETUP_* instructions: the depth a handler
// starts from is the depth at its SETUP. The compiler's numbers, not the
// interpreter's, are used on purpose: they are balanced at every merge (3.8
// counts BEGIN_FINALLY's single NULL as 6 so that the finally body starts at
// one depth whether entered normally or by an exception), so a forward
// dataflow with them finds one depth per block. tests/cpp/test_cfg.cpp checks
// every entry against dis.stack_effect of each interpreter
// (tests/fixtures/cfg/stack_effects_3X.txt).
//
// 3.11+ (table_stack_effect): values popped and pushed, as the generated
// metadata of Python/bytecodes.c counts them (3.12+; 3.11's compile.c), for the
// stack-depth check of stack_depth.cpp. `popped` includes what an instruction
// only peeks at (COPY n needs n values), so it also gives underflow. Net
// effects equal dis.stack_effect of each interpreter (checked by
// tests/cpp/test_cfg.cpp), except RETURN_GENERATOR on 3.11-3.12, whose dis
// says 0: the frame resumes with the sent value pushed, which the POP_TOP after
// it removes (3.13's metadata counts it as 1).
#include <algorithm>
#include <array>
#include <vector>

#include "cfg/flow.h"
#include "cfg/table_effect.h"

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

// Every name of the table is an opcode of some version, so that looking up by
// Op (per instruction: a table load) and by name find the same rows.
constexpr bool effect_names_are_ops() {
  for (const Effect& e : kEffects)
    if (op_named(e.name) == Op::Unknown) return false;
  return true;
}
static_assert(effect_names_are_ops(), "a stack effect row names no known opcode");

constinit const std::array<const Effect*, kOpCount> kEffectByOp = [] {
  std::array<const Effect*, kOpCount> table{};
  for (const Effect& e : kEffects) table[static_cast<std::size_t>(op_named(e.name))] = &e;
  return table;
}();


// --- 3.11+ -----------------------------------------------------------------

// The newest version the rows below were checked against. A new version must be
// reviewed row by row (the completeness test in test_cfg.cpp fails until it is).
constexpr int kNewestMinor = 14;

constexpr Count n(int base) { return {static_cast<std::int8_t>(base), 0, Term::None}; }
constexpr Count args(int per_arg, int base = 0) {
  return {static_cast<std::int8_t>(base), static_cast<std::int8_t>(per_arg), Term::None};
}
constexpr Count plus(Term term, int base) { return {static_cast<std::int8_t>(base), 0, term}; }

struct TableEffect {
  std::string_view name;
  Count popped, pushed;
  // Added to `pushed` on the jump edge (3.11's FOR_ITER, SEND and
  // JUMP_IF_*_OR_POP leave a different stack when they jump).
  std::int8_t jump_extra = 0;
  // The versions (3.<first>..3.<last>) the row describes: an opname whose
  // effect changed has one row per meaning.
  std::uint8_t first = 11, last = kNewestMinor;
};

constexpr TableEffect te(std::string_view name, Count popped, Count pushed) {
  return {name, popped, pushed};
}
constexpr TableEffect te_in(std::string_view name, int first, int last, Count popped, Count pushed,
                            int jump_extra = 0) {
  return {name, popped, pushed, static_cast<std::int8_t>(jump_extra),
          static_cast<std::uint8_t>(first), static_cast<std::uint8_t>(last)};
}

constexpr auto kTableEffects = std::to_array<TableEffect>({
    // Nothing moves (pseudo-ops JUMP* are listed so that hand-assembled code using
    // their numbers is understood, as in the flow table).
    te("NOP", n(0), n(0)), te("RESUME", n(0), n(0)), te("EXTENDED_ARG", n(0), n(0)),
    te("CACHE", n(0), n(0)), te("RESERVED", n(0), n(0)), te("NOT_TAKEN", n(0), n(0)),
    te("MAKE_CELL", n(0), n(0)), te("COPY_FREE_VARS", n(0), n(0)),
    te("SETUP_ANNOTATIONS", n(0), n(0)), te("KW_NAMES", n(0), n(0)),
    te("DELETE_FAST", n(0), n(0)), te("DELETE_NAME", n(0), n(0)),
    te("DELETE_GLOBAL", n(0), n(0)), te("DELETE_DEREF", n(0), n(0)),
    te("JUMP_FORWARD", n(0), n(0)), te("JUMP_BACKWARD", n(0), n(0)),
    te("JUMP_BACKWARD_NO_INTERRUPT", n(0), n(0)), te("JUMP", n(0), n(0)),
    te("JUMP_NO_INTERRUPT", n(0), n(0)),

    // Loads.
    te("PUSH_NULL", n(0), n(1)), te("LOAD_CONST", n(0), n(1)), te("LOAD_NAME", n(0), n(1)),
    te("LOAD_FAST", n(0), n(1)), te("LOAD_FAST_CHECK", n(0), n(1)),
    te("LOAD_FAST_AND_CLEAR", n(0), n(1)), te("LOAD_FAST_BORROW", n(0), n(1)),
    te("LOAD_DEREF", n(0), n(1)), te("LOAD_CLOSURE", n(0), n(1)),
    te("LOAD_CLASSDEREF", n(0), n(1)), te("LOAD_BUILD_CLASS", n(0), n(1)),
    te("LOAD_ASSERTION_ERROR", n(0), n(1)), te("LOAD_LOCALS", n(0), n(1)),
    te("LOAD_SMALL_INT", n(0), n(1)), te("LOAD_COMMON_CONSTANT", n(0), n(1)),
    te("LOAD_FAST_LOAD_FAST", n(0), n(2)), te("LOAD_FAST_BORROW_LOAD_FAST_BORROW", n(0), n(2)),
    te("LOAD_FROM_DICT_OR_GLOBALS", n(1), n(1)), te("LOAD_FROM_DICT_OR_DEREF", n(1), n(1)),
    te("LOAD_GLOBAL", n(0), plus(Term::Bit0, 1)),
    te_in("LOAD_ATTR", 11, 11, n(1), n(1)),
    te_in("LOAD_ATTR", 12, kNewestMinor, n(1), plus(Term::Bit0, 1)),
    te("LOAD_METHOD", n(1), n(2)), te("LOAD_SUPER_ATTR", n(3), plus(Term::Bit0, 1)),
    te("LOAD_SPECIAL", n(1), n(2)),

    // Stores and deletes.
    te("STORE_NAME", n(1), n(0)), te("STORE_GLOBAL", n(1), n(0)), te("STORE_FAST", n(1), n(0)),
    te("STORE_DEREF", n(1), n(0)), te("STORE_FAST_MAYBE_NULL", n(1), n(0)),
    te("STORE_FAST_LOAD_FAST", n(1), n(1)), te("STORE_FAST_STORE_FAST", n(2), n(0)),
    te("STORE_ATTR", n(2), n(0)), te("STORE_SUBSCR", n(3), n(0)), te("STORE_SLICE", n(4), n(0)),
    te("DELETE_ATTR", n(1), n(0)), te("DELETE_SUBSCR", n(2), n(0)),

    // One value in, one out.
    te("UNARY_POSITIVE", n(1), n(1)), te("UNARY_NEGATIVE", n(1), n(1)),
    te("UNARY_NOT", n(1), n(1)), te("UNARY_INVERT", n(1), n(1)), te("TO_BOOL", n(1), n(1)),
    te("GET_ITER", n(1), n(1)), te("GET_AITER", n(1), n(1)), te("GET_AWAITABLE", n(1), n(1)),
    te("GET_YIELD_FROM_ITER", n(1), n(1)), te("YIELD_VALUE", n(1), n(1)),
    te("FORMAT_SIMPLE", n(1), n(1)), te("CONVERT_VALUE", n(1), n(1)),
    te("CALL_INTRINSIC_1", n(1), n(1)), te("LIST_TO_TUPLE", n(1), n(1)),
    te("ASYNC_GEN_WRAP", n(1), n(1)),
    te("FORMAT_VALUE", plus(Term::Bit2, 1), n(1)),

    // Push one more than they pop.
    te("GET_ANEXT", n(1), n(2)), te("GET_LEN", n(1), n(2)), te("MATCH_MAPPING", n(1), n(2)),
    te("MATCH_SEQUENCE", n(1), n(2)), te("MATCH_KEYS", n(2), n(3)),
    te("PUSH_EXC_INFO", n(1), n(2)), te("BEFORE_WITH", n(1), n(2)),
    te("BEFORE_ASYNC_WITH", n(1), n(2)), te("IMPORT_FROM", n(1), n(2)),
    te("RETURN_GENERATOR", n(0), n(1)),

    // Two (or more) values in, one out.
    te("BINARY_OP", n(2), n(1)), te("BINARY_SUBSCR", n(2), n(1)), te("COMPARE_OP", n(2), n(1)),
    te("IS_OP", n(2), n(1)), te("CONTAINS_OP", n(2), n(1)), te("CALL_INTRINSIC_2", n(2), n(1)),
    te("FORMAT_WITH_SPEC", n(2), n(1)), te("IMPORT_NAME", n(2), n(1)),
    te("PREP_RERAISE_STAR", n(2), n(1)), te("BUILD_TEMPLATE", n(2), n(1)),
    te("BINARY_SLICE", n(3), n(1)), te("MATCH_CLASS", n(3), n(1)),
    te("CHECK_EXC_MATCH", n(2), n(2)), te("CHECK_EG_MATCH", n(2), n(2)),
    te("CLEANUP_THROW", n(3), n(2)), te("END_SEND", n(2), n(1)),

    // Pops.
    te("POP_TOP", n(1), n(0)), te("POP_ITER", n(1), n(0)), te("POP_EXCEPT", n(1), n(0)),
    te("EXIT_INIT_CHECK", n(1), n(0)), te("PRINT_EXPR", n(1), n(0)),
    te("IMPORT_STAR", n(1), n(0)), te("END_ASYNC_FOR", n(2), n(0)),
    te_in("END_FOR", 12, 12, n(2), n(0)),  // 3.12 pops the iterator too
    te_in("END_FOR", 13, kNewestMinor, n(1), n(0)),

    // Leave the frame.
    te("RETURN_VALUE", n(1), n(0)), te("RETURN_CONST", n(0), n(0)),
    te("INTERPRETER_EXIT", n(1), n(0)), te("RAISE_VARARGS", args(1), n(0)),
    te("RERAISE", args(1, 1), args(1)),

    // Branches.
    te("POP_JUMP_IF_FALSE", n(1), n(0)), te("POP_JUMP_IF_TRUE", n(1), n(0)),
    te("POP_JUMP_IF_NONE", n(1), n(0)), te("POP_JUMP_IF_NOT_NONE", n(1), n(0)),
    te("POP_JUMP_FORWARD_IF_FALSE", n(1), n(0)), te("POP_JUMP_FORWARD_IF_TRUE", n(1), n(0)),
    te("POP_JUMP_FORWARD_IF_NONE", n(1), n(0)), te("POP_JUMP_FORWARD_IF_NOT_NONE", n(1), n(0)),
    te("POP_JUMP_BACKWARD_IF_FALSE", n(1), n(0)), te("POP_JUMP_BACKWARD_IF_TRUE", n(1), n(0)),
    te("POP_JUMP_BACKWARD_IF_NONE", n(1), n(0)),
    te("POP_JUMP_BACKWARD_IF_NOT_NONE", n(1), n(0)),
    te_in("JUMP_IF_FALSE_OR_POP", 11, 11, n(1), n(0), 1),
    te_in("JUMP_IF_TRUE_OR_POP", 11, 11, n(1), n(0), 1),
    // 3.11: an exhausted FOR_ITER pops the iterator and jumps past the loop; a
    // finished SEND leaves only the result. 3.12+ jump to END_FOR / END_SEND,
    // which do the popping.
    te_in("FOR_ITER", 11, 11, n(1), n(2), -2), te_in("FOR_ITER", 12, kNewestMinor, n(1), n(2)),
    te_in("SEND", 11, 11, n(2), n(2), -1), te_in("SEND", 12, kNewestMinor, n(2), n(2)),

    // Building containers, unpacking. The *_APPEND/UPDATE/ADD family reaches
    // under its operands to the container (oparg deep).
    te("BUILD_TUPLE", args(1), n(1)), te("BUILD_LIST", args(1), n(1)),
    te("BUILD_SET", args(1), n(1)), te("BUILD_STRING", args(1), n(1)),
    te("BUILD_MAP", args(2), n(1)), te("BUILD_CONST_KEY_MAP", args(1, 1), n(1)),
    te_in("BUILD_SLICE", 11, 13, plus(Term::SliceStep, 2), n(1)),
    te_in("BUILD_SLICE", 14, kNewestMinor, args(1), n(1)),
    te("BUILD_INTERPOLATION", plus(Term::Bit0, 2), n(1)),
    te("LIST_APPEND", args(1, 1), args(1)), te("SET_ADD", args(1, 1), args(1)),
    te("LIST_EXTEND", args(1, 1), args(1)), te("SET_UPDATE", args(1, 1), args(1)),
    te("DICT_UPDATE", args(1, 1), args(1)), te("DICT_MERGE", args(1, 1), args(1)),
    te("MAP_ADD", args(1, 2), args(1)),
    te("COPY", args(1), args(1, 1)), te("SWAP", args(1), args(1)),
    te("UNPACK_SEQUENCE", n(1), args(1)), te("UNPACK_EX", n(1), plus(Term::UnpackEx, 1)),

    // Calls and functions. 3.11 counts the arguments at PRECALL, the callable
    // and its NULL/self at CALL.
    te("PRECALL", args(1), n(0)),
    te_in("CALL", 11, 11, n(2), n(1)), te_in("CALL", 12, kNewestMinor, args(1, 2), n(1)),
    te("CALL_KW", args(1, 3), n(1)),
    te_in("CALL_FUNCTION_EX", 11, 13, plus(Term::Bit0, 3), n(1)),
    te_in("CALL_FUNCTION_EX", 14, kNewestMinor, n(4), n(1)),  // kwargs or NULL always
    te_in("MAKE_FUNCTION", 11, 12, plus(Term::FunctionFlags, 1), n(1)),
    te_in("MAKE_FUNCTION", 13, kNewestMinor, n(1), n(1)),
    te("SET_FUNCTION_ATTRIBUTE", n(2), n(1)),
    // exit function (3.14: and self), lasti, previous exception, exception -> + result
    te_in("WITH_EXCEPT_START", 11, 13, n(4), n(5)),
    te_in("WITH_EXCEPT_START", 14, kNewestMinor, n(5), n(6)),
});

constexpr bool table_rows_disjoint() {
  for (std::size_t i = 0; i < kTableEffects.size(); ++i) {
    if (kTableEffects[i].first > kTableEffects[i].last) return false;
    for (std::size_t j = i + 1; j < kTableEffects.size(); ++j) {
      const TableEffect& a = kTableEffects[i];
      const TableEffect& b = kTableEffects[j];
      if (a.name == b.name && a.first <= b.last && b.first <= a.last) return false;
    }
  }
  return true;
}
static_assert(table_rows_disjoint(), "two rows of the 3.11+ stack effect table overlap");

}  // namespace

std::optional<std::int64_t> block_stack_effect(Op op, std::uint32_t oparg, bool jump) noexcept {
  const Effect* it = kEffectByOp[static_cast<std::size_t>(op)];
  if (!it) return std::nullopt;
  const std::int64_t arg = oparg;
  switch (it->rule) {
    case Rule::Fixed: return jump ? it->jump : it->nojump;
    case Rule::Linear: return it->nojump + std::int64_t{it->jump} * arg;
    case Rule::UnpackEx: return (arg & 0xff) + (arg >> 8);
    case Rule::BuildSlice: return arg == 3 ? -2 : -1;
    case Rule::MakeFunction:  // (not std::popcount: a library call without popcnt)
      return -1 - std::int64_t{(oparg & 1u) + ((oparg >> 1) & 1u) + ((oparg >> 2) & 1u) + ((oparg >> 3) & 1u)};
    case Rule::CallEx: return -1 - std::int64_t{oparg & 1u};
    case Rule::FormatValue: return (oparg & 4u) ? -1 : 0;
  }
  return std::nullopt;
}

std::optional<std::int64_t> block_stack_effect(std::string_view opname, std::uint32_t oparg,
                                               bool jump) noexcept {
  return block_stack_effect(op_named(opname), oparg, jump);
}

}  // namespace unveil::cfg

namespace unveil::cfg {

const TableRow* table_rows(int minor) {
  // The row of each (version, Op), built once (the rows of a name are
  // disjoint in versions, so the first in table order is the one).
  static constexpr int kOldestMinor = 11;
  using Rows = std::array<TableRow, kOpCount>;
  static const auto index = [] {
    std::array<Rows, kNewestMinor - kOldestMinor + 1> by_minor{};
    for (const TableEffect& e : kTableEffects) {
      const auto o = static_cast<std::size_t>(op_named(e.name));
      if (o == static_cast<std::size_t>(Op::Unknown)) continue;  // stays unknown
      for (int m = std::max<int>(e.first, kOldestMinor); m <= std::min<int>(e.last, kNewestMinor); ++m) {
        TableRow& row = by_minor[std::size_t(m - kOldestMinor)][o];
        if (!row.known) row = {e.popped, e.pushed, e.jump_extra, true};
      }
    }
    return by_minor;
  }();
  if (minor < kOldestMinor || minor > kNewestMinor) return nullptr;
  return index[std::size_t(minor - kOldestMinor)].data();
}

std::optional<TableStackEffect> table_stack_effect(Op op, int minor, std::uint32_t oparg) {
  const TableRow* rows = table_rows(minor);
  if (!rows) return std::nullopt;
  const TableRow& row = rows[static_cast<std::size_t>(op)];
  if (!row.known) return std::nullopt;
  return row.of(oparg);
}

std::optional<TableStackEffect> table_stack_effect(std::string_view opname, int minor,
                                                   std::uint32_t oparg) {
  return table_stack_effect(op_named(opname), minor, oparg);
}

}  // namespace unveil::cfg
