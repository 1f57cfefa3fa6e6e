// The node arena: nodes made inside a scope come from it, outlive it, and
// nodes made outside any scope come from the heap.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "ast/arena.h"
#include "ast/build.h"
#include "emit/unparse.h"

namespace unveil::ast {
namespace {

// A big call's memory is mostly nodes, and a node is as big as its biggest
// inline kind: a kind that outgrows these belongs in a Boxed (see Stmt).
static_assert(sizeof(Stmt) <= 88);
static_assert(sizeof(Expr) <= 80);

TEST(NodeArena, ScopeSetsAndRestoresTheCurrentArena) {
  EXPECT_EQ(NodeArena::current(), nullptr);
  {
    NodeArenaScope outer;
    NodeArena* a = NodeArena::current();
    ASSERT_NE(a, nullptr);
    {
      NodeArenaScope heap(false);
      EXPECT_EQ(NodeArena::current(), nullptr);
      {
        NodeArenaScope inner;
        EXPECT_NE(NodeArena::current(), nullptr);
        EXPECT_NE(NodeArena::current(), a);
      }
      EXPECT_EQ(NodeArena::current(), nullptr);
    }
    EXPECT_EQ(NodeArena::current(), a);
  }
  EXPECT_EQ(NodeArena::current(), nullptr);
}

TEST(NodeArena, NodesOutliveTheirScope) {
  StmtPtr kept;
  {
    NodeArenaScope scope;
    for (int i = 0; i < 5000; ++i) {  // several chunks, garbage freed as it goes
      ExprPtr garbage = binop(name("a"), Operator::Add, integer(i));
    }
    kept = assign(name("x", ExprContext::Store), binop(name("y"), Operator::Mult, integer(2)));
  }
  EXPECT_EQ(unparse(StmtList{kept}), "x = y * 2");
}

TEST(NodeArena, FreedNodesAreReusedWhileTheScopeLives) {
  NodeArenaScope scope;
  const Expr* first = name("a").get();  // freed at once
  ExprPtr second = name("b");
  EXPECT_EQ(second.get(), first);
}

// Once the call's trees are being dropped, freed nodes are left where they are
// (the arena is reset with its scope); the next scope recycles again.
TEST(NodeArena, DroppingStopsRecyclingUntilTheNextScope) {
  {
    NodeArenaScope scope;
    scope.dropping();
    const Expr* first = name("a").get();  // freed at once, not put on a free list
    ExprPtr second = name("b");
    EXPECT_NE(second.get(), first);
    EXPECT_EQ(unparse(StmtList{expr_stmt(second)}), "b");
  }
  NodeArenaScope next;
  const Expr* first = name("a").get();
  ExprPtr second = name("b");
  EXPECT_EQ(second.get(), first);
}

TEST(NodeArena, AnArenaNoNodeOutlivesServesTheNextScope) {
  NodeArena* first = nullptr;
  {
    NodeArenaScope scope;
    first = NodeArena::current();
    for (int i = 0; i < 5000; ++i) ExprPtr garbage = binop(name("a"), Operator::Add, integer(i));
  }
  NodeArenaScope next;
  EXPECT_EQ(NodeArena::current(), first);
  const Expr* made = name("b").get();  // from the start again, not from the old free lists
  EXPECT_NE(made, nullptr);
}

TEST(NodeArena, AnArenaWithNodesLeftIsNotReused) {
  StmtPtr kept;
  NodeArena* first = nullptr;
  {
    NodeArenaScope scope;
    first = NodeArena::current();
    kept = assign(name("x", ExprContext::Store), binop(name("y"), Operator::Mult, integer(2)));
  }
  {
    NodeArenaScope next;
    EXPECT_NE(NodeArena::current(), first);
    for (int i = 0; i < 5000; ++i) ExprPtr garbage = binop(name("zzzzzzzzzzzzzzzzzzzzzz"), Operator::Add, integer(i));
  }
  EXPECT_EQ(unparse(StmtList{kept}), "x = y * 2");
}

TEST(NodeArena, ATreeMayBeDroppedOnAnotherThread) {
  StmtList body;
  {
    NodeArenaScope scope;
    for (int i = 0; i < 1000; ++i) body.push_back(expr_stmt(call(name("f"), {integer(i)})));
  }
  std::thread([moved = std::move(body)]() mutable { moved.clear(); }).join();
  EXPECT_TRUE(body.empty());
}

// Boxed statement kinds read as the inline ones do, take their block from the
// arena, keep it alive like a node, and copy deeply.
TEST(NodeArena, BoxedKindsReadAsInlineOnesAndOutliveTheirScope) {
  StmtPtr kept;
  {
    NodeArenaScope scope;
    kept = class_def("C", {name("B")}, {},
                     {try_({pass()}, {except_handler(nullptr, std::nullopt, {return_()})})});
  }
  ASSERT_TRUE(kept->is<ClassDef>());
  EXPECT_FALSE(kept->is<Try>());
  EXPECT_EQ(kept->as<Try>(), nullptr);
  ASSERT_NE(kept->as<ClassDef>(), nullptr);
  EXPECT_TRUE(kept->as<ClassDef>()->body.at(0)->is<Try>());
  StmtPtr moved = at_line(kept, 7);
  EXPECT_NE(moved->as<ClassDef>(), kept->as<ClassDef>());
  EXPECT_EQ(moved->as<ClassDef>()->name, "C");
  std::string seen;
  moved->visit([&](const auto& n) {
    if constexpr (std::is_same_v<std::decay_t<decltype(n)>, ClassDef>) seen = n.name;
  });
  EXPECT_EQ(seen, "C");
  EXPECT_EQ(unparse(StmtList{kept}), "class C(B):\n    try:\n        pass\n    except:\n        return");
}

}  // namespace
}  // namespace unveil::ast
