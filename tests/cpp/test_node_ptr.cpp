// Node counts are not atomic (ast/node_ptr.h): nothing may change one node's
// count from two threads at once. The nodes kept for good across calls are
// therefore one per thread, and whole decompiles run side by side.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "decompile/decompile.h"
#include "lift/lifter.h"
#include "python_snippets.h"

namespace {

TEST(NodePtr, KeptNodesArePerThread) {
  const unveil::ast::Expr* here = unveil::lift::Lifter::assertion_error().get();
  EXPECT_EQ(unveil::lift::Lifter::assertion_error().get(), here);  // the same within a thread
  const unveil::ast::Expr* there = nullptr;
  std::thread([&] { there = unveil::lift::Lifter::assertion_error().get(); }).join();
  EXPECT_NE(there, nullptr);
  EXPECT_NE(there, here);
}

TEST(NodePtr, DecompilesRunSideBySide) {
  // An assert lifts to the kept AssertionError name, and a function
  // ending in an if is tidied against the kept implicit return.
  const std::string source =
      "def f(x, m):\n"
      "    if x:\n"
      "        assert False, m\n"  // (comes out as `assert not x, m`: the same bytecode)
      "    while x > 1:\n"
      "        x -= 1\n"
      "    if x:\n"
      "        return 1\n";
  const std::vector<std::uint8_t> data = unveil::testing::marshal_snippet("3.11.7", source);
  if (data.empty()) GTEST_SKIP() << "no Python 3.11 here";
  const std::string expected = unveil::decompile_marshal(data, 11, "", {});
  ASSERT_NE(expected.find("assert not x, m"), std::string::npos) << expected;
  std::vector<std::string> got(4);
  std::vector<std::thread> threads;
  for (std::string& out : got)
    threads.emplace_back([&data, &out] {
      for (int i = 0; i < 200; ++i) out = unveil::decompile_marshal(data, 11, "", {});
    });
  for (std::thread& t : threads) t.join();
  for (const std::string& out : got) EXPECT_EQ(out, expected);
}

}  // namespace
