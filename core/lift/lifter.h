// Symbolic execution of one basic block (⇄ the expression half of CPython's
// Python/codegen.c, run backwards): instructions become expressions on a
// symbolic stack and statements where a value is stored, popped or returned.
// Control transfer at the end of a block is reported, not followed: the
// structurer decides where control goes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "ast/stmt.h"
#include "cfg/graph.h"
#include "decode/instruction.h"
#include "lift/name_views.h"
#include "lift/stack.h"
#include "lift/version_table.h"
#include "support/error.h"

namespace unveil::lift {

// Turns nested code objects into source; implemented by the driver.
class Definer {
 public:
  virtual ~Definer() = default;
  // `def name(...)` (decorators and all) for a function stored under `name`.
  virtual ast::StmtPtr define_function(const FunctionValue& f, const std::string& name) = 0;
  virtual ast::StmtPtr define_class(const ClassValue& c, const std::string& name) = 0;
  // A function used as a value: a lambda, or a comprehension called with `iter_arg`.
  virtual ast::ExprPtr function_expr(const FunctionValue& f, ast::ExprPtr iter_arg) = 0;
  // The expression a lazily evaluated function returns (the value of `type X = value`).
  virtual ast::ExprPtr lazy_value(const FunctionValue&) { return nullptr; }
  // `name` as the code being lifted stores it (`__x` is `_C__x` inside class C).
  virtual std::string stored_name(const std::string& name) const { return name; }
  // 3.12+: what calling a `<generic parameters of name>` function with `args`
  // makes (a def, class or type alias with its type parameters), or nullopt
  // when the definer does not rebuild them.
  virtual std::optional<Item> generic(const FunctionValue& /*wrapper*/, const ast::ExprList& /*args*/) {
    return std::nullopt;
  }
  // The value an argument of `code` is known to hold while it is lifted (the
  // `.defaults` a generic def's wrapper is called with), or nullptr.
  virtual ast::ExprPtr argument(const CodeObject& /*code*/, const std::string& /*name*/) const { return nullptr; }
};

struct Terminator {
  enum class Kind {
    Fall,        // falls through or jumps unconditionally (follow the normal successor)
    Branch,      // pops `cond`; jumps when its truth equals jump_if
    KeepBranch,  // JUMP_IF_*_OR_POP: jumps keeping `cond` on the stack, else pops it
    ForIter,     // FOR_ITER: falls into the body with the next item, jumps when exhausted
    Send,        // SEND: await/yield from; `cond` is the result expression
    Exit,        // return, raise, reraise
  };
  Kind kind = Kind::Fall;
  ast::ExprPtr cond;
  bool jump_if = false;
  bool exc_match = false;  // Branch on CHECK_EXC_MATCH: `cond` is the matched type
  const Instruction* ins = nullptr;
};

struct BlockEffect {
  ast::StmtList stmts;
  Stack stack;
  Terminator term;
  bool pop_except = false;  // the block ran POP_EXCEPT (an except clause ends here)
  // Where the block went on after its POP_EXCEPT: the next instruction's index
  // and how many statements were lifted before it.
  std::size_t after_pop_except = 0, stmts_before_pop_except = 0;
  bool reraise = false;     // the block ends in RERAISE
  bool end_finally = false; // 3.8: the block ends a finally body (END_FINALLY, not a with's)
};

// Markers the lifter leaves in statements for the driver to rebuild:
// `<append>(x)` for LIST_APPEND/SET_ADD, `<mapadd>(k, v)` for MAP_ADD.
inline constexpr const char* kAppendMarker = "<append>";
inline constexpr const char* kMapAddMarker = "<mapadd>";

class Lifter {
 public:
  Lifter(const DecodedCode& code, Definer& definer);
  ~Lifter();
  Lifter(const Lifter&) = delete;
  Lifter& operator=(const Lifter&) = delete;

  BlockEffect run(const cfg::Graph& graph, cfg::BlockId id, Stack stack);
  // The same for callers that only look at the effect: no copy of a lift the
  // cache holds (conditions are tried on the same block several times).
  std::shared_ptr<const BlockEffect> effect(const cfg::Graph& graph, cfg::BlockId id, const Stack& stack);
  // Instructions [first, end) of the block only (indices into the block): a
  // part that ends before the block's last instruction ends in Fall.
  BlockEffect run(const cfg::Graph& graph, cfg::BlockId id, Stack stack, std::size_t first, std::size_t end);
  // Whether lifting a block's instructions can end in Terminator::Kind::Branch:
  // a block that cannot is no condition, and the speculative lift that would
  // show it is skipped.
  static bool may_branch(std::span<const Instruction> ins);

