// Per-version facts lifting needs that the opcode tables do not carry, keyed
// once by VersionTraits::minor.
#pragma once

namespace unveil::lift {

enum class NullSlot {
  None,   // ≤3.10: CALL_FUNCTION has no NULL slot (CALL_METHOD pops two)
  Below,  // 3.11–3.12: [NULL, callable, args...]
  Above,  // 3.13+: [callable, NULL, args...]
};

struct VersionRow {
  int minor;
  NullSlot null_slot;
  bool make_function_has_qualname;  // ≤3.10: MAKE_FUNCTION pops the qualname too
  bool annotations_as_tuple;        // 3.10+: MAKE_FUNCTION 0x04 takes a flat (name, value) tuple
  bool docstring_in_consts;         // ≤3.13: co_consts[0] is the docstring (3.14: a flag)
  bool for_iter_exit_pops;          // ≤3.13: an exhausted FOR_ITER pops the iterator (3.14: POP_ITER does)
  bool end_for_then_pop_top;        // 3.13: the loop exit is END_FOR; POP_TOP (both skipped by FOR_ITER)
  bool while_test_at_top;           // 3.8-3.9, 3.14: `while c:` tests at the loop head (3.10-3.13: at the bottom)
  int pop_except_pops;              // POP_EXCEPT: 3 values (≤3.10 exc_info triple) or 1
  int end_async_for_pops;           // END_ASYNC_FOR pops the iterator and what its handler pushed: 7 (≤3.10) or 2
  bool else_before_handlers;        // 3.11: a try's `else` is laid out before its handlers
  bool keeps_dead_code;             // ≤3.9: code after return/raise that no jump reaches stays in the bytecode
  bool back_jump_block_is_loop_end;  // 3.12+: a lone jump to the loop head after a test ends the loop body
  bool return_const;                // 3.12-3.13: `return <constant>` is RETURN_CONST (LOAD_CONST + RETURN_VALUE is a
                                    // conditional expression's constant arm, its return copied into it)
  bool static_swaps;                // 3.11+: `a, b = x, y` stores in reverse order, with no tuple and no SWAP
  bool copies_final_return;         // 3.10+: each jump to the implicit final `return None` gets its own copy
  bool finally_subroutine;          // 3.8: one finally body, run by BEGIN_FINALLY/CALL_FINALLY (3.9+: copied)
  bool inlines_small_exits;         // 3.12+: a jump to a small block that ends the frame gets its own copy
  bool filter_jump_by_line;         // 3.12: a comprehension filter's failing jump goes straight back to the
                                    // loop head only when the test is on the element's line
  bool static_attributes;           // 3.13+: a class records the `self.x` its methods store (__static_attributes__)
  bool lazy_format_guard;           // 3.14+: a lazily evaluated value (type alias value, type parameter bound or
                                    // default) is an annotation scope: it takes `format` and starts with
                                    // `if format > 2: raise NotImplementedError`
  bool match_statements;            // 3.10+: `match` exists (before, a kept copy and a test are something else)
  bool match_pushes_success;        // 3.10: MATCH_CLASS and MATCH_KEYS push their result and then a success bool
                                    // (3.11+: the result only, None on failure)
  bool exc_info_triple;              // ≤3.10: an exception on the stack is (traceback, value, type), three slots
  int with_exit_below;              // WITH_EXCEPT_START finds __exit__ this many items below the top: 7 (3.9-3.10,
                                    // under two exc_info triples), 4 (3.11-3.13, under lasti, the previous
                                    // exception and the exception); 0 where the state machine does not lower
                                    // it (3.8's WITH_CLEANUP_START; 3.14's __exit__ is two items)
  bool inlines_comprehensions;      // 3.12+: comprehensions run inline (PEP 709); in a class body their free
                                    // names are LOAD_GLOBAL, which is no `global` declaration there
};

const VersionRow& version_row(int minor);

}  // namespace unveil::lift
