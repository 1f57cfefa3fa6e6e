// The decompiler driver end to end: source compiled by each pyenv Python
// 3.8–3.13 (skipped where that interpreter is missing), decompiled, and
// compared with the source text ast.unparse would print.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ast/build.h"
#include "decompile/decompile.h"
#include "decompile/signature.h"
#include "emit/unparse.h"
#include "read/code_object.h"
#include "python_snippets.h"
#include "support/error.h"

namespace {

using unveil::testing::kSnippetPythons;

std::vector<std::uint8_t> compile_with(const std::string& version, const std::string& source) {
  return unveil::testing::marshal_snippet(version, source);
}

int minor_of(const std::string& version) { return std::stoi(version.substr(2)); }

// Decompiles `source` with every available interpreter and expects `expected`.
void expect_all(const std::string& source, const std::string& expected, int from_minor = 8) {
  int ran = 0;
  for (const char* v : kSnippetPythons) {
    if (minor_of(v) < from_minor) continue;
    auto data = compile_with(v, source);
    if (data.empty()) continue;
    ++ran;
    EXPECT_EQ(unveil::decompile_marshal(data, minor_of(v), "", {}), expected) << "Python " << v;
  }
  if (ran == 0) GTEST_SKIP() << "no pyenv Python available";
}

}  // namespace

TEST(Decompile, StraightLineAndImports) {
  expect_all(
      "import os\nimport os.path as osp\nfrom . import a as b, c\nx = y = f(1, *a, k=2, **kw)\n"
      "del x.q, y[0]\nz = x[1:2], x[::3]\n",
      "import os\nimport os.path as osp\nfrom . import a as b, c\nx = y = f(1, *a, k=2, **kw)\n"
      "del x.q\ndel y[0]\nz = (x[1:2], x[::3])\n");
}

TEST(Decompile, FunctionSignatureAndDocstring) {
  expect_all("def f(a, /, b=1, *args, c, d=2, **kw) -> int:\n    'doc'\n    global g\n    g = a\n",
             "def f(a, /, b=1, *args, c, d=2, **kw) -> int:\n    \"\"\"doc\"\"\"\n    global g\n    g = a\n");
}

TEST(Decompile, ClassWithDecoratorsAndSuper) {
  expect_all(
      "@dec\nclass C(B, metaclass=M):\n    'doc'\n    x: int = 1\n    @staticmethod\n    def m(self):\n"
      "        return super().m()\n",
      "@dec\nclass C(B, metaclass=M):\n    \"\"\"doc\"\"\"\n    x: int = 1\n\n    @staticmethod\n"
      "    def m(self):\n        return super().m()\n");
}

TEST(Decompile, LambdasAndComprehensions) {
  expect_all(
      "f = lambda a, b=2: a + b\nx = [i * 2 for i in y if i]\ns = {k: v for k, v in d}\n"
      "g = (q for q in r)\n",
      "f = lambda a, b=2: a + b\nx = [i * 2 for i in y if i]\ns = {k: v for k, v in d}\n"
      "g = (q for q in r)\n");
}

TEST(Decompile, ControlFlow) {
  expect_all(
      "def f(a):\n    for i in a:\n        if i:\n            break\n    else:\n        g()\n"
      "    while a:\n        a -= 1\n    x = a if a else b\n    g(x)\n",
      "def f(a):\n    for i in a:\n        if i:\n            break\n    else:\n        g()\n"
      "    while a:\n        a -= 1\n    x = a if a else b\n    g(x)\n");
}

TEST(Decompile, TryExceptWith) {
  expect_all(
      "def f():\n    try:\n        a()\n    except E as e:\n        b(e)\n    with open(x) as y:\n"
      "        z()\n",
      "def f():\n    try:\n        a()\n    except E as e:\n        b(e)\n    with open(x) as y:\n"
      "        z()\n",
      9);
}

TEST(Decompile, FallbackKeepsTheRestOfTheModule) {
  // except* in flow no structure fits has no state machine either: that
  // function falls back, the rest decompiles.
  auto data = compile_with("3.12.1",
                           "def f(a, b):\n    t = 0\n    for i in range(a):\n        for j in range(b):\n"
                           "            if i * j > 6:\n                return t\n            while j < 3:\n"
                           "                j += 1\n                if j == 2:\n                    break\n"
                           "            else:\n                continue\n            try:\n                t += j\n"
                           "            except* KeyError:\n                pass\n    return t\n"
                           "x = 1\n");
  if (data.empty()) GTEST_SKIP();
  std::string out = unveil::decompile_marshal(data, 12, "", {});
  EXPECT_NE(out.find("# unveil: could not decompile f:"), std::string::npos) << out;
  EXPECT_NE(out.find("raise RuntimeError('unveil could not decompile f')"), std::string::npos);
  EXPECT_NE(out.find("\nx = 1\n"), std::string::npos);
}