  // Names this code stores with STORE_GLOBAL / into free variables (for
  // `global` and `nonlocal` declarations).
  const std::set<std::string>& globals() const { return globals_; }
  const std::set<std::string>& nonlocals() const { return nonlocals_; }
  // The value of a LOAD_ASSERTION_ERROR (recognised by identity by the structurer).
  static const ast::ExprPtr& assertion_error();
  void note_global(const std::string& n) { globals_.insert(n); }
  void note_nonlocal(const std::string& n) { nonlocals_.insert(n); }
  // Items with no source form kept under a name the source cannot spell, for
  // the code that reads them: a 3.12+ generic wrapper's type parameters and
  // generic base (`.type_params`, `.generic_base`), a class body's function
  // while `class C(*bases)` builds its argument list.
  void bind_hidden(std::string_view n, Item i) { hidden_.insert_or_assign(std::string(n), std::move(i)); }
  std::size_t hidden_count() const { return hidden_.size(); }
  const Item* hidden(std::string_view n) const {
    ++hidden_reads_;  // a lift that reads one depends on more than its block and stack: not cached
    auto it = hidden_.find(n);
    return it == hidden_.end() ? nullptr : &it->second;
  }
  // Temporaries lifting introduced to keep evaluation order (`_t1 = v`): values
  // that stayed on the stack while statements ran. Each is assigned once.
  const ast::NameSet& temporaries() const { return temporaries_; }
  std::string new_temporary();
  // The source form of a stack item that needs no statements (values, lambdas,
  // comprehensions, iterators); nullptr when it has none.
  ast::ExprPtr expression_of(const Item& i) const;
  // A value whose evaluation has no effect and cannot fail (popped silently).
  bool computes_nothing(const ast::ExprPtr& e) const;

  // Used by opcode handlers (lifter_ops.cpp).
  struct State;

 private:
  const DecodedCode& code_;
  Definer& definer_;
  const VersionRow& row_;
  std::set<std::string> globals_, nonlocals_;
  std::map<std::string, Item, std::less<>> hidden_;
  mutable std::size_t hidden_reads_ = 0;
  NameViews code_names_;  // the names shaped like a temporary that the code (and its nested code) uses
  bool names_collected_ = false;
  std::set<std::string, std::less<>> taken_;  // names given to definitions since
  bool taken(std::string_view name);
  ast::NameSet temporaries_;
  int temporary_count_ = 0;
  std::uint64_t value_count_ = 0;  // Item::seq source
  friend struct State;

  // Lifts already done. While the structurer tries whether blocks form a
  // condition it lifts the same block from the same stack again and again
  // (two lifts in three, stdlib); a lift is a function of those two as long
  // as it leaves the lifter's own state alone (no temporary, no global or
  // nonlocal declaration, no name taken) and its items hold no mutable
  // shared state (functions, classes, unpacking sinks), so only such lifts
  // are kept, with their result or their error.
  // The repeats come close together (the tries, then the real lift), so a
  // few recent lifts are kept, not all: a whole function's worth made big
  // functions slower through the memory they held.
  struct CachedLift {
    cfg::BlockId block = cfg::kNoBlock;
    Stack entry;  // keeps its expressions alive: their addresses stay unique
    std::shared_ptr<BlockEffect> effect;  // shared with callers that only look (never changed)
    std::optional<Error> error;
  };
  static constexpr std::size_t kCachedLifts = 16;
  BlockEffect lift_block(const cfg::Graph& graph, cfg::BlockId id, const Stack& entry, std::size_t first,
                         std::size_t end);
  BlockEffect lift_block(const cfg::Graph& graph, cfg::BlockId id, Stack&& entry, std::size_t first,
                         std::size_t end);
  BlockEffect lift_instructions(State& s);
  void remember(CachedLift entry);
  // The lift of a stack of immutable items, from the cache or made (and kept when it may be).
  std::shared_ptr<BlockEffect> cached_effect(const cfg::Graph& graph, cfg::BlockId id, const Stack& stack);
  // Stack slots a lift may push beyond its entry stack, as the compiler computed them.
  std::size_t stack_room() const {
    return code_.code->stacksize > 0 ? std::min<std::size_t>(std::size_t(code_.code->stacksize), 64) : 0;
  }
  const cfg::Graph* cached_graph_ = nullptr;
  std::vector<CachedLift> lifts_;  // a ring of kCachedLifts
  // Emptied rings, kept per thread for the next lifters: a ring grown to its
  // size was a few allocations per code object, two of them big. (Lifters
  // nest, one per code object being lifted: a pool, not one ring.)
  static std::vector<std::vector<CachedLift>>& ring_pool();
  std::size_t next_lift_ = 0;      // the slot the next one replaces
};

}  // namespace unveil::lift
