// Unparsing: each case builds a tree with the factory helpers and compares the
// text with what Python 3.13's ast.unparse prints for the same source.
//
// Case macros, all (source, expected, tree...):
//   UNPARSE_EXPR / UNPARSE_STMTS: expected is exactly
//     ast.unparse(ast.parse(source[, mode="eval"])) on 3.13 (BlankLines::AstUnparse).
//   ..._OWN: a deliberate difference from ast.unparse (see emit/unparse.h); the
//     text still means the same thing and parses on 3.8 where the construct exists.
// The raw strings are R"py(...)py" so that a script can check every case by hand
// against real Pythons (one leading and one trailing newline are dropped).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "ast/build.h"
#include "ast_builders.h"
#include "emit/unparse.h"
#include "support/error.h"

namespace unveil::ast {
namespace {

using enum unveil::ast::Operator;
using enum unveil::ast::UnaryOperator;
using enum unveil::ast::BoolOperator;
using enum unveil::ast::CmpOperator;

std::string strip(std::string_view text) {
  if (!text.empty() && text.front() == '\n') text.remove_prefix(1);
  if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  return std::string(text);
}

UnparseOptions ast_style() {
  UnparseOptions options;
  options.blank_lines = BlankLines::AstUnparse;
  return options;
}

using testing::body, testing::exprs, testing::n, testing::num, testing::st, testing::txt;
ObjectRef int_object(std::int64_t v) { return make_object(IntValue{v, {}, v < 0}); }

#define UNPARSE_EXPR(source, expected, ...) \
  EXPECT_EQ(unparse_expr(*(__VA_ARGS__)), strip(expected)) << "source: " << (source)
#define UNPARSE_EXPR_OWN UNPARSE_EXPR
#define UNPARSE_STMTS(source, expected, ...) \
  EXPECT_EQ(unparse(StmtList{__VA_ARGS__}, ast_style()), strip(expected)) << "source: " << (source)
#define UNPARSE_STMTS_OWN UNPARSE_STMTS

// --- precedence --------------------------------------------------------------

TEST(UnparsePrecedence, Arithmetic) {
  UNPARSE_EXPR(R"py((a + b) * c)py", R"py((a + b) * c)py",
               binop(binop(n("a"), Add, n("b")), Mult, n("c")));
  UNPARSE_EXPR(R"py(a + b * c)py", R"py(a + b * c)py",
               binop(n("a"), Add, binop(n("b"), Mult, n("c"))));
  UNPARSE_EXPR(R"py(a - (b - c))py", R"py(a - (b - c))py",
               binop(n("a"), Sub, binop(n("b"), Sub, n("c"))));
  UNPARSE_EXPR(R"py(a - b - c)py", R"py(a - b - c)py",
               binop(binop(n("a"), Sub, n("b")), Sub, n("c")));
  UNPARSE_EXPR(R"py(a // b % c @ d)py", R"py(a // b % c @ d)py",
               binop(binop(binop(n("a"), FloorDiv, n("b")), Mod, n("c")), MatMult, n("d")));
  UNPARSE_EXPR(R"py(a << (b >> c))py", R"py(a << (b >> c))py",
               binop(n("a"), LShift, binop(n("b"), RShift, n("c"))));
  UNPARSE_EXPR(R"py(a | b ^ c & d)py", R"py(a | b ^ c & d)py",
               binop(n("a"), BitOr, binop(n("b"), BitXor, binop(n("c"), BitAnd, n("d")))));
  UNPARSE_EXPR(R"py((a | b) & c)py", R"py((a | b) & c)py",
               binop(binop(n("a"), BitOr, n("b")), BitAnd, n("c")));
  UNPARSE_EXPR(R"py(a / (b * c))py", R"py(a / (b * c))py",
               binop(n("a"), Div, binop(n("b"), Mult, n("c"))));
}

TEST(UnparsePrecedence, PowerAndUnary) {
  UNPARSE_EXPR(R"py(-x ** 2)py", R"py(-x ** 2)py", unaryop(USub, binop(n("x"), Pow, num(2))));
  UNPARSE_EXPR(R"py((-x) ** 2)py", R"py((-x) ** 2)py", binop(unaryop(USub, n("x")), Pow, num(2)));
  UNPARSE_EXPR(R"py(a ** b ** c)py", R"py(a ** b ** c)py",
               binop(n("a"), Pow, binop(n("b"), Pow, n("c"))));
  UNPARSE_EXPR(R"py((a ** b) ** c)py", R"py((a ** b) ** c)py",
               binop(binop(n("a"), Pow, n("b")), Pow, n("c")));
  UNPARSE_EXPR(R"py(a ** -b)py", R"py(a ** (-b))py", binop(n("a"), Pow, unaryop(USub, n("b"))));
  UNPARSE_EXPR(R"py(~(a + b))py", R"py(~(a + b))py", unaryop(Invert, binop(n("a"), Add, n("b"))));
  UNPARSE_EXPR(R"py(-(-1))py", R"py(--1)py", unaryop(USub, unaryop(USub, num(1))));
  UNPARSE_EXPR(R"py(+a * -b)py", R"py(+a * -b)py",
               binop(unaryop(UAdd, n("a")), Mult, unaryop(USub, n("b"))));
}

TEST(UnparsePrecedence, BooleanAndComparison) {
  UNPARSE_EXPR(R"py(not a == b)py", R"py(not a == b)py", unaryop(Not, compare(n("a"), Eq, n("b"))));
  UNPARSE_EXPR(R"py((not a) + b)py", R"py((not a) + b)py",
               binop(unaryop(Not, n("a")), Add, n("b")));
  UNPARSE_EXPR(R"py(not (a and b))py", R"py(not (a and b))py",
               unaryop(Not, boolop(And, exprs(n("a"), n("b")))));
  UNPARSE_EXPR(R"py((not a) and b)py", R"py(not a and b)py",
               boolop(And, exprs(unaryop(Not, n("a")), n("b"))));
  UNPARSE_EXPR(R"py(a or b and c or d)py", R"py(a or (b and c) or d)py",
               boolop(Or, exprs(n("a"), boolop(And, exprs(n("b"), n("c"))), n("d"))));
  UNPARSE_EXPR(R"py(a and b and c)py", R"py(a and b and c)py",
               boolop(And, exprs(n("a"), n("b"), n("c"))));
  UNPARSE_EXPR(R"py((a or b) and c)py", R"py((a or b) and c)py",
               boolop(And, exprs(boolop(Or, exprs(n("a"), n("b"))), n("c"))));
  UNPARSE_EXPR(R"py(a < b < c)py", R"py(a < b < c)py",
               compare(n("a"), std::vector<CmpOperator>{Lt, Lt}, exprs(n("b"), n("c"))));
  UNPARSE_EXPR(R"py((a < b) < c)py", R"py((a < b) < c)py",
               compare(compare(n("a"), Lt, n("b")), Lt, n("c")));
  UNPARSE_EXPR(R"py(a is not b not in c)py", R"py(a is not b not in c)py",
               compare(n("a"), std::vector<CmpOperator>{IsNot, NotIn}, exprs(n("b"), n("c"))));
  UNPARSE_EXPR(R"py(a + 1 >= b | c)py", R"py(a + 1 >= b | c)py",
               compare(binop(n("a"), Add, num(1)), GtE, binop(n("b"), BitOr, n("c"))));
}

TEST(UnparsePrecedence, ConditionalAndLambda) {
  UNPARSE_EXPR(R"py(a if b else c if d else e)py", R"py(a if b else c if d else e)py",
               if_exp(n("b"), n("a"), if_exp(n("d"), n("c"), n("e"))));
  UNPARSE_EXPR(R"py((a if b else c) if d else e)py", R"py((a if b else c) if d else e)py",
               if_exp(n("d"), if_exp(n("b"), n("a"), n("c")), n("e")));
  UNPARSE_EXPR(R"py((a if b else c) + 1)py", R"py((a if b else c) + 1)py",
               binop(if_exp(n("b"), n("a"), n("c")), Add, num(1)));
  UNPARSE_EXPR(R"py(a if (lambda: 1) else b)py", R"py(a if (lambda: 1) else b)py",
               if_exp(lambda({}, num(1)), n("a"), n("b")));
  UNPARSE_EXPR(R"py((lambda: 1)())py", R"py((lambda: 1)())py", call(lambda({}, num(1))));
  UNPARSE_EXPR(R"py(lambda x, *y, z=1, **k: 0)py", R"py(lambda x, *y, z=1, **k: 0)py",
               lambda(Arguments{.args = {arg("x")},
                                .vararg = arg("y"),
                                .kwonlyargs = {arg("z")},
                                .kw_defaults = {num(1)},
                                .kwarg = arg("k")},
                      num(0)));
  UNPARSE_EXPR(
      R"py(lambda a, b=(1, 2): a if b else lambda: b)py",
      R"py(lambda a, b=(1, 2): a if b else lambda: b)py",
      lambda(Arguments{.args = {arg("a"), arg("b")}, .defaults = {tuple(exprs(num(1), num(2)))}},
             if_exp(n("b"), n("a"), lambda({}, n("b")))));
  UNPARSE_EXPR(R"py(lambda: (yield))py", R"py(lambda: (yield))py", lambda({}, yield_()));
  UNPARSE_EXPR(R"py((a if b else c) < d)py", R"py((a if b else c) < d)py",
               compare(if_exp(n("b"), n("a"), n("c")), Lt, n("d")));
}

TEST(UnparsePrecedence, YieldAwaitWalrus) {
  UNPARSE_EXPR(R"py((yield x))py", R"py((yield x))py", yield_(n("x")));
  UNPARSE_EXPR(R"py((yield a + b))py", R"py((yield (a + b)))py",
               yield_(binop(n("a"), Add, n("b"))));
  UNPARSE_EXPR(R"py((yield from g))py", R"py((yield from g))py", yield_from(n("g")));
  UNPARSE_EXPR(R"py(f((yield)))py", R"py(f((yield)))py", call(n("f"), exprs(yield_())));
  UNPARSE_EXPR(R"py(await x + 1)py", R"py(await x + 1)py", binop(await_(n("x")), Add, num(1)));
  UNPARSE_EXPR(R"py((await x).y)py", R"py((await x).y)py", attribute(await_(n("x")), "y"));
  UNPARSE_EXPR(R"py(await (a + b))py", R"py(await (a + b))py", await_(binop(n("a"), Add, n("b"))));
  UNPARSE_EXPR(R"py(-(await x))py", R"py(-await x)py", unaryop(USub, await_(n("x"))));
  UNPARSE_EXPR(R"py((a := 1))py", R"py((a := 1))py", named_expr(st("a"), num(1)));
  UNPARSE_EXPR(R"py(f(a := 1))py", R"py(f((a := 1)))py",
               call(n("f"), exprs(named_expr(st("a"), num(1)))));
  UNPARSE_EXPR(R"py((y := a + b))py", R"py((y := (a + b)))py",
               named_expr(st("y"), binop(n("a"), Add, n("b"))));
  UNPARSE_EXPR(R"py(x[a := 1])py", R"py(x[(a := 1)])py",
               subscript(n("x"), named_expr(st("a"), num(1))));
}

TEST(UnparsePrecedence, AtomsAttributesCalls) {
  UNPARSE_EXPR(R"py((a, b).c)py", R"py((a, b).c)py", attribute(tuple(exprs(n("a"), n("b"))), "c"));
  UNPARSE_EXPR(R"py((a + b).c)py", R"py((a + b).c)py", attribute(binop(n("a"), Add, n("b")), "c"));
  UNPARSE_EXPR(R"py(a.b.c(d)[e])py", R"py(a.b.c(d)[e])py",
               subscript(call(attribute(attribute(n("a"), "b"), "c"), exprs(n("d"))), n("e")));
  UNPARSE_EXPR(R"py(f(a)(b))py", R"py(f(a)(b))py",
               call(call(n("f"), exprs(n("a"))), exprs(n("b"))));
  UNPARSE_EXPR_OWN(R"py(1 .real)py", R"py((1).real)py", attribute(num(1), "real"));
  UNPARSE_EXPR(R"py(1.5.real)py", R"py(1.5.real)py", attribute(floating(1.5), "real"));
  UNPARSE_EXPR(
      R"py(f(*args, k=1, **kw))py", R"py(f(*args, k=1, **kw))py",
      call(n("f"), exprs(starred(n("args"))), {keyword("k", num(1)), double_star(n("kw"))}));
  UNPARSE_EXPR(R"py(f(*(a or b)))py", R"py(f(*(a or b)))py",
               call(n("f"), exprs(starred(boolop(Or, exprs(n("a"), n("b")))))));
  UNPARSE_EXPR(R"py(f(**a, b=c))py", R"py(f(**a, b=c))py",
               call(n("f"), {}, {double_star(n("a")), keyword("b", n("c"))}));
  UNPARSE_EXPR(
      R"py(f(a, key=lambda x: -x))py", R"py(f(a, key=lambda x: -x))py",
      call(n("f"), exprs(n("a")),
           {keyword("key", lambda(Arguments{.args = {arg("x")}}, unaryop(USub, n("x"))))}));
}

TEST(UnparsePrecedence, GeneratorArguments) {
  auto gen = generator_exp(n("x"), {comprehension(st("x"), n("y"))});
  UNPARSE_EXPR_OWN(R"py(f(x for x in y))py", R"py(f(x for x in y))py", call(n("f"), exprs(gen)));
  UNPARSE_EXPR(R"py(f(a, (x for x in y)))py", R"py(f(a, (x for x in y)))py",
               call(n("f"), exprs(n("a"), gen)));
  UNPARSE_EXPR(R"py(f((x for x in y), k=1))py", R"py(f((x for x in y), k=1))py",
               call(n("f"), exprs(gen), {keyword("k", num(1))}));
  UNPARSE_EXPR(R"py((x for x in y))py", R"py((x for x in y))py", gen);
  UNPARSE_EXPR(R"py((x for x in y).send)py", R"py((x for x in y).send)py", attribute(gen, "send"));
}

// --- containers, subscripts and comprehensions ---------------------------------

TEST(UnparseContainers, TuplesListsSetsDicts) {
  UNPARSE_EXPR(R"py(())py", R"py(())py", tuple({}));
  UNPARSE_EXPR(R"py((1,))py", R"py((1,))py", tuple(exprs(num(1))));
  UNPARSE_EXPR(R"py((a, *b))py", R"py((a, *b))py", tuple(exprs(n("a"), starred(n("b")))));
  UNPARSE_EXPR(R"py(((a, b), c))py", R"py(((a, b), c))py",
               tuple(exprs(tuple(exprs(n("a"), n("b"))), n("c"))));
  UNPARSE_EXPR(R"py([*a, *b])py", R"py([*a, *b])py", list(exprs(starred(n("a")), starred(n("b")))));
  UNPARSE_EXPR(R"py([])py", R"py([])py", list({}));
  UNPARSE_EXPR(R"py({*()})py", R"py({*()})py", set({}));
  UNPARSE_EXPR(R"py({a, (b, c)})py", R"py({a, (b, c)})py",
               set(exprs(n("a"), tuple(exprs(n("b"), n("c"))))));
  UNPARSE_EXPR(R"py({**a, 'b': 1})py", R"py({**a, 'b': 1})py",
               dict(exprs(nullptr, txt("b")), exprs(n("a"), num(1))));
  UNPARSE_EXPR(R"py({**(a | b)})py", R"py({**a | b})py",
               dict(exprs(nullptr), exprs(binop(n("a"), BitOr, n("b")))));
  UNPARSE_EXPR(R"py({**(a or b)})py", R"py({**(a or b)})py",
               dict(exprs(nullptr), exprs(boolop(Or, exprs(n("a"), n("b"))))));
  UNPARSE_EXPR(R"py({a: (yield), b: lambda: 1})py", R"py({a: (yield), b: lambda: 1})py",
               dict(exprs(n("a"), n("b")), exprs(yield_(), lambda({}, num(1)))));
  UNPARSE_EXPR(R"py({})py", R"py({})py", dict({}, {}));
}

TEST(UnparseContainers, Subscripts) {
  UNPARSE_EXPR(R"py(x[a, b])py", R"py(x[a, b])py", subscript(n("x"), tuple(exprs(n("a"), n("b")))));
  UNPARSE_EXPR(R"py(x[a:b, c])py", R"py(x[a:b, c])py",
               subscript(n("x"), tuple(exprs(slice(n("a"), n("b")), n("c")))));
  UNPARSE_EXPR(
      R"py(x[1:2, ::3])py", R"py(x[1:2, ::3])py",
      subscript(n("x"), tuple(exprs(slice(num(1), num(2)), slice(nullptr, nullptr, num(3))))));
  UNPARSE_EXPR(R"py(x[a:b])py", R"py(x[a:b])py", subscript(n("x"), slice(n("a"), n("b"))));
  UNPARSE_EXPR(R"py(x[::2])py", R"py(x[::2])py",
               subscript(n("x"), slice(nullptr, nullptr, num(2))));
  UNPARSE_EXPR(R"py(x[:])py", R"py(x[:])py", subscript(n("x"), slice()));
  UNPARSE_EXPR(R"py(x[a:])py", R"py(x[a:])py", subscript(n("x"), slice(n("a"))));
  UNPARSE_EXPR(R"py(x[a,])py", R"py(x[a,])py", subscript(n("x"), tuple(exprs(n("a")))));
  // `x[*a, b]` is 3.11+ syntax; the parenthesised tuple is the same tree on every version.
  UNPARSE_EXPR_OWN(R"py(x[*a, b])py", R"py(x[(*a, b)])py",
                   subscript(n("x"), tuple(exprs(starred(n("a")), n("b")))));
  UNPARSE_EXPR(R"py(x[()])py", R"py(x[()])py", subscript(n("x"), tuple({})));
  UNPARSE_EXPR(R"py(x[-1])py", R"py(x[-1])py", subscript(n("x"), unaryop(USub, num(1))));
  UNPARSE_EXPR(R"py(x[a + 1:len(x) - 1])py", R"py(x[a + 1:len(x) - 1])py",
               subscript(n("x"), slice(binop(n("a"), Add, num(1)),
                                       binop(call(n("len"), exprs(n("x"))), Sub, num(1)))));
}

TEST(UnparseContainers, Comprehensions) {
  UNPARSE_EXPR(R"py([x for x in y if p if q])py", R"py([x for x in y if p if q])py",
               list_comp(n("x"), {comprehension(st("x"), n("y"), exprs(n("p"), n("q")))}));
  UNPARSE_EXPR(
      R"py({a: b for a, b in c})py", R"py({a: b for a, b in c})py",
      dict_comp(n("a"), n("b"),
                {comprehension(tuple(exprs(st("a"), st("b")), ExprContext::Store), n("c"))}));
  UNPARSE_EXPR(R"py({x for x in y for y in z})py", R"py({x for x in y for y in z})py",
               set_comp(n("x"), {comprehension(st("x"), n("y")), comprehension(st("y"), n("z"))}));
  UNPARSE_EXPR(R"py([x async for x in y])py", R"py([x async for x in y])py",
               list_comp(n("x"), {comprehension(st("x"), n("y"), {}, true)}));
  UNPARSE_EXPR(R"py([x for x in (a if b else c)])py", R"py([x for x in (a if b else c)])py",
               list_comp(n("x"), {comprehension(st("x"), if_exp(n("b"), n("a"), n("c")))}));
  UNPARSE_EXPR(R"py([x for x in (lambda: y)])py", R"py([x for x in (lambda: y)])py",
               list_comp(n("x"), {comprehension(st("x"), lambda({}, n("y")))}));
  UNPARSE_EXPR(R"py([(x, y) for x in a if (x if y else z)])py",
               R"py([(x, y) for x in a if (x if y else z)])py",
               list_comp(tuple(exprs(n("x"), n("y"))),
                         {comprehension(st("x"), n("a"), exprs(if_exp(n("y"), n("x"), n("z"))))}));
  UNPARSE_EXPR(R"py([x for x in a or b if not x])py", R"py([x for x in a or b if not x])py",
               list_comp(n("x"), {comprehension(st("x"), boolop(Or, exprs(n("a"), n("b"))),
                                                exprs(unaryop(Not, n("x"))))}));
}

// --- constants -----------------------------------------------------------------

TEST(UnparseConstants, Literals) {
  UNPARSE_EXPR(R"py(None)py", R"py(None)py", none());
  UNPARSE_EXPR(R"py(True)py", R"py(True)py", boolean(true));
  UNPARSE_EXPR(R"py(...)py", R"py(...)py", ellipsis());
  UNPARSE_EXPR(R"py(123)py", R"py(123)py", num(123));
  UNPARSE_EXPR(R"py(0.1)py", R"py(0.1)py", floating(0.1));
  UNPARSE_EXPR(R"py(1e16)py", R"py(1e+16)py", floating(1e16));
  UNPARSE_EXPR(R"py(2j)py", R"py(2j)py", complex_number(0, 2));
  UNPARSE_EXPR(R"py('a\nb')py", R"py('a\nb')py", txt("a\nb"));
  UNPARSE_EXPR(R"py("it's")py", R"py("it's")py", txt("it's"));
  UNPARSE_EXPR(R"py(b'\x00\xff"')py", R"py(b'\x00\xff"')py", bytes(std::string("\0\xff\"", 3)));
  UNPARSE_EXPR(R"py(1e309)py", R"py(1e309)py", floating(std::numeric_limits<double>::infinity()));
  UNPARSE_EXPR(R"py(x ** 1e309)py", R"py(x ** 1e309)py", binop(n("x"), Pow, floating(INFINITY)));
}

TEST(UnparseConstants, ValuesParsingNeverProduces) {
  // Negative numbers, folded containers and non-finite values come from code objects.
  UNPARSE_EXPR_OWN(R"py((-1) ** 2)py", R"py((-1) ** 2)py", binop(num(-1), Pow, num(2)));
  UNPARSE_EXPR_OWN(R"py((-1).real)py", R"py((-1).real)py", attribute(num(-1), "real"));
  UNPARSE_EXPR_OWN(R"py(x - -1)py", R"py(x - -1)py", binop(n("x"), Sub, num(-1)));
  UNPARSE_EXPR_OWN(R"py(-1e309)py", R"py(-1e309)py", floating(-INFINITY));
  UNPARSE_EXPR_OWN(R"py(1e309 - 1e309)py", R"py((1e309-1e309))py", floating(NAN));
  UNPARSE_EXPR_OWN(R"py(complex(1e309, 1e309 - 1e309))py", R"py(complex(1e309, (1e309-1e309)))py",
                   complex_number(INFINITY, NAN));
  UNPARSE_EXPR_OWN(R"py(1 + 2j)py", R"py((1+2j))py", complex_number(1, 2));
  auto folded =
      make_object(TupleValue{{int_object(1), make_object(StrValue{"a"}),
                              make_object(TupleValue{{make_object(FloatValue{INFINITY})}})}});
  UNPARSE_EXPR_OWN(R"py((1, 'a', (1e309,)))py", R"py((1, 'a', (1e309,)))py", constant(folded));
  auto fs = make_object(FrozenSetValue{{int_object(1), int_object(2)}});
  UNPARSE_EXPR_OWN(R"py(x in frozenset({1, 2}))py", R"py(x in frozenset({1, 2}))py",
                   compare(n("x"), In, constant(fs)));
  UNPARSE_EXPR_OWN(R"py(frozenset())py", R"py(frozenset())py",
                   constant(make_object(FrozenSetValue{})));
  UNPARSE_EXPR_OWN(R"py(slice(1, None, None))py", R"py(slice(1, None, None))py",
                   constant(make_object(SliceValue{int_object(1), make_object(NoneValue{}),
                                                   make_object(NoneValue{})})));
}

TEST(UnparseConstants, Placeholders) {
  EXPECT_EQ(unparse_expr(*call(placeholder("torch.float32", 0))), "torch.float32()");
  EXPECT_EQ(unparse_expr(*placeholder("<class 'M'>", 1)), "_class__M__");
  UnparseOptions options;
  options.name_mapper = [](std::string_view name, NameRole role) {
    return role == NameRole::Placeholder ? "__ph_" + std::string(name) : std::string(name);
  };
  EXPECT_EQ(unparse_expr(*binop(n("x"), Add, placeholder("dtype", 3)), options), "x + __ph_dtype");
}

// --- f-strings -------------------------------------------------------------------

TEST(UnparseFString, Basics) {
  UNPARSE_EXPR(R"py(f'{x}abc')py", R"py(f'{x}abc')py",
               joined_str(exprs(formatted_value(n("x")), txt("abc"))));
  UNPARSE_EXPR(R"py(f'{x!r:>{w}}')py", R"py(f'{x!r:>{w}}')py",
               joined_str(exprs(formatted_value(
                   n("x"), 'r', joined_str(exprs(txt(">"), formatted_value(n("w"))))))));
  UNPARSE_EXPR(R"py(f"it's {x}")py", R"py(f"it's {x}")py",
               joined_str(exprs(txt("it's "), formatted_value(n("x")))));
  UNPARSE_EXPR(R"py(f'{a!s}{b!a}')py", R"py(f'{a!s}{b!a}')py",
               joined_str(exprs(formatted_value(n("a"), 's'), formatted_value(n("b"), 'a'))));
  UNPARSE_EXPR(R"py(f'{x:.2f}')py", R"py(f'{x:.2f}')py",
               joined_str(exprs(formatted_value(n("x"), -1, joined_str(exprs(txt(".2f")))))));
  UNPARSE_EXPR(R"py(f'{x}\n{{}}')py", R"py(f'{x}\n{{}}')py",
               joined_str(exprs(formatted_value(n("x")), txt("\n{}"))));
  UNPARSE_EXPR(R"py(f'{ {1: 2}}')py", R"py(f'{ {1: 2}}')py",
               joined_str(exprs(formatted_value(dict(exprs(num(1)), exprs(num(2)))))));
  UNPARSE_EXPR(R"py(f'{(a if b else c)}')py", R"py(f'{(a if b else c)}')py",
               joined_str(exprs(formatted_value(if_exp(n("b"), n("a"), n("c"))))));
  UNPARSE_EXPR(R"py(f'{(lambda: 1)()}')py", R"py(f'{(lambda: 1)()}')py",
               joined_str(exprs(formatted_value(call(lambda({}, num(1)))))));
  UNPARSE_EXPR(R"py(f'{a + b!r}')py", R"py(f'{a + b!r}')py",
               joined_str(exprs(formatted_value(binop(n("a"), Add, n("b")), 'r'))));
  UNPARSE_EXPR(R"py(f'{x=}')py", R"py(f'x={x!r}')py",
               joined_str(exprs(txt("x="), formatted_value(n("x"), 'r'))));
  UNPARSE_EXPR(R"py(f'{(x, y)}')py", R"py(f'{(x, y)}')py",
               joined_str(exprs(formatted_value(tuple(exprs(n("x"), n("y")))))));
}

TEST(UnparseFString, QuotesValidBefore312) {
  // 3.13 prints f'{x['a']}', which 3.8-3.11 reject.
  UNPARSE_EXPR_OWN(R"py(f"{x['a']}")py", R"py(f"{x['a']}")py",
                   joined_str(exprs(formatted_value(subscript(n("x"), txt("a"))))));
  UNPARSE_EXPR_OWN(R"py(f"{x['a']}\"")py", R"py(f'{x["a"]}"')py",
                   joined_str(exprs(formatted_value(subscript(n("x"), txt("a"))), txt("\""))));
  UNPARSE_EXPR_OWN(
      R"py(f"{f'{x!r}'}")py", R"py(f"{f'{x!r}'}")py",
      joined_str(exprs(formatted_value(joined_str(exprs(formatted_value(n("x"), 'r')))))));
  UNPARSE_EXPR_OWN(
      R"py(f'''{x["k"]}'s "b"''')py", R"py(f'{x["k"]}\'s "b"')py",
      joined_str(exprs(formatted_value(subscript(n("x"), txt("k"))), txt("'s \"b\""))));
  // Inside a triple-quoted f-string, a lone quote of the same character is fine before 3.12.
  UNPARSE_EXPR_OWN(R"py(f"{'both\'\"'}")py", R"py(f"""{'''both'"'''}""")py",
                   joined_str(exprs(formatted_value(txt("both'\"")))));
  UNPARSE_EXPR_OWN(
      R"py(f"{'a' + x:{'>'}10}")py", R"py(f"{'a' + x:{'>'}10}")py",
      joined_str(exprs(formatted_value(binop(txt("a"), Add, n("x")), -1,
                                       joined_str(exprs(formatted_value(txt(">")), txt("10")))))));
}

TEST(UnparseFString, FallbackWhenNoQuotesWork) {
  // A backslash inside a replacement field needs 3.12.
  auto join = joined_str(exprs(
      txt("<"), formatted_value(call(attribute(txt("\n"), "join"), exprs(n("x")))), txt(">")));
  UNPARSE_EXPR_OWN(R"py(f'<{"\n".join(x)}>')py", R"py('<' + format('\n'.join(x)) + '>')py", join);
  UNPARSE_EXPR_OWN(
      R"py(f'{"\n".join(x)!r:>10}' * 2)py", R"py(format(repr('\n'.join(x)), '>10') * 2)py",
      binop(joined_str(exprs(formatted_value(call(attribute(txt("\n"), "join"), exprs(n("x"))), 'r',
                                             joined_str(exprs(txt(">10")))))),
            Mult, num(2)));
  UNPARSE_EXPR_OWN(
      R"py(f'a{"\t"}b' * 2)py", R"py(('a' + format('\t') + 'b') * 2)py",
      binop(joined_str(exprs(txt("a"), formatted_value(txt("\t")), txt("b"))), Mult, num(2)));
  UnparseOptions py312;
  py312.min_python_minor = 12;
  EXPECT_EQ(unparse_expr(*join, py312), R"(f'<{'\n'.join(x)}>')");
}

TEST(UnparseFString, TemplateStrings) {
  EXPECT_EQ(unparse_expr(*template_str(
                exprs(txt("a "), interpolation(n("x"), "x", 'r', joined_str(exprs(txt(">3"))))))),
            "t'a {x!r:>3}'");
  EXPECT_EQ(
      unparse_expr(*template_str(exprs(interpolation(subscript(n("d"), txt("k")), "d['k']")))),
      "t\"{d['k']}\"");
  EXPECT_EQ(unparse_expr(*template_str(
                exprs(interpolation(call(attribute(txt("\n"), "join"), exprs(n("x"))), "")))),
            R"(t'{'\n'.join(x)}')");
  EXPECT_EQ(unparse_expr(*template_str({})), "t''");
}

// --- statements ------------------------------------------------------------------

TEST(UnparseStatements, Assignments) {
  UNPARSE_STMTS(R"py(x = 1)py", R"py(x = 1)py", assign(st("x"), num(1)));
  UNPARSE_STMTS(R"py(a = b = c)py", R"py(a = b = c)py",
                assign_multi(exprs(st("a"), st("b")), n("c")));
  UNPARSE_STMTS(R"py((a, b) = c)py", R"py(a, b = c)py",
                assign(tuple(exprs(st("a"), st("b")), ExprContext::Store), n("c")));
  UNPARSE_STMTS(R"py([a, b] = c)py", R"py([a, b] = c)py",
                assign(list(exprs(st("a"), st("b")), ExprContext::Store), n("c")));
  UNPARSE_STMTS(R"py(a, = b)py", R"py(a, = b)py",
                assign(tuple(exprs(st("a")), ExprContext::Store), n("b")));
  UNPARSE_STMTS(R"py(x = a, *b)py", R"py(x = (a, *b))py",
                assign(st("x"), tuple(exprs(n("a"), starred(n("b"))))));
  UNPARSE_STMTS(R"py(x = yield)py", R"py(x = (yield))py", assign(st("x"), yield_()));
  UNPARSE_STMTS(R"py(x = lambda: 1)py", R"py(x = lambda: 1)py",
                assign(st("x"), lambda({}, num(1))));
  UNPARSE_STMTS(R"py(x += 1)py", R"py(x += 1)py", aug_assign(st("x"), Add, num(1)));
  UNPARSE_STMTS(R"py(x **= 2)py", R"py(x **= 2)py", aug_assign(st("x"), Pow, num(2)));
  UNPARSE_STMTS(R"py(x.y //= (a, b))py", R"py(x.y //= (a, b))py",
                aug_assign(attribute(n("x"), "y", ExprContext::Store), FloorDiv,
                           tuple(exprs(n("a"), n("b")))));
  UNPARSE_STMTS(R"py(x: int = 1)py", R"py(x: int = 1)py", ann_assign(st("x"), n("int"), num(1)));
  UNPARSE_STMTS(R"py((x): int)py", R"py((x): int)py",
                ann_assign(st("x"), n("int"), nullptr, false));
  UNPARSE_STMTS(R"py(a.b: int)py", R"py(a.b: int)py",
                ann_assign(attribute(n("a"), "b", ExprContext::Store), n("int"), nullptr, false));
  UNPARSE_STMTS(R"py(x[0], y.z = *a, b)py", R"py(x[0], y.z = (*a, b))py",
                assign(tuple(exprs(subscript(n("x"), num(0), ExprContext::Store),
                                   attribute(n("y"), "z", ExprContext::Store)),
                             ExprContext::Store),
                       tuple(exprs(starred(n("a")), n("b")))));
}

TEST(UnparseStatements, SimpleStatements) {
  UNPARSE_STMTS(R"py(del a, b[0])py", R"py(del a, b[0])py",
                delete_(exprs(n("a"), subscript(n("b"), num(0)))));
  UNPARSE_STMTS(R"py(pass)py", R"py(pass)py", pass());
  UNPARSE_STMTS(R"py(raise)py", R"py(raise)py", raise_());
  UNPARSE_STMTS(R"py(raise E('m') from c)py", R"py(raise E('m') from c)py",
                raise_(call(n("E"), exprs(txt("m"))), n("c")));
  UNPARSE_STMTS(R"py(assert x, 'm')py", R"py(assert x, 'm')py", assert_(n("x"), txt("m")));
  UNPARSE_STMTS(R"py(assert (a, b))py", R"py(assert (a, b))py",
                assert_(tuple(exprs(n("a"), n("b")))));
  UNPARSE_STMTS(R"py(global a, b)py", R"py(global a, b)py", global({"a", "b"}));
  UNPARSE_STMTS(R"py(import a.b as c, d)py", R"py(import a.b as c, d)py",
                import_({alias("a.b", "c"), alias("d")}));
  UNPARSE_STMTS(R"py(from . import x as y)py", R"py(from . import x as y)py",
                import_from("", {alias("x", "y")}, 1));
  UNPARSE_STMTS(R"py(from ..a.b import *)py", R"py(from ..a.b import *)py",
                import_from("a.b", {alias("*")}, 2));
  UNPARSE_STMTS(R"py(from a import (b, c))py", R"py(from a import b, c)py",
                import_from("a", {alias("b"), alias("c")}));
  UNPARSE_STMTS(R"py(a, b)py", R"py((a, b))py", expr_stmt(tuple(exprs(n("a"), n("b")))));
  UNPARSE_STMTS(R"py(yield x)py", R"py(yield x)py", expr_stmt(yield_(n("x"))));
  UNPARSE_STMTS(R"py((a := f()))py", R"py((a := f()))py",
                expr_stmt(named_expr(st("a"), call(n("f")))));
  UNPARSE_STMTS(R"py(x = 1; 'not a docstring')py", R"py(
x = 1
'not a docstring'
)py",
                assign(st("x"), num(1)), expr_stmt(txt("not a docstring")));
}

TEST(UnparseStatements, IfWhileFor) {
  UNPARSE_STMTS(R"py(
if a:
    pass
elif b:
    x = 1
elif c:
    pass
else:
    y = 2
)py",
                R"py(
if a:
    pass
elif b:
    x = 1
elif c:
    pass
else:
    y = 2
)py",
                if_(n("a"), body(pass()),
                    body(if_(n("b"), body(assign(st("x"), num(1))),
                             body(if_(n("c"), body(pass()), body(assign(st("y"), num(2)))))))));
  UNPARSE_STMTS(
      R"py(
if a:
    pass
else:
    if b:
        pass
    x = 1
)py",
      R"py(
if a:
    pass
else:
    if b:
        pass
    x = 1
)py",
      if_(n("a"), body(pass()), body(if_(n("b"), body(pass())), assign(st("x"), num(1)))));
  UNPARSE_STMTS(
      R"py(
while a and not b:
    break
else:
    continue
)py",
      R"py(
while a and (not b):
    break
else:
    continue
)py",
      while_(boolop(And, exprs(n("a"), unaryop(Not, n("b")))), body(break_()), body(continue_())));
  UNPARSE_STMTS(
      R"py(
for x, y in z:
    pass
else:
    pass
)py",
      R"py(
for x, y in z:
    pass
else:
    pass
)py",
      for_(tuple(exprs(st("x"), st("y")), ExprContext::Store), n("z"), body(pass()), body(pass())));
  UNPARSE_STMTS(R"py(
for x in a, b:
    pass
)py",
                R"py(
for x in (a, b):
    pass
)py",
                for_(st("x"), tuple(exprs(n("a"), n("b"))), body(pass())));
  UNPARSE_STMTS(R"py(
for (i, j), *k in w:
    pass
)py",
                R"py(
for (i, j), *k in w:
    pass
)py",
                for_(tuple(exprs(tuple(exprs(st("i"), st("j")), ExprContext::Store),
                                 starred(st("k"), ExprContext::Store)),
                           ExprContext::Store),
                     n("w"), body(pass())));
}

TEST(UnparseStatements, WithAndTry) {
  UNPARSE_STMTS(R"py(
with a as b, c:
    pass
)py",
                R"py(
with a as b, c:
    pass
)py",
                with_({with_item(n("a"), st("b")), with_item(n("c"))}, body(pass())));
  UNPARSE_STMTS(R"py(
with open(f) as (a, b):
    pass
)py",
                R"py(
with open(f) as (a, b):
    pass
)py",
                with_({with_item(call(n("open"), exprs(n("f"))),
                                 tuple(exprs(st("a"), st("b")), ExprContext::Store))},
                      body(pass())));
  UNPARSE_STMTS(
      R"py(
try:
    a()
except (KeyError, ValueError) as e:
    raise
except Exception:
    pass
except:
    b = 1
else:
    c()
finally:
    d()
)py",
      R"py(
try:
    a()
except (KeyError, ValueError) as e:
    raise
except Exception:
    pass
except:
    b = 1
else:
    c()
finally:
    d()
)py",
      try_(body(expr_stmt(call(n("a")))),
           {except_handler(tuple(exprs(n("KeyError"), n("ValueError"))), "e", body(raise_())),
            except_handler(n("Exception"), std::nullopt, body(pass())),
            except_handler(nullptr, std::nullopt, body(assign(st("b"), num(1))))},
           body(expr_stmt(call(n("c")))), body(expr_stmt(call(n("d"))))));
  UNPARSE_STMTS(R"py(
try:
    pass
finally:
    pass
)py",
                R"py(
try:
    pass
finally:
    pass
)py",
                try_(body(pass()), {}, {}, body(pass())));
  UNPARSE_STMTS(
      R"py(
try:
    a
except* E as e:
    b
except* (F, G):
    pass
)py",
      R"py(
try:
    a
except* E as e:
    b
except* (F, G):
    pass
)py",
      try_star(body(expr_stmt(n("a"))),
               {except_handler(n("E"), "e", body(expr_stmt(n("b")))),
                except_handler(tuple(exprs(n("F"), n("G"))), std::nullopt, body(pass()))}));
}

TEST(UnparseStatements, Match) {
  UNPARSE_STMTS(
      R"py(
match x:
    case [1, *r] if r:
        pass
    case {'a': 1, **kw}:
        pass
    case P(1, y=2) | None:
        pass
    case (1 | 2) as z:
        pass
    case [a as b, *_]:
        pass
    case Point(x=0) | Point(y=0) as p if p:
        pass
    case -1 | 'a' | b'c' | True:
        pass
    case {}:
        pass
    case []:
        pass
    case C():
        pass
    case m.RED:
        pass
    case _:
        pass
)py",
      R"py(
match x:
    case [1, *r] if r:
        pass
    case {'a': 1, **kw}:
        pass
    case P(1, y=2) | None:
        pass
    case 1 | 2 as z:
        pass
    case [a as b, *_]:
        pass
    case Point(x=0) | Point(y=0) as p if p:
        pass
    case -1 | 'a' | b'c' | True:
        pass
    case {}:
        pass
    case []:
        pass
    case C():
        pass
    case m.RED:
        pass
    case _:
        pass
)py",
      match(
          n("x"),
          {match_case(match_sequence({match_value(num(1)), match_star("r")}), body(pass()), n("r")),
           match_case(match_mapping(exprs(txt("a")), {match_value(num(1))}, "kw"), body(pass())),
           match_case(
               match_or({match_class(n("P"), {match_value(num(1))}, {"y"}, {match_value(num(2))}),
                         match_singleton(make_object(NoneValue{}))}),
               body(pass())),
           match_case(match_as(match_or({match_value(num(1)), match_value(num(2))}), "z"),
                      body(pass())),
           match_case(match_sequence({match_as(capture("a"), "b"), match_star()}), body(pass())),
           match_case(
               match_as(match_or({match_class(n("Point"), {}, {"x"}, {match_value(num(0))}),
                                  match_class(n("Point"), {}, {"y"}, {match_value(num(0))})}),
                        "p"),
               body(pass()), n("p")),
           match_case(
               match_or({match_value(unaryop(USub, num(1))), match_value(txt("a")),
                         match_value(bytes("c")), match_singleton(make_object(BoolValue{true}))}),
               body(pass())),
           match_case(match_mapping({}, {}), body(pass())),
           match_case(match_sequence({}), body(pass())),
           match_case(match_class(n("C"), {}), body(pass())),
           match_case(match_value(attribute(n("m"), "RED")), body(pass())),
           match_case(wildcard(), body(pass()))}));
  UNPARSE_STMTS(R"py(
match a, b:
    case (x, y) | [x, y]:
        pass
    case {**rest}:
        pass
)py",
                R"py(
match (a, b):
    case [x, y] | [x, y]:
        pass
    case {**rest}:
        pass
)py",
                match(tuple(exprs(n("a"), n("b"))),
                      {match_case(match_or({match_sequence({capture("x"), capture("y")}),
                                            match_sequence({capture("x"), capture("y")})}),
                                  body(pass())),
                       match_case(match_mapping({}, {}, "rest"), body(pass()))}));
}

TEST(UnparseStatements, FunctionSignatures) {
  Arguments full{.posonlyargs = {arg("a"), arg("b", n("int"))},
                 .args = {arg("c"), arg("d", n("str"))},
                 .vararg = arg("args", n("T")),
                 .kwonlyargs = {arg("e"), arg("f", n("bool"))},
                 .kw_defaults = {nullptr, boolean(false)},
                 .kwarg = arg("kw", attribute(n("t"), "Any")),
                 .defaults = {num(2), num(3), txt("x")}};
  UNPARSE_STMTS(R"py(
def f(a, b: int=2, /, c=3, d: str='x', *args: T, e, f: bool=False, **kw: t.Any) -> list[int]:
    pass
)py",
                R"py(
def f(a, b: int=2, /, c=3, d: str='x', *args: T, e, f: bool=False, **kw: t.Any) -> list[int]:
    pass
)py",
                function_def("f", full, body(pass()), {}, subscript(n("list"), n("int"))));
  UNPARSE_STMTS(
      R"py(
def g(*, a, b=1):
    return a, b
)py",
      R"py(
def g(*, a, b=1):
    return (a, b)
)py",
      function_def("g",
                   Arguments{.kwonlyargs = {arg("a"), arg("b")}, .kw_defaults = {nullptr, num(1)}},
                   body(return_(tuple(exprs(n("a"), n("b")))))));
  UNPARSE_STMTS(R"py(
def h(a, /):
    return
)py",
                R"py(
def h(a, /):
    return
)py",
                function_def("h", Arguments{.posonlyargs = {arg("a")}}, body(return_())));
  UNPARSE_STMTS(
      R"py(
def k(**kw):
    nonlocal_ = 1
)py",
      R"py(
def k(**kw):
    nonlocal_ = 1
)py",
      function_def("k", Arguments{.kwarg = arg("kw")}, body(assign(st("nonlocal_"), num(1)))));
}

TEST(UnparseStatements, DefsClassesDecoratorsDocstrings) {
  UNPARSE_STMTS(
      R"py(
import functools
@functools.wraps(g)
@d
def f():
    """Doc."""
    def inner():
        nonlocal x
        global y
    return inner
class A(B, metaclass=M):
    '''Class "doc".'''
    x = 1
    def m(self):
        pass
    async def n(self):
        await self.m()
y = 2
)py",
      R"py(
import functools

@functools.wraps(g)
@d
def f():
    """Doc."""

    def inner():
        nonlocal x
        global y
    return inner

class A(B, metaclass=M):
    """Class "doc"."""
    x = 1

    def m(self):
        pass

    async def n(self):
        await self.m()
y = 2
)py",
      import_({alias("functools")}),
      function_def("f", {},
                   body(expr_stmt(txt("Doc.")),
                        function_def("inner", {}, body(nonlocal({"x"}), global({"y"}))),
                        return_(n("inner"))),
                   exprs(call(attribute(n("functools"), "wraps"), exprs(n("g"))), n("d"))),
      class_def("A", exprs(n("B")), {keyword("metaclass", n("M"))},
                body(expr_stmt(txt("Class \"doc\".")), assign(st("x"), num(1)),
                     function_def("m", Arguments{.args = {arg("self")}}, body(pass())),
                     async_function_def("n", Arguments{.args = {arg("self")}},
                                        body(expr_stmt(await_(call(attribute(n("self"), "m")))))))),
      assign(st("y"), num(2)));
  UNPARSE_STMTS(R"py(
class C:
    pass
class D(**kw):
    pass
)py",
                R"py(
class C:
    pass

class D(**kw):
    pass
)py",
                class_def("C", {}, {}, body(pass())),
                class_def("D", {}, {double_star(n("kw"))}, body(pass())));
}

TEST(UnparseStatements, Docstrings) {
  UNPARSE_STMTS(R"py('Module doc.\n\nMore: \'q\' "qq" \\ \t end.')py", R"py(
"""Module doc.

More: 'q' "qq" \\ 	 end."""
)py",
                expr_stmt(txt("Module doc.\n\nMore: 'q' \"qq\" \\ \t end.")));
  UNPARSE_STMTS(R"py('ends with "')py", R"py('''ends with "''')py", expr_stmt(txt("ends with \"")));
  UNPARSE_STMTS(R"py('has """ inside')py", R"py('''has """ inside''')py",
                expr_stmt(txt("has \"\"\" inside")));
  UNPARSE_STMTS(R"py('both """ and \'\'\'')py", R"py('''both """ and \'\'\'''')py",
                expr_stmt(txt("both \"\"\" and '''")));
  UNPARSE_STMTS(R"py('bell\x07 and \r')py", R"py("""bell\x07 and \r""")py",
                expr_stmt(txt("bell\x07 and \r")));
  // Only ''' fits and the text ends in its character, which is escaped
  // (written from the text itself when it needs no other escape, else from
  // the escaped copy).
  UNPARSE_STMTS(R"py('has """ and ends in \'')py", R"py('''has """ and ends in \'''')py",
                expr_stmt(txt("has \"\"\" and ends in '")));
  UNPARSE_STMTS(R"py('has """, a \\ and ends in \'')py",
                R"py('''has """, a \\ and ends in \'''')py",
                expr_stmt(txt("has \"\"\", a \\ and ends in '")));
  UNPARSE_STMTS(R"py(
def f():
    'quote at end "'
)py",
                R"py(
def f():
    '''quote at end "'''
)py",
                function_def("f", {}, body(expr_stmt(txt("quote at end \"")))));
}

