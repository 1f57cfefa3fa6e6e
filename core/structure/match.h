// `match` statements (⇄ compiler_match / codegen_match_inner and the
// codegen_pattern_* family of CPython's compiler, run backwards).
//
// The compiler evaluates the subject once and, for each case but the last,
// copies it (DUP_TOP / COPY 1) for the pattern to consume. A pattern's code is
// straight-line on success: tests that jump to "fail_pop" blocks on failure
// (runs of POP_TOP that drop what the pattern left on the stack, then the
// next case), captures kept on the stack under everything else until the
// whole pattern matched, then stored. The walk below executes that code on a
// stack of abstract values (the subjects of sub-patterns, lengths, attribute
// and value tuples, keys...) and rebuilds each sub-pattern from what was done
// to its subject. It follows stack semantics, not instruction order, so the
// optimizer's reordering of rotations into stores (3.11+ static swaps) does
// not matter. Or-patterns are followed along their alternatives, each entered
// where the previous one's failures land.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "ast/pattern.h"
#include "ast/stmt.h"
#include "cfg/graph.h"
#include "lift/lifter.h"
#include "lift/version_table.h"

namespace unveil::structure {

// Instruction `index` of `block`.
struct CodePos {
  cfg::BlockId block = cfg::kNoBlock;
  std::size_t index = 0;
  friend bool operator==(const CodePos&, const CodePos&) = default;
};

// One case's pattern, as the walk from the case's start recovered it.
struct CaseShape {
  ast::PatternPtr pattern;
  // The subject was copied for this case: a case before the last. Its
  // original stays on the stack through the guard and is popped before the body.
  bool copied = false;
  // A copied case whose subject was popped inside the pattern's code (3.12+
  // moves that pop among the stores): it has no guard.
  bool subject_popped = false;
  CodePos after;                      // the first instruction after the pattern and its stores
  std::optional<std::string> loaded;  // 3.13: the last store was STORE_FAST_LOAD_FAST; it also loaded this local
  // Where every failure goes on once the pattern's leftovers are popped, and
  // how many items (counted from the subject's slot) are still there: 1 for a
  // copied case (the subject), 0 for the last. None when the pattern cannot fail.
  std::optional<CodePos> landing;
  std::size_t landing_depth = 0;
  std::vector<cfg::BlockId> blocks;  // blocks whose instructions the pattern code and its failure pops use
  // A copied case whose failures pop the subject: the last alternative of an
  // or-pattern that is the last case's pattern (see Walk::run).
  bool or_last = false;
  std::optional<CodePos> alt_landing;  // or_last's landing read as a copied case's (one pop given back)
  bool definite = false;             // MATCH_* opcodes: this is a match statement, whatever else goes wrong
};

// 3.12+ drops a `case _ if g:` pattern's COPY 1 + POP_TOP: the case is its
// guard alone, the subject under it. The first such case, as structure_match
// finds it: the code before the match, the subject and the guard.
struct GuardOnlyCase {
  ast::StmtList before;
  lift::Stack stack;  // the subject on top
  ast::ExprPtr guard;
  CodePos body;     // after the subject's pop
  CodePos landing;  // where the guard fails: the next case
  std::vector<cfg::BlockId> blocks;
};

// Walks one case's pattern from `start`, where the subject is on top of the
// stack (the case's DUP_TOP/COPY 1, or its first pattern instruction).
// Returns nullopt with `why` set when the code is not a pattern it knows;
// `definite` then says whether MATCH_* opcodes showed it was one.
std::optional<CaseShape> walk_case(const cfg::Graph& graph, lift::Lifter& lifter, const lift::VersionRow& row,
                                   CodePos start, std::string& why, bool& definite);

}  // namespace unveil::structure
