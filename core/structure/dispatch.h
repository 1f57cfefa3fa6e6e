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
// and is pushed again). Refused (Error(Decode)): code with exception regions
// (try/with), await/yield from (SEND), any other stack item with no value
// form live across blocks, a block entered with different stacks, and
// variables named like the builtins the lowering calls.
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