// Docstrings are scanned 64, 16 and 8 bytes at a time (SSE2 blocks, a last
// block overlapping the one before, words): a character that needs an escape
// must be found at every position within each, and at the end.
TEST(UnparseStatements, DocstringEscapesAtEveryPosition) {
  const std::vector<std::pair<std::string, std::string>> specials = {
      {"\\", "\\\\"}, {"\x07", "\\x07"}, {"\x7f", "\\x7f"}, {"\r", "\\r"}, {"\x1f", "\\x1f"},
      {"\n", "\n"},   {"\t", "\t"},      {"\xc3\xa9", "\xc3\xa9"},  // é prints as itself
  };
  for (const auto& [raw, printed] : specials)
    for (std::size_t before = 0; before < 100; ++before)
      for (std::size_t after : {0, 1, 7, 8, 9, 14, 15, 16, 17, 31, 32, 33, 47}) {
        const std::string doc = std::string(before, 'a') + raw + std::string(after, 'b') + ".";
        const std::string want = "\"\"\"" + std::string(before, 'a') + printed + std::string(after, 'b') + ".\"\"\"";
        EXPECT_EQ(unparse(StmtList{expr_stmt(txt(doc))}, ast_style()), want)
            << "escape " << printed << " after " << before << " bytes, before " << after;
      }
}

