// The last resort before giving up on a code object: its control flow as a
// state machine, `while True:` dispatching on a state variable, one state per
// basic block. Any graph fits this form (irreducible flow included), so a
// function the structurer cannot express still decompiles to code that
// behaves the same, if not the code that was written.
//
//   _state = 0
//   while True:
//       if _state == 0:
//           <statements of the block>
//           if <cond>:
//               _state = 2
//               continue
//           _state = 1
//           continue
//       ...
//
// Values left on the stack at a block's end are spilled to variables, one per
// stack slot, which the next block starts with (a call's NULL holds nothing
// and is pushed again). A block entered with two different stacks is two
// states.
//
// Exception regions keep their meaning. The states that run inside k except
// clauses sit in a loop nested in the k-th clause of the machine, so that
// sys.exc_info(), bare `raise` and implicit chaining see what the bytecode
// handles; a level's states that a handler covers sit in one try:
//
//       try:
//           if _state == 3: ...
//       except BaseException as _e0:
//           if _state in (3, 4):
//               _s1 = _e0             # the exception, where the handler finds it
//               _state = 7
//           else:
//               raise
//           while True: ...           # the handler's except clause, one level in
//
// POP_EXCEPT breaks out of its level. ≤3.10 handlers outside the clauses the
// raising code runs in are reached by leaving those clauses one at a time
// with the exception pending. with statements call __enter__/__exit__ as
// BEFORE_WITH, WITH_EXCEPT_START and 3.8's WITH_CLEANUP_* do; 3.8's finally
// subroutines carry their return site as a slot letter; 3.12+ inlined
// comprehensions save and restore the locals they reuse.
//
// An await or yield from (a SEND loop) is one expression whose value the
// state after the loop receives; async with awaits __aenter__/__aexit__.
//
// Refused (Error(Decode)): except*, async for (3.11+), a stack item with no value form live across blocks, and variables named
// like the builtins the lowering calls. Differences that remain: a with's
// __enter__/__exit__ are looked up with type(m).__exit__.__get__(m), which
// differs from CPython's special lookup only for a static or class method
// or a builtin function stored as __exit__; tracebacks show the machine's lines.
#pragma once

#include <string_view>

#include "ast/stmt.h"
#include "decode/instruction.h"
#include "lift/lifter.h"

namespace unveil::structure {

// The body of `code` as a state machine, lifted with `lifter`; its first
// statement is a comment that gives `reason` (why the structurer could not).
ast::StmtList dispatch_body(const DecodedCode& code, lift::Lifter& lifter, std::string_view reason);

}  // namespace unveil::structure
