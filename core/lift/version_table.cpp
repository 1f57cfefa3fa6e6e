#include "lift/version_table.h"

#include <array>
#include <string>

#include "support/error.h"

namespace unveil::lift {

namespace {
constexpr std::array<VersionRow, 7> kRows{{
    {.minor = 8, .null_slot = NullSlot::None, .make_function_has_qualname = true,
     .annotations_as_tuple = false, .docstring_in_consts = true, .for_iter_exit_pops = true,
     .end_for_then_pop_top = false, .while_test_at_top = true, .pop_except_pops = 3,
     .end_async_for_pops = 7, .else_before_handlers = false, .keeps_dead_code = true,
     .back_jump_block_is_loop_end = false, .return_const = false, .static_swaps = false,
     .copies_final_return = false, .finally_subroutine = true, .inlines_small_exits = false, .filter_jump_by_line = false, .static_attributes = false, .lazy_format_guard = false, .match_statements = false, .match_pushes_success = false, .exc_info_triple = true, .with_exit_below = 0, .inlines_comprehensions = false},
    {.minor = 9, .null_slot = NullSlot::None, .make_function_has_qualname = true,
     .annotations_as_tuple = false, .docstring_in_consts = true, .for_iter_exit_pops = true,
     .end_for_then_pop_top = false, .while_test_at_top = true, .pop_except_pops = 3,
     .end_async_for_pops = 7, .else_before_handlers = false, .keeps_dead_code = true,
     .back_jump_block_is_loop_end = false, .return_const = false, .static_swaps = false,
     .copies_final_return = false, .finally_subroutine = false, .inlines_small_exits = false, .filter_jump_by_line = false, .static_attributes = false, .lazy_format_guard = false, .match_statements = false, .match_pushes_success = false, .exc_info_triple = true, .with_exit_below = 7, .inlines_comprehensions = false},
    {.minor = 10, .null_slot = NullSlot::None, .make_function_has_qualname = true,
     .annotations_as_tuple = true, .docstring_in_consts = true, .for_iter_exit_pops = true,
     .end_for_then_pop_top = false, .while_test_at_top = false, .pop_except_pops = 3,
     .end_async_for_pops = 7, .else_before_handlers = false, .keeps_dead_code = false,
     .back_jump_block_is_loop_end = false, .return_const = false, .static_swaps = false,
     .copies_final_return = true, .finally_subroutine = false, .inlines_small_exits = false, .filter_jump_by_line = false, .static_attributes = false, .lazy_format_guard = false, .match_statements = true, .match_pushes_success = true, .exc_info_triple = true, .with_exit_below = 7, .inlines_comprehensions = false},
    {.minor = 11, .null_slot = NullSlot::Below, .make_function_has_qualname = false,
     .annotations_as_tuple = true, .docstring_in_consts = true, .for_iter_exit_pops = true,
     .end_for_then_pop_top = false, .while_test_at_top = false, .pop_except_pops = 1,
     .end_async_for_pops = 2, .else_before_handlers = true, .keeps_dead_code = false,
     .back_jump_block_is_loop_end = false, .return_const = false, .static_swaps = true,
     .copies_final_return = true, .finally_subroutine = false, .inlines_small_exits = false, .filter_jump_by_line = false, .static_attributes = false, .lazy_format_guard = false, .match_statements = true, .match_pushes_success = false, .exc_info_triple = false, .with_exit_below = 4, .inlines_comprehensions = false},
    {.minor = 12, .null_slot = NullSlot::Below, .make_function_has_qualname = false,
     .annotations_as_tuple = true, .docstring_in_consts = true, .for_iter_exit_pops = true,
     .end_for_then_pop_top = false, .while_test_at_top = false, .pop_except_pops = 1,
     .end_async_for_pops = 2, .else_before_handlers = false, .keeps_dead_code = false,
     .back_jump_block_is_loop_end = true, .return_const = true, .static_swaps = true,
     .copies_final_return = true, .finally_subroutine = false, .inlines_small_exits = true, .filter_jump_by_line = true, .static_attributes = false, .lazy_format_guard = false, .match_statements = true, .match_pushes_success = false, .exc_info_triple = false, .with_exit_below = 4, .inlines_comprehensions = true},
    {.minor = 13, .null_slot = NullSlot::Above, .make_function_has_qualname = false,
     .annotations_as_tuple = true, .docstring_in_consts = true, .for_iter_exit_pops = true,
     .end_for_then_pop_top = true, .while_test_at_top = false, .pop_except_pops = 1,
     .end_async_for_pops = 2, .else_before_handlers = false, .keeps_dead_code = false,
     .back_jump_block_is_loop_end = true, .return_const = true, .static_swaps = true,
     .copies_final_return = true, .finally_subroutine = false, .inlines_small_exits = true, .filter_jump_by_line = false, .static_attributes = true, .lazy_format_guard = false, .match_statements = true, .match_pushes_success = false, .exc_info_triple = false, .with_exit_below = 4, .inlines_comprehensions = true},
    {.minor = 14, .null_slot = NullSlot::Above, .make_function_has_qualname = false,
     .annotations_as_tuple = true, .docstring_in_consts = false, .for_iter_exit_pops = false,
     .end_for_then_pop_top = false, .while_test_at_top = true, .pop_except_pops = 1,
     .end_async_for_pops = 2, .else_before_handlers = false, .keeps_dead_code = false,
     .back_jump_block_is_loop_end = true, .return_const = false, .static_swaps = true,
     .copies_final_return = true, .finally_subroutine = false, .inlines_small_exits = true, .filter_jump_by_line = false, .static_attributes = true, .lazy_format_guard = true, .match_statements = true, .match_pushes_success = false, .exc_info_triple = false, .with_exit_below = 0, .inlines_comprehensions = true},
}};
// Rows for consecutive minors, oldest first: version_row indexes them.
constexpr bool consecutive() {
  for (std::size_t k = 1; k < kRows.size(); ++k)
    if (kRows[k].minor != kRows[k - 1].minor + 1) return false;
  return true;
}
static_assert(consecutive());
}  // namespace

const VersionRow& version_row(int minor) {
  // Asked on every condition tried: one index, not a search.
  if (minor >= kRows.front().minor && minor <= kRows.back().minor) return kRows[std::size_t(minor - kRows.front().minor)];
  throw Error(ErrorKind::Unsupported, "lifting: no version row for 3." + std::to_string(minor));
}

}  // namespace unveil::lift