// After an escape the scan resumes mid-text: the escape behind it, within the
// same block, must not be found again, nor hide the next one.
TEST(UnparseStatements, DocstringEscapesInPairs) {
  for (std::size_t before = 0; before < 40; ++before)
    for (std::size_t gap = 0; gap < 36; ++gap)
      for (std::size_t after : {0, 1, 5, 15, 16, 17, 30}) {
        const std::string doc = std::string(before, 'a') + "\\" + std::string(gap, 'b') + "\r" +
                                std::string(after, 'c') + "~";
        const std::string want = "\"\"\"" + std::string(before, 'a') + "\\\\" +
                                 std::string(gap, 'b') + "\\r" + std::string(after, 'c') +
                                 "~\"\"\"";
        EXPECT_EQ(unparse(StmtList{expr_stmt(txt(doc))}, ast_style()), want)
            << before << " bytes, an escape, " << gap << " bytes, an escape, " << after << " bytes";
      }
}

TEST(UnparseStatements, Async) {
  UNPARSE_STMTS(R"py(
async def f():
    async for x in y:
        await z
    async with a as b, c:
        pass
    return [x async for x in y]
)py",
                R"py(
async def f():
    async for x in y:
        await z
    async with a as b, c:
        pass
    return [x async for x in y]
)py",
                async_function_def(
                    "f", {},
                    body(async_for(st("x"), n("y"), body(expr_stmt(await_(n("z"))))),
                         async_with({with_item(n("a"), st("b")), with_item(n("c"))}, body(pass())),
                         return_(list_comp(n("x"), {comprehension(st("x"), n("y"), {}, true)})))));
}

