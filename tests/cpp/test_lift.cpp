// Lifting: the operator tables, the per-version rows, and symbolic execution
// of single blocks compiled by the pyenv Pythons (skipped where missing).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ast/build.h"
#include "cfg/graph.h"
#include "decode/decode.h"
#include "emit/unparse.h"
#include "lift/lifter.h"
#include "lift/name_views.h"
#include "lift/operators.h"
#include "lift/version_table.h"
#include "lifting.h"
#include "support/error.h"

namespace unveil {
namespace {

using testing::compile_module;
using testing::kSnippetPythons;
using testing::NoDefiner;

// The statements of the entry block of `source`'s module code.
std::string lift_entry(const std::string& version, const std::string& source) {
  auto code = compile_module(version, source);
  if (!code) return "<skip>";
  DecodedCode decoded = decode(code, *find_version(code->version_minor));
  cfg::Graph graph = cfg::build_graph(decoded);
  NoDefiner definer;
  lift::Lifter lifter(decoded, definer);
  lift::BlockEffect eff = lifter.run(graph, graph.entry(), {});
  return unparse(eff.stmts);
}

}  // namespace

TEST(LiftOperators, TablesByNameAndSymbol) {
  auto add = lift::binary_by_opname("BINARY_ADD");
  ASSERT_TRUE(add);
  EXPECT_EQ(add->op, ast::Operator::Add);
  EXPECT_FALSE(add->inplace);
  auto ifloor = lift::binary_by_opname("INPLACE_FLOOR_DIVIDE");
  ASSERT_TRUE(ifloor);
  EXPECT_EQ(ifloor->op, ast::Operator::FloorDiv);
  EXPECT_TRUE(ifloor->inplace);
  EXPECT_FALSE(lift::binary_by_opname("BINARY_SUBSCR"));
  auto pow_eq = lift::binary_by_symbol("**=");
  ASSERT_TRUE(pow_eq);
  EXPECT_EQ(pow_eq->op, ast::Operator::Pow);
  EXPECT_TRUE(pow_eq->inplace);
  EXPECT_FALSE(lift::binary_by_symbol("[]"));
  EXPECT_EQ(lift::compare_by_text("not in"), ast::CmpOperator::NotIn);
  EXPECT_FALSE(lift::compare_by_text("exception match"));
  EXPECT_EQ(lift::unary_by_opname("UNARY_INVERT"), ast::UnaryOperator::Invert);
}

TEST(LiftVersionRows, EveryVersionHasARow) {
  for (const VersionTraits* v : all_versions()) EXPECT_EQ(lift::version_row(v->minor).minor, v->minor);
  EXPECT_EQ(lift::version_row(11).null_slot, lift::NullSlot::Below);
  EXPECT_EQ(lift::version_row(13).null_slot, lift::NullSlot::Above);
  EXPECT_THROW(lift::version_row(7), Error);
}

TEST(LiftBlock, ExpressionsAndStores) {
  for (const char* v : kSnippetPythons) {
    std::string out = lift_entry(v, "x = -a.b[1:2] ** 2 + f(c, *d, k=e, **g)\ny.z += 1\nq[0] -= w\n");
    if (out == "<skip>") continue;
    EXPECT_EQ(out, "x = -a.b[1:2] ** 2 + f(c, *d, k=e, **g)\ny.z += 1\nq[0] -= w\nreturn None")
        << v;
  }
}

TEST(LiftBlock, UnpackingSwapsAndChains) {
  for (const char* v : kSnippetPythons) {
    std::string out = lift_entry(v, "a, (b, *c) = t\nd, e = e, d\nf = g = h()\n");
    if (out == "<skip>") continue;
    EXPECT_EQ(out, "a, (b, *c) = t\nd, e = (e, d)\nf = g = h()\nreturn None") << v;
  }
}

TEST(LiftBlock, StringsAndContainers) {
  for (const char* v : kSnippetPythons) {
    std::string out = lift_entry(v, "s = f'{a!r:>{w}}-{b}'\nl = [1, *m]\nd = {'k': 1, **n}\n");
    if (out == "<skip>") continue;
    EXPECT_EQ(out, "s = f'{a!r:>{w}}-{b}'\nl = [1, *m]\nd = {'k': 1, **n}\nreturn None") << v;
  }
}

TEST(LiftBlock, UnderflowNamesTheOffset) {
  // POP_TOP on an empty stack: a hand-made 3.11 code object.
  auto code = std::make_shared<CodeObject>();
  code->version_minor = 11;
  code->code = std::string("\x01\x00\x53\x00", 4);  // POP_TOP; RETURN_VALUE
  code->name = code->qualname = "bad";
  code->linetable = "";
  const VersionTraits& v = *find_version(11);
  DecodedCode decoded = decode(code, v);
  NoDefiner definer;
  try {
    // The graph's stack-depth check sees it first; the lifter would too.
    cfg::Graph graph = cfg::build_graph(decoded);
    lift::Lifter lifter(decoded, definer);
    lifter.run(graph, 0, {});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("stack underflow"), std::string::npos) << e.what();
    EXPECT_EQ(e.offset(), 0u);
  }
}

// The names a temporary must not take: many names (the table grows past its
// first size many times), the empty name, and names that differ only in length.
TEST(NameViews, FindsEveryInsertedNameAndNoOther) {
  std::vector<std::string> names;
  for (int k = 0; k < 3000; ++k) names.push_back(std::string("v").append(std::to_string(k)));
  names.push_back("");
  names.push_back("_t1");
  lift::NameViews set;
  for (const std::string& n : names) set.insert(n);
  for (const std::string& n : names) set.insert(n);  // again: no duplicates
  EXPECT_EQ(set.size(), names.size());
  for (const std::string& n : names) EXPECT_TRUE(set.contains(n)) << n;
  EXPECT_TRUE(set.contains(std::string_view()));  // the empty name, however spelt
  for (const char* n : {"v3000", "v", "_t", "_t10", "v10000", " "}) EXPECT_FALSE(set.contains(n)) << n;
  EXPECT_FALSE(lift::NameViews().contains(""));
}

// Names are views of the code object's name tables, not copies (NameText::borrowed):
// the tree never outlives the code object it was lifted from.
TEST(Lift, NamesBorrowTheCodeObjectsText) {
  for (const char* version : kSnippetPythons) {
    auto code = compile_module(version, "a_rather_long_target_name = a_rather_long_global_name\n");
    if (!code) continue;
    DecodedCode decoded = decode(code, *find_version(code->version_minor));
    cfg::Graph graph = cfg::build_graph(decoded);
    NoDefiner definer;
    lift::Lifter lifter(decoded, definer);
    lift::BlockEffect eff = lifter.run(graph, graph.entry(), {});
    ASSERT_FALSE(eff.stmts.empty()) << version;
    const auto* assign = eff.stmts[0]->as<ast::Assign>();
    ASSERT_TRUE(assign) << version;
    const auto* target = assign->targets[0]->as<ast::Name>();
    const auto* value = assign->value->as<ast::Name>();
    ASSERT_TRUE(target && value) << version;
    auto in_names = [&](const ast::NameText& n) {
      for (const std::string_view s : code->names)
        if (s.data() == n.view().data()) return true;
      return false;
    };
    EXPECT_TRUE(in_names(target->id)) << version;
    EXPECT_TRUE(in_names(value->id)) << version;
  }
}

}  // namespace unveil