// Each kind of pattern, captures, a guard and a default case (3.10+: the
// subject copied per case, MATCH_* and the fail-pop blocks; 3.10's ROT_N and
// success bools, 3.11+'s SWAP/COPY and None results).
TEST(Decompile, MatchStatement) {
  const std::string source =
      "match p:\n    case [1, *rest]:\n        a = rest\n    case {'k': v, **kw}:\n        a = v\n"
      "    case Point(x, y=0) | Point(0, x):\n        a = x\n    case str() as s if s:\n        a = s\n"
      "    case None | True:\n        a = 0\n    case _:\n        a = None\n";
  expect_all(source, source, 10);
}

// A case body in a loop: `continue` and `break` (into 3.10+'s copied exit).
TEST(Decompile, MatchInLoop) {
  const std::string source =
      "def f(xs):\n    out = []\n    for t in xs:\n        match t:\n            case 'stop':\n                break\n"
      "            case [a, b]:\n                continue\n            case other:\n                out.append(other)\n"
      "    return out\n";
  expect_all(source, source, 10);
}

TEST(Decompile, BadInputThrows) {
  std::vector<std::uint8_t> junk = {0x55, 0x0d, 0x0d, 0x0a, 0, 0};
  EXPECT_THROW(unveil::decompile_pyc(junk), unveil::Error);
  EXPECT_THROW(unveil::decompile_marshal(junk, 99, "", {}), unveil::Error);
}

TEST(Decompile, WalrusIsRebuiltFromTheStoredCopy) {
  expect_all("if (n := len(a)) > 10:\n    print(n)\nwhile (c := f()):\n    g(c)\nx = y = h()\n",
             "if (n := len(a)) > 10:\n    print(n)\nwhile (c := f()):\n    g(c)\nx = y = h()\n");
}

// The return value waits on the stack while `e = None; del e` runs: it is
// spilled to a temporary, and folded back once the cleanup is removed.
TEST(Decompile, ReturnFromANamedHandler) {
  expect_all("def k(x):\n    try:\n        return g(x)\n    except E as e:\n        return e.args\n",
             "def k(x):\n    try:\n        return g(x)\n    except E as e:\n        return e.args\n", 9);
}

TEST(Decompile, LambdaAsAnAndOrOperand) {
  expect_all("x = a or (lambda: 1)\ny = a and (lambda q: q)\n", "x = a or (lambda: 1)\ny = a and (lambda q: q)\n");
}

TEST(Decompile, GlobalDeclaredInAClassBodyAndANestedFunction) {
  // Without the declarations the class body would store its own `n`, and
  // inner() would read outer()'s.
  expect_all(
      "n = 0\nclass C:\n    global n\n    n += 1\ndef outer():\n    n = 1\n    def inner():\n        global n\n"
      "        return n\n    return inner\n",
      "global n\nn = 0\n\n\nclass C:\n    global n\n    n += 1\n\n\ndef outer():\n    n = 1\n\n"
      "    def inner():\n        global n\n        return n\n\n    return inner\n");
}

TEST(Decompile, FutureAnnotationsAreWrittenAsTheirSource) {
  expect_all(
      "from __future__ import annotations\nx: list[int] = []\ndef f(a: A | None, *b: int) -> dict[str, 'B']:\n"
      "    return a\n",
      "from __future__ import annotations\nx: list[int] = []\n\n\ndef f(a: A | None, *b: int) -> dict[str, 'B']:\n"
      "    return a\n");
}

TEST(Decompile, AnnotationTextIsWrittenOnlyWhenItIsOneExpression) {
  using unveil::decompile::annotation_as_written;
  constexpr std::uint32_t kFuture = unveil::kCoFutureAnnotations;
  auto text = [](const char* s) { return unveil::ast::string(s); };
  auto show = [](const unveil::ast::ExprPtr& e) { return unveil::unparse_expr(*e); };
  EXPECT_EQ(show(annotation_as_written(text("list[int]"), kFuture)), "list[int]");
  EXPECT_EQ(show(annotation_as_written(text("Callable[[int], str] | None"), kFuture)), "Callable[[int], str] | None");
  EXPECT_EQ(show(annotation_as_written(text("a == b"), kFuture)), "a == b");
  EXPECT_EQ(show(annotation_as_written(text("Literal['#', ',']"), kFuture)), "Literal['#', ',']");
  // Without the future flag an annotation string is a string.
  EXPECT_EQ(show(annotation_as_written(text("list[int]"), 0)), "'list[int]'");
  // Text that would not stay one annotation stays a string.
  for (const char* bad : {"int = 5", "a, b", "x)\nimport os\n(y", "int  # c", "f(", "a; b", "'open", ""})
    EXPECT_EQ(show(annotation_as_written(text(bad), kFuture)), show(text(bad))) << bad;
}