TEST(UnparseStatements, TypeParams) {
  UNPARSE_STMTS(R"py(
def f[T: int = str, *Ts = (), **P = [int]](x: T) -> T:
    pass
)py",
                R"py(
def f[T: int = str, *Ts = (), **P = [int]](x: T) -> T:
    pass
)py",
                function_def("f", Arguments{.args = {arg("x", n("T"))}}, body(pass()), {}, n("T"),
                             {type_var("T", n("int"), n("str")), type_var_tuple("Ts", tuple({})),
                              param_spec("P", list(exprs(n("int"))))}));
  UNPARSE_STMTS(R"py(
class C[T, U: (int, str)](B[T]):
    pass
)py",
                R"py(
class C[T, U: (int, str)](B[T]):
    pass
)py",
                class_def("C", exprs(subscript(n("B"), n("T"))), {}, body(pass()), {},
                          {type_var("T"), type_var("U", tuple(exprs(n("int"), n("str"))))}));
  UNPARSE_STMTS(
      R"py(type X[T] = list[T] | None)py", R"py(type X[T] = list[T] | None)py",
      type_alias(st("X"), {type_var("T")}, binop(subscript(n("list"), n("T")), BitOr, none())));
  UNPARSE_STMTS(R"py(type Y = int)py", R"py(type Y = int)py", type_alias(st("Y"), {}, n("int")));
}

