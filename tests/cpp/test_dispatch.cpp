// The state-machine fallback (core/structure/dispatch): code the structurer
// cannot express becomes `while True:` dispatching on a state variable; code
// it cannot lower keeps the comment-and-raise fallback.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "assembler.h"
#include "decompile/decompile.h"
#include "python_snippets.h"
#include "read/code_object.h"
#include "read/object.h"

namespace unveil {
namespace {

std::string decompiled(const std::shared_ptr<CodeObject>& code) {
  code->argcount = 1;
  code->flags = kCoOptimized | kCoNewLocals;
  code->consts = {make_object(NoneValue{}), make_object(IntValue{.small = 1, .digits = {}}), make_object(IntValue{.small = 3, .digits = {}})};
  return decompile_function(code, nullptr, nullptr, nullptr, *find_version(code->version_minor));
}

// `source` compiled by each Python of `versions` found here (the others are
// skipped) and decompiled: a state machine holding each of `wanted`, with
// no fallback.
void expect_machine(std::initializer_list<const char*> versions, const char* source,
                    std::initializer_list<const char*> wanted) {
  for (const char* v : versions) {
    auto data = unveil::testing::marshal_snippet(v, source);
    if (data.empty()) continue;
    const std::string out = decompile_marshal(data, std::stoi(std::string(v).substr(2)), "", {});
    EXPECT_NE(out.find("# unveil: control flow rebuilt as a state machine"), std::string::npos) << v << "\n" << out;
    for (const char* w : wanted) EXPECT_NE(out.find(w), std::string::npos) << w << " in " << v << "\n" << out;
    EXPECT_EQ(out.find("could not decompile"), std::string::npos) << v << "\n" << out;
  }
}

}  // namespace

// Two blocks that jump into each other's middle: a cycle with two entries,
// which no while or if expresses.
TEST(Dispatch, IrreducibleFlowBecomesAStateMachine) {
  unveil::testing::Assembler a(12);
  const int b = a.label(), top = a.label(), done = a.label();
  a.op("RESUME", 0);
  a.op("LOAD_FAST", 0);
  a.jump("POP_JUMP_IF_TRUE", b);
  a.bind(top);  // x = x + 1; if x > 3: return x
  a.op("LOAD_FAST", 0);
  a.op("LOAD_CONST", 1);
  a.op("BINARY_OP", 0);
  a.op("STORE_FAST", 0);
  a.op("LOAD_FAST", 0);
  a.op("LOAD_CONST", 2);
  a.op("COMPARE_OP", 4 << 4);
  a.jump("POP_JUMP_IF_TRUE", done);
  a.bind(b);  // x = x + 1, and back into the middle of the other
  a.op("LOAD_FAST", 0);
  a.op("LOAD_CONST", 1);
  a.op("BINARY_OP", 0);
  a.op("STORE_FAST", 0);
  a.jump("JUMP_BACKWARD", top);
  a.bind(done);
  a.op("LOAD_FAST", 0);
  a.op("RETURN_VALUE");
  const std::string out = decompiled(a.code());
  EXPECT_EQ(out,
            "def synthetic(x):\n"
            "    # unveil: control flow rebuilt as a state machine (decode: structure: irreducible control flow at "
            "offset 6 (0x6))\n"
            "    _state = 0\n"
            "    while True:\n"
            "        if _state == 0:\n"
            "            if x:\n"
            "                _state = 1\n"
            "                continue\n"
            "            _state = 2\n"
            "            continue\n"
            "        if _state == 1:\n"
            "            x = x + 1\n"
            "            _state = 2\n"
            "            continue\n"
            "        if _state == 2:\n"
            "            x = x + 1\n"
            "            if x > 3:\n"
            "                _state = 3\n"
            "                continue\n"
            "            _state = 1\n"
            "            continue\n"
            "        if _state == 3:\n"
            "            return x\n")
      << out;
}

// A value on the stack across blocks (the kept operand of a chained
// comparison, the iterators of nested loops) lives in a slot variable.
TEST(Dispatch, StackValuesAndIteratorsAreSpilled) {
  const char* source =
      "def f(a, b):\n"
      "    t = 0\n"
      "    for i in range(a):\n"
      "        for j in range(b):\n"
      "            if i * j > 6:\n"
      "                return t\n"
      "            while j < 3:\n"
      "                j += 1\n"
      "                if j == 2:\n"
      "                    break\n"
      "            else:\n"
      "                continue\n"
      "            t += j\n"
      "    return t\n";
  expect_machine({"3.11.7", "3.12.1", "3.13.0"}, source,
                 {"_s0 = iter(range(a))", "_s1 = next(_s0)", "except StopIteration:"});
}

// Exception regions become states too: here 3.8's `break` through a
// finally (CALL_FINALLY into the finally body, END_FINALLY back), whose
// handler runs the finally body again for an exception and re-raises it.
TEST(Dispatch, ExceptionRegionsBecomeStates) {
  auto data = unveil::testing::marshal_snippet("3.8.18",
                                       "def f(x):\n    for a in x:\n        try:\n            h()\n            break\n"
                                       "        finally:\n            g()\n");
  if (data.empty()) GTEST_SKIP() << "no Python 3.8";
  const std::string out = decompile_marshal(data, 8, "", {});
  EXPECT_NE(out.find("# unveil: control flow rebuilt as a state machine"), std::string::npos) << out;
  EXPECT_NE(out.find("except BaseException as _e0:"), std::string::npos) << out;
  EXPECT_EQ(out.find("could not decompile"), std::string::npos) << out;
  // The finally body: once on the break's path, once on the exception's.
  std::size_t calls = 0;
  for (std::size_t at = out.find("g()"); at != std::string::npos; at = out.find("g()", at + 1)) ++calls;
  EXPECT_EQ(calls, 2u) << out;
}

// 3.11+: a handler that starts with PUSH_EXC_INFO is an except clause of the
// machine, nested in the clause that caught the exception; POP_EXCEPT leaves it.
TEST(Dispatch, HandlersRunInsideTheMachinesExceptClause) {
  const char* source =
      "def f(a, b):\n"
      "    t = 0\n"
      "    for i in range(a):\n"
      "        for j in range(b):\n"
      "            try:\n"
      "                if i * j > 6:\n"
      "                    return t\n"
      "            except KeyError:\n"
      "                continue\n"
      "            while j < 3:\n"
      "                j += 1\n"
      "                if j == 2:\n"
      "                    break\n"
      "            else:\n"
      "                continue\n"
      "            t += j\n"
      "    return t\n";
  expect_machine({"3.11.7", "3.12.1", "3.13.0"}, source,
                 {"except BaseException as _e0:", "except BaseException as _e1:", "isinstance(_s", "break"});
}

// except* (CHECK_EG_MATCH) is refused: the raising fallback stays.
TEST(Dispatch, ExceptStarKeepsTheRaisingFallback) {
  auto data = unveil::testing::marshal_snippet(
      "3.12.1",
      "def f(a, b):\n    t = 0\n    for i in range(a):\n        for j in range(b):\n"
      "            if i * j > 6:\n                return t\n            while j < 3:\n                j += 1\n"
      "                if j == 2:\n                    break\n            else:\n                continue\n"
      "            try:\n                t += j\n            except* KeyError:\n                pass\n    return t\n");
  if (data.empty()) GTEST_SKIP() << "no Python 3.12";
  const std::string out = decompile_marshal(data, 12, "", {});
  EXPECT_NE(out.find("raise RuntimeError('unveil could not decompile f')"), std::string::npos) << out;
  EXPECT_NE(out.find("no state machine: dispatch: except* (exception groups)"), std::string::npos) << out;
}

// await and async with (SEND loops, BEFORE_ASYNC_WITH) become states: the
// await is one expression whose value the state after the loop receives.
TEST(Dispatch, AwaitAndAsyncWithBecomeStates) {
  const char* source =
      "async def f(a, b):\n    t = 0\n    for i in range(a):\n        for j in range(b):\n"
      "            if i * j > 6:\n                return t\n            while j < 3:\n                j += 1\n"
      "                if j == 2:\n                    break\n            else:\n                continue\n"
      "            async with m() as c:\n                t += await g(j)\n    return t\n";
  expect_machine({"3.8.18", "3.11.7", "3.12.1", "3.13.0"}, source, {"await g(j)", ".__aexit__.__get__(", ".__aenter__("});
}

}  // namespace unveil
