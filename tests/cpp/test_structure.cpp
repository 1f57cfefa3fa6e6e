// Structuring: statements from the graph of one function, compiled by the
// pyenv Pythons 3.8–3.13 (skipped where missing).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ast/build.h"
#include "decode/decode.h"
#include "emit/unparse.h"
#include "lift/lifter.h"
#include "lifting.h"
#include "structure/simplify.h"
#include "structure/structurer.h"
#include "support/error.h"

namespace unveil {
namespace {

using testing::compile_module;
using testing::kSnippetPythons;
using testing::NoDefiner;

// The code object of the first function defined in `source`.
std::shared_ptr<const CodeObject> first_function(const std::string& version, const std::string& source) {
  auto module = compile_module(version, source);
  if (!module) return nullptr;
  for (const ObjectRef& c : module->consts)
    if (auto* cv = c->as<CodeValue>()) return cv->code;
  return nullptr;
}

std::string structured(const std::shared_ptr<const CodeObject>& code) {
  DecodedCode decoded = decode(code, *find_version(code->version_minor));
  NoDefiner definer;
  structure::Structurer s(decoded, definer);
  return unparse(structure::simplify(s.run(), code->version_minor));
}

// Expects `body` (a function body, 4-space indented in `source`) to come back
// as `expected` on every version from `from_minor` on; `return None` endings
// may be duplicated by the compiler, so they are compared after removal.
void expect_body(const std::string& source, const std::string& expected, int from_minor = 8) {
  int ran = 0;
  for (const char* v : kSnippetPythons) {
    if (std::stoi(std::string(v).substr(2)) < from_minor) continue;
    auto code = first_function(v, source);
    if (!code) continue;
    ++ran;
    std::string out = structured(code);
    std::string cleaned;
    std::size_t pos = 0;
    while (pos < out.size()) {
      std::size_t end = out.find('\n', pos);
      if (end == std::string::npos) end = out.size();
      std::string line = out.substr(pos, end - pos);
      if (line.find("return None") == std::string::npos) cleaned += line + "\n";
      pos = end + 1;
    }
    EXPECT_EQ(cleaned, expected) << "Python " << v << "\n" << out;
  }
  if (ran == 0) GTEST_SKIP() << "no pyenv Python";
}

}  // namespace

TEST(Structure, IfElifElse) {
  expect_body("def f(a, b):\n    if a and b:\n        x()\n    elif not a:\n        y()\n    else:\n        z()\n",
              "if a and b:\n    x()\nelif not a:\n    y()\nelse:\n    z()\n");
}

TEST(Structure, ConditionalExpressionsAndBoolValues) {
  expect_body("def f(a, b):\n    x = a if b else c\n    y = a or b\n    z = a and b and c\n",
              "x = a if b else c\ny = a or b\nz = a and b and c\n");
}

TEST(Structure, LoopsBreakContinueElse) {
  expect_body(
      "def f(a):\n    for i in a:\n        if i:\n            break\n        g(i)\n    else:\n        h()\n"
      "    while a:\n        if a > 3:\n            break\n        a -= 1\n    g()\n",
      "for i in a:\n    if i:\n        break\n    g(i)\nelse:\n    h()\nwhile a:\n    if a > 3:\n"
      "        break\n    a -= 1\ng()\n");
}

TEST(Structure, WhileTrueAndNestedLoops) {
  // (Inside a for: code after a loop that only ends the frame may be laid out
  // inside it, where it is the same bytecode as a `return` there.)
  expect_body("def f(a, b):\n    for y in b:\n        while True:\n            for x in a:\n                g(x)\n            if h():\n                break\n        k()\n",
              "for y in b:\n    while True:\n        for x in a:\n            g(x)\n        if h():\n            break\n    k()\n");
}

// A loop whose every exit is its own `return` laid out inside it never ends
// normally: no `break`, no code after it.
TEST(Structure, WhileTrueLeftOnlyByReturns) {
  expect_body("def f(a):\n    while True:\n        x = g(a)\n        if x:\n            return x\n        if h(x):\n            raise E\n        a = x\n",
              "while True:\n    x = g(a)\n    if x:\n        return x\n    if h(x):\n        raise E\n    a = x\n");
}

TEST(Structure, AssertAndRaise) {
  expect_body("def f(a):\n    assert a, 'm'\n    raise E from a\n",
              "assert a, 'm'\nraise E from a\n", 9);
}

TEST(Structure, TryExceptFinallyWith) {
  expect_body(
      "def f():\n    try:\n        a()\n    except (E, F) as e:\n        b(e)\n    except G:\n        pass\n"
      "    try:\n        c()\n    finally:\n        d()\n    with g() as h:\n        i()\n",
      "try:\n    a()\nexcept (E, F) as e:\n    b(e)\nexcept G:\n    pass\ntry:\n    c()\nfinally:\n"
      "    d()\nwith g() as h:\n    i()\n",
      9);
}

TEST(Structure, NegateFoldsOnlyDoubleNot) {
  auto x = ast::name("x");
  auto n = structure::negate(x);
  EXPECT_EQ(unparse_expr(*n), "not x");
  EXPECT_EQ(structure::negate(n), x);
}

}  // namespace unveil