// --- layout, names and robustness --------------------------------------------------

TEST(UnparseLayout, Pep8BlankLines) {
  auto tree = body(
      import_({alias("os")}), comment("helper"), function_def("f", {}, body(return_(num(1)))),
      class_def(
          "C", {}, {},
          body(expr_stmt(txt("Doc.")), assign(st("x"), num(1)),
               function_def("m", Arguments{.args = {arg("self")}, .defaults = {}}, body(pass())),
               function_def(
                   "n", Arguments{.args = {arg("self"), arg("k", n("int"))}, .defaults = {num(0)}},
                   body(pass())))),
      assign(st("y"), call(n("f"))));
  EXPECT_EQ(unparse(tree), strip(R"py(
import os


# helper
def f():
    return 1


class C:
    """Doc."""
    x = 1

    def m(self):
        pass

    def n(self, k: int = 0):
        pass


y = f()
)py"));
}

TEST(UnparseLayout, CommentsAndEmptyBodies) {
  auto tree = body(if_(n("a"), body(comment("only a comment")), body()), while_(boolean(true), {}),
                   comment("two\nlines"), comment(""));
  EXPECT_EQ(unparse(tree), strip(R"py(
if a:
    # only a comment
    pass
while True:
    pass
# two
# lines
#
)py"));
}

TEST(UnparseLayout, LineComments) {
  UnparseOptions options;
  options.line_comments = true;
  auto tree = body(
      at_line(assign(st("x"), num(1)), 3),
      at_line(if_(n("x"), body(at_line(pass(), 5)), body(at_line(if_(n("y"), body(pass())), 6))),
              4),
      at_line(function_def("f", {}, body(at_line(return_(), 9)), exprs(n("d"))), 8), pass());
  EXPECT_EQ(unparse(tree, options), strip(R"py(
x = 1  # line 3
if x:  # line 4
    pass  # line 5
elif y:  # line 6
    pass


@d
def f():  # line 8
    return  # line 9


pass
)py"));
}

TEST(UnparseNames, DefaultMappingMakesValidIdentifiers) {
  auto tree =
      body(assign(st("<lambda>"), lambda({}, num(0))), assign(st("_lambda_"), n("<lambda>")),
           function_def("<genexpr>", Arguments{.args = {arg(".0")}},
                        body(expr_stmt(yield_(call(n("class"), exprs(n(".0"), n("a.b")))))), {},
                        nullptr));
  UnparseOptions options = ast_style();
  EXPECT_EQ(unparse(tree, options), strip(R"py(
_lambda__1 = lambda: 0
_lambda_ = _lambda__1

def _genexpr_(_0):
    yield class_(_0, a_b)
)py"));
  // Valid names, soft keywords and dunder names pass through untouched.
  EXPECT_EQ(unparse_expr(
                *call(n("match"), exprs(n("type"), n("___stack0"), n("__resume_at_30_1"), n("_")))),
            "match(type, ___stack0, __resume_at_30_1, _)");
}

TEST(UnparseNames, CustomMapperSeesRoles) {
  std::vector<std::pair<std::string, NameRole>> seen;
  UnparseOptions options;
  options.name_mapper = [&](std::string_view name, NameRole role) {
    seen.emplace_back(std::string(name), role);
    return std::string(name);
  };
  auto tree = body(
      import_from("pkg.mod", {alias("x", "y")}),
      class_def("K", {}, {keyword("meta", n("v"))},
                body(function_def(
                    "f", Arguments{.args = {arg("p")}},
                    body(expr_stmt(call(attribute(n("p"), "a"), {}, {keyword("kw", num(1))})))))));
  EXPECT_EQ(unparse(tree, options), strip(R"py(
from pkg.mod import x as y


class K(meta=v):
    def f(p):
        p.a(kw=1)
)py"));
  std::vector<std::pair<std::string, NameRole>> expected = {
      {"pkg", NameRole::Module}, {"mod", NameRole::Module},  {"x", NameRole::Variable},
      {"y", NameRole::Variable}, {"K", NameRole::Class},     {"meta", NameRole::Keyword},
      {"v", NameRole::Variable}, {"f", NameRole::Function},  {"p", NameRole::Argument},
      {"p", NameRole::Variable}, {"a", NameRole::Attribute}, {"kw", NameRole::Keyword}};
  EXPECT_EQ(seen, expected);
}

TEST(UnparseRobustness, MissingChildrenAndBadCounts) {
  EXPECT_EQ(unparse_expr(*binop(nullptr, Add, n("x"))), "__missing__ + x");
  EXPECT_EQ(unparse(body(assign(st("x"), nullptr), nullptr, return_())),
            "x = __missing__\n__missing__\nreturn");
  // More defaults than parameters, fewer kw_defaults than keyword-only parameters.
  Arguments odd{
      .args = {arg("a")}, .kwonlyargs = {arg("b"), arg("c")}, .defaults = {num(1), num(2)}};
  EXPECT_EQ(unparse_expr(*lambda(odd, num(0))), "lambda a=2, *, b, c: 0");
  EXPECT_EQ(unparse_expr(*compare(n("a"), std::vector<CmpOperator>{Lt, Lt}, exprs(n("b")))),
            "a < b");
  EXPECT_EQ(unparse_expr(*dict(exprs(n("k"), n("j")), exprs(n("v")))), "{k: v}");
  EXPECT_EQ(unparse_expr(*formatted_value(n("x"), 'q')), "f'{x}'");
  EXPECT_EQ(unparse(body(import_from("m", {alias("x")}, 100000))),
            "from " + std::string(255, '.') + "m import x");
}

// The output buffer copies a token of up to 16 bytes in overlapping words and
// a longer one, or one that does not fit, by a call: tokens of every length,
// across the buffer's growth, must come out whole.
TEST(UnparseRobustness, TokensOfEveryLengthAcrossGrowth) {
  for (std::size_t size = 1; size <= 40; ++size)
    for (std::size_t count : {1, 7, 50, 300}) {
      const std::string name = std::string(size - 1, 'a') + "z";
      ExprList names;
      std::string want = "[";
      for (std::size_t i = 0; i < count; ++i) {
        names.push_back(n(name));
        want += (i ? ", " : "") + name;
      }
      EXPECT_EQ(unparse_expr(*list(std::move(names))), want + "]")
          << count << " names of " << size << " bytes";
    }
}

TEST(UnparseRobustness, DeepTreesPrintOrFailCleanly) {
  ExprPtr e = n("x");
  for (int i = 0; i < 1000; ++i) e = binop(e, Add, num(i % 10));
  std::string text = unparse_expr(*e);
  EXPECT_EQ(text.substr(0, 9), "x + 0 + 1");
  EXPECT_EQ(text.size(), 1u + 1000 * 4);
  // Far deeper than any real code: refused with an error, not a stack overflow.
  for (int i = 0; i < 3000; ++i) e = unaryop(USub, e);
  auto limit_error = [](auto&& print) {
    try {
      print();
    } catch (const Error& err) {
      return err.kind() == ErrorKind::Limit && std::string(err.what()).find("nested deeper than 1500") != std::string::npos;
    }
    return false;
  };
  EXPECT_TRUE(limit_error([&] { unparse_expr(*e); }));
  StmtPtr s = pass();
  for (int i = 0; i < 3000; ++i) s = if_(n("c"), body(s));
  EXPECT_TRUE(limit_error([&] { unparse(body(s)); }));
}

TEST(UnparseRobustness, NestedFStringsStayFast) {
  // Each level retries its quotes; without memoisation this would take 12**40 steps.
  ExprPtr e = txt("'\"");
  for (int i = 0; i < 40; ++i) e = joined_str(exprs(txt("<"), formatted_value(e, 'r'), txt(">")));
  std::string text = unparse_expr(*e);
  // Checked by hand: valid on 3.8 and the same value as the tree (12 levels deep).
  EXPECT_EQ(text.rfind(R"(f"""<{'<' + format(repr('<' + format(repr(')", 0), 0u);
  UnparseOptions py312;
  py312.min_python_minor = 12;
  EXPECT_EQ(unparse_expr(*e, py312).rfind("f'<{f'<{f'<{f'<{f'<{", 0), 0u);
}

}  // namespace

// --- printing by the tree's last reader -----------------------------------------

// The statements of a layout that reads neighbours (blank lines around defs,
// a block of comments only) and a docstring.
StmtList layout_sample() {
  return body(expr_stmt(txt("Doc.")), import_({alias("os")}), comment("helper"),
              function_def("f", {}, body(return_(num(1)))), if_(n("a"), body(comment("only")), body()),
              assign(st("y"), call(n("f"))));
}

TEST(UnparseDropping, PrintsWhatUnparsePrintsAndLetsEachStatementGo) {
  const std::string expected = unparse(layout_sample());
  ast::Module module{layout_sample()};
  StmtPtr shared = module.body[3];  // the def, also held here
  EXPECT_EQ(unparse_dropping(module), expected);
  // Every statement but the last was let go once printed; one held elsewhere lives on.
  for (std::size_t i = 0; i + 1 < module.body.size(); ++i) EXPECT_FALSE(module.body[i]) << i;
  EXPECT_TRUE(module.body.back());
  EXPECT_EQ(shared.use_count(), 1);
  EXPECT_EQ(unparse(StmtList{shared}), "def f():\n    return 1");
}

TEST(UnparseDropping, LoneFunctionLetsItsBodyGo) {
  auto make = [] { return body(function_def("g", {}, layout_sample())); };
  const std::string expected = unparse(make());
  ast::Module module{make()};
  EXPECT_EQ(unparse_dropping(module), expected);
  ASSERT_TRUE(module.body[0]);
  const StmtList& inner = module.body[0]->as<ast::FunctionDef>()->body;
  for (std::size_t i = 0; i + 1 < inner.size(); ++i) EXPECT_FALSE(inner[i]) << i;
  // A def held elsewhere too keeps its body whole.
  ast::Module again{make()};
  StmtPtr held = again.body[0];
  EXPECT_EQ(unparse_dropping(again), expected);
  for (const StmtPtr& s : held->as<ast::FunctionDef>()->body) EXPECT_TRUE(s);
}

TEST(UnparseDropping, NameToRenameAfterADropAsksForAFreshTree) {
  auto make = [] { return body(assign(st("x"), num(1)), assign(st("a.b"), num(2)), assign(st("y"), n("a.b"))); };
  ast::Module module{make()};
  EXPECT_EQ(unparse_dropping(module), std::nullopt);
  EXPECT_EQ(unparse(make()), "x = 1\na_b = 2\ny = a_b");
  // Met before any statement is let go, the renaming passes run on the whole tree as usual.
  auto first = [] { return body(assign(st("<lambda>"), num(1)), assign(st("y"), n("<lambda>"))); };
  ast::Module renamed{first()};
  EXPECT_EQ(unparse_dropping(renamed), "_lambda_ = 1\ny = _lambda_");
}

}  // namespace unveil::ast
