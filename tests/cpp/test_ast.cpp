// The syntax tree: factory helpers, operators, identifiers, and ast::dump.
//
// AST_DUMP(source, expected, tree...) cases compare ast::dump of a tree built
// with the factories to `ast.dump(ast.parse(source))` of Python 3.13, which is
// what `expected` holds (filled in from a real 3.13 and checkable by hand), so
// the trees mirror Python's ast node for node.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "ast/build.h"
#include "ast/dump.h"
#include "ast/identifier.h"
#include "ast/operators.h"
#include "ast_builders.h"

namespace unveil::ast {
namespace {

using enum unveil::ast::Operator;
using enum unveil::ast::UnaryOperator;
using enum unveil::ast::BoolOperator;
using enum unveil::ast::CmpOperator;

constexpr ExprContext kStore = ExprContext::Store;
constexpr ExprContext kDel = ExprContext::Del;

using testing::body, testing::exprs, testing::n, testing::num, testing::st, testing::txt;

#define AST_DUMP(source, expected, ...) \
  EXPECT_EQ(dump(Module{StmtList{__VA_ARGS__}}), expected) << "source: " << (source)

TEST(AstOperators, SymbolsAndNames) {
  EXPECT_EQ(symbol(FloorDiv), "//");
  EXPECT_EQ(symbol(MatMult), "@");
  EXPECT_EQ(symbol(Pow), "**");
  EXPECT_EQ(symbol(BitXor), "^");
  EXPECT_EQ(symbol(Not), "not");
  EXPECT_EQ(symbol(USub), "-");
  EXPECT_EQ(symbol(Invert), "~");
  EXPECT_EQ(symbol(Or), "or");
  EXPECT_EQ(symbol(IsNot), "is not");
  EXPECT_EQ(symbol(NotIn), "not in");
  EXPECT_EQ(symbol(LtE), "<=");
  EXPECT_EQ(ast_name(FloorDiv), "FloorDiv");
  EXPECT_EQ(ast_name(RShift), "RShift");
  EXPECT_EQ(ast_name(UAdd), "UAdd");
  EXPECT_EQ(ast_name(And), "And");
  EXPECT_EQ(ast_name(GtE), "GtE");
  EXPECT_EQ(ast_name(kDel), "Del");
  // A value cast from bad data prints as "?" rather than reading past the table.
  EXPECT_EQ(symbol(static_cast<Operator>(99)), "?");
  EXPECT_EQ(ast_name(static_cast<CmpOperator>(-1)), "?");
}

TEST(AstIdentifiers, Validity) {
  EXPECT_TRUE(is_identifier("x"));
  EXPECT_TRUE(is_identifier("___stack0"));
  EXPECT_TRUE(is_identifier("__resume_at_30_1"));
  EXPECT_TRUE(is_identifier("match"));  // soft keywords are names
  EXPECT_TRUE(is_identifier("type"));
  EXPECT_TRUE(is_identifier("_"));
  EXPECT_TRUE(is_identifier("caf\xc3\xa9"));
  EXPECT_FALSE(is_identifier(""));
  EXPECT_FALSE(is_identifier("<lambda>"));
  EXPECT_FALSE(is_identifier(".0"));
  EXPECT_FALSE(is_identifier("1x"));
  EXPECT_FALSE(is_identifier("a.b"));
  EXPECT_FALSE(is_identifier("None"));
  EXPECT_FALSE(is_identifier("await"));
  EXPECT_TRUE(is_keyword("nonlocal"));
  EXPECT_FALSE(is_keyword("print"));
  EXPECT_TRUE(is_dotted_name("torch.nn.functional"));
  EXPECT_TRUE(is_dotted_name("x"));
  EXPECT_FALSE(is_dotted_name("torch..nn"));
  EXPECT_FALSE(is_dotted_name("torch."));
  EXPECT_FALSE(is_dotted_name("a.class"));
}

// The byte-at-a-time rule is_identifier must agree with (it checks 16 bytes a
// step, a short name as one overlapped block).
bool identifier_by_bytes(std::string_view name) {
  auto letter = [](unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
  };
  if (name.empty() || !letter(static_cast<unsigned char>(name[0]))) return false;
  for (std::size_t k = 0; k < name.size(); ++k) {
    const auto c = static_cast<unsigned char>(name[k]);
    if (!letter(c) && !(c >= '0' && c <= '9')) return false;
    if (c == 0xed && k + 1 < name.size() && static_cast<unsigned char>(name[k + 1]) >= 0xa0)
      return false;
  }
  return !is_keyword(name);
}

// Every byte value at every position of names 1 to 40 bytes long, and a lone
// surrogate wherever it may start.
TEST(AstIdentifiers, EveryByteAtEveryPosition) {
  for (std::size_t size = 1; size <= 40; ++size)
    for (std::size_t at = 0; at < size; ++at) {
      std::string name(size, 'a');
      for (unsigned b = 0; b < 256; ++b) {
        name[at] = static_cast<char>(b);
        ASSERT_EQ(is_identifier(name), identifier_by_bytes(name))
            << "byte " << b << " at " << at << " of " << size;
        // The same byte before a surrogate's second byte, and in a name that
        // starts with a non-ASCII letter.
        if (at + 1 < size) {
          std::string pair = name;
          pair[at + 1] = static_cast<char>(0xa5);
          ASSERT_EQ(is_identifier(pair), identifier_by_bytes(pair))
              << "byte " << b << ", 0xa5 at " << at << " of " << size;
        }
      }
    }
  EXPECT_FALSE(is_identifier("abcdefghijklmnopqrstuvwxyz_\xed\xa0\x80"));
  EXPECT_TRUE(is_identifier("abcdefghijklmnopqrstuvwxyz_\xed\x9f\xbf"));
  EXPECT_TRUE(is_identifier("ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789"));
  EXPECT_FALSE(is_identifier("ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789@"));
  EXPECT_FALSE(is_identifier("`ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789"));
  EXPECT_FALSE(is_identifier("l_self_modules_encoder_layers_0_attention_["));
}

TEST(AstIdentifiers, Sanitize) {
  EXPECT_EQ(sanitize_identifier("<lambda>"), "_lambda_");
  EXPECT_EQ(sanitize_identifier("<genexpr>"), "_genexpr_");
  EXPECT_EQ(sanitize_identifier(".0"), "_0");
  EXPECT_EQ(sanitize_identifier("9lives"), "_9lives");
  EXPECT_EQ(sanitize_identifier("a.b-c"), "a_b_c");
  EXPECT_EQ(sanitize_identifier("class"), "class_");
  EXPECT_EQ(sanitize_identifier(""), "_");
  EXPECT_EQ(sanitize_identifier("ok"), "ok");
  EXPECT_EQ(sanitize_identifier("caf\xc3\xa9!"), "caf\xc3\xa9_");
  EXPECT_TRUE(is_identifier(sanitize_identifier("<module 'x' from \"y\">")));
}

TEST(AstBuild, FactoriesFillTheFields) {
  ExprPtr shared = binop(n("a"), Add, num(1));
  ExprPtr tree = call(attribute(n("np"), "sum"), exprs(shared, shared),
                      {keyword("axis", num(0)), double_star(n("kw"))});
  const Call* c = tree->as<Call>();
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->func->as<Attribute>()->attr, "sum");
  EXPECT_EQ(c->args.size(), 2u);
  EXPECT_EQ(c->args[0].get(), c->args[1].get());  // subtrees are shared, not copied
  EXPECT_EQ(c->args[0]->as<BinOp>()->op, Add);
  EXPECT_EQ(*c->keywords[0].arg, "axis");
  EXPECT_FALSE(c->keywords[1].arg.has_value());
  EXPECT_TRUE(tree->is<Call>());
  EXPECT_FALSE(tree->is<Name>());
  EXPECT_EQ(tree->as<Name>(), nullptr);

  ExprPtr minus_five = integer(-5);
  EXPECT_EQ(minus_five->as<Constant>()->value->as<IntValue>()->to_decimal(), "-5");
  EXPECT_TRUE(none()->as<Constant>()->value->is<NoneValue>());
  EXPECT_EQ(placeholder("torch.float32", 4)->as<Constant>()->value->as<PlaceholderValue>()->index,
            4u);
  EXPECT_EQ(n("x")->as<Name>()->ctx, ExprContext::Load);
  EXPECT_EQ(st("x")->as<Name>()->ctx, kStore);
}

TEST(AstBuild, AsyncFormsAreTheirOwnNodes) {
  StmtPtr f = async_function_def("f", {}, body(pass()));
  EXPECT_TRUE(f->is<AsyncFunctionDef>());
  EXPECT_FALSE(f->is<FunctionDef>());
  EXPECT_EQ(f->as<AsyncFunctionDef>()->name, "f");
  EXPECT_TRUE(async_for(st("x"), n("y"), body())->is<AsyncFor>());
  EXPECT_TRUE(async_with({with_item(n("a"))}, body())->is<AsyncWith>());
  EXPECT_TRUE(try_star(body(), {})->is<TryStar>());
  EXPECT_FALSE(try_star(body(), {})->is<Try>());
}

TEST(AstBuild, LinesAndComments) {
  StmtPtr original = return_(n("x"));
  StmtPtr moved = at_line(original, 42);
  EXPECT_EQ(original->line, 0);  // nodes never change once built
  EXPECT_EQ(moved->line, 42);
  EXPECT_EQ(moved->as<Return>()->value.get(), original->as<Return>()->value.get());
  EXPECT_EQ(at_line(nullptr, 3), nullptr);
  EXPECT_EQ(make_stmt(Pass{}, 7)->line, 7);
  EXPECT_EQ(comment("why")->as<Comment>()->text, "why");
  EXPECT_EQ(dump(*comment("why")), "Comment(text='why')");
}

TEST(AstDump, MissingChildrenPrintAsNone) {
  EXPECT_EQ(dump(*binop(nullptr, Add, num(1))), "BinOp(op=Add(), right=Constant(value=1))");
  EXPECT_EQ(dump(*dict(exprs(nullptr), exprs(n("a")))),
            "Dict(keys=[None], values=[Name(id='a', ctx=Load())])");
  EXPECT_EQ(dump(*constant(nullptr)), "Constant(value=None)");
  EXPECT_EQ(dump(*wildcard()), "MatchAs()");
}

// --- dumps equal to Python 3.13's ast.dump ------------------------------------------

TEST(AstDump, ExpressionsMatchPython) {
  AST_DUMP(
      R"py(x = a + b * -c)py",
      R"py(Module(body=[Assign(targets=[Name(id='x', ctx=Store())], value=BinOp(left=Name(id='a', ctx=Load()), op=Add(), right=BinOp(left=Name(id='b', ctx=Load()), op=Mult(), right=UnaryOp(op=USub(), operand=Name(id='c', ctx=Load())))))]))py",
      assign(st("x"), binop(n("a"), Add, binop(n("b"), Mult, unaryop(USub, n("c"))))));
  AST_DUMP(
      R"py(x = a @ b // c % d << e >> f | g ^ h & i ** j)py",
      R"py(Module(body=[Assign(targets=[Name(id='x', ctx=Store())], value=BinOp(left=BinOp(left=BinOp(left=BinOp(left=BinOp(left=BinOp(left=Name(id='a', ctx=Load()), op=MatMult(), right=Name(id='b', ctx=Load())), op=FloorDiv(), right=Name(id='c', ctx=Load())), op=Mod(), right=Name(id='d', ctx=Load())), op=LShift(), right=Name(id='e', ctx=Load())), op=RShift(), right=Name(id='f', ctx=Load())), op=BitOr(), right=BinOp(left=Name(id='g', ctx=Load()), op=BitXor(), right=BinOp(left=Name(id='h', ctx=Load()), op=BitAnd(), right=BinOp(left=Name(id='i', ctx=Load()), op=Pow(), right=Name(id='j', ctx=Load()))))))]))py",
      assign(
          st("x"),
          binop(binop(binop(binop(binop(binop(n("a"), MatMult, n("b")), FloorDiv, n("c")), Mod,
                                  n("d")),
                            LShift, n("e")),
                      RShift, n("f")),
                BitOr, binop(n("g"), BitXor, binop(n("h"), BitAnd, binop(n("i"), Pow, n("j")))))));
  AST_DUMP(
      R"py(x = ~a, +b, not d)py",
      R"py(Module(body=[Assign(targets=[Name(id='x', ctx=Store())], value=Tuple(elts=[UnaryOp(op=Invert(), operand=Name(id='a', ctx=Load())), UnaryOp(op=UAdd(), operand=Name(id='b', ctx=Load())), UnaryOp(op=Not(), operand=Name(id='d', ctx=Load()))], ctx=Load()))]))py",
      assign(st("x"),
             tuple(exprs(unaryop(Invert, n("a")), unaryop(UAdd, n("b")), unaryop(Not, n("d"))))));
  AST_DUMP(
      R"py(a and not b or c < d <= e is not f)py",
      R"py(Module(body=[Expr(value=BoolOp(op=Or(), values=[BoolOp(op=And(), values=[Name(id='a', ctx=Load()), UnaryOp(op=Not(), operand=Name(id='b', ctx=Load()))]), Compare(left=Name(id='c', ctx=Load()), ops=[Lt(), LtE(), IsNot()], comparators=[Name(id='d', ctx=Load()), Name(id='e', ctx=Load()), Name(id='f', ctx=Load())])]))]))py",
      expr_stmt(boolop(Or, exprs(boolop(And, exprs(n("a"), unaryop(Not, n("b")))),
                                 compare(n("c"), std::vector<CmpOperator>{Lt, LtE, IsNot},
                                         exprs(n("d"), n("e"), n("f")))))));
  AST_DUMP(
      R"py(y = a if b else c)py",
      R"py(Module(body=[Assign(targets=[Name(id='y', ctx=Store())], value=IfExp(test=Name(id='b', ctx=Load()), body=Name(id='a', ctx=Load()), orelse=Name(id='c', ctx=Load())))]))py",
      assign(st("y"), if_exp(n("b"), n("a"), n("c"))));
  AST_DUMP(
      R"py(z = (w := 1))py",
      R"py(Module(body=[Assign(targets=[Name(id='z', ctx=Store())], value=NamedExpr(target=Name(id='w', ctx=Store()), value=Constant(value=1)))]))py",
      assign(st("z"), named_expr(st("w"), num(1))));
  AST_DUMP(
      R"py(f(*a, k=1, **kw).m[i:j, ::2]())py",
      R"py(Module(body=[Expr(value=Call(func=Subscript(value=Attribute(value=Call(func=Name(id='f', ctx=Load()), args=[Starred(value=Name(id='a', ctx=Load()), ctx=Load())], keywords=[keyword(arg='k', value=Constant(value=1)), keyword(value=Name(id='kw', ctx=Load()))]), attr='m', ctx=Load()), slice=Tuple(elts=[Slice(lower=Name(id='i', ctx=Load()), upper=Name(id='j', ctx=Load())), Slice(step=Constant(value=2))], ctx=Load()), ctx=Load())))]))py",
      expr_stmt(
          call(subscript(attribute(call(n("f"), exprs(starred(n("a"))),
                                        {keyword("k", num(1)), double_star(n("kw"))}),
                                   "m"),
                         tuple(exprs(slice(n("i"), n("j")), slice(nullptr, nullptr, num(2))))))));
  AST_DUMP(
      R"py(l = lambda a, *, k=1, **kw: (yield from g))py",
      R"py(Module(body=[Assign(targets=[Name(id='l', ctx=Store())], value=Lambda(args=arguments(args=[arg(arg='a')], kwonlyargs=[arg(arg='k')], kw_defaults=[Constant(value=1)], kwarg=arg(arg='kw')), body=YieldFrom(value=Name(id='g', ctx=Load()))))]))py",
      assign(st("l"), lambda(Arguments{.args = {arg("a")},
                                       .kwonlyargs = {arg("k")},
                                       .kw_defaults = {num(1)},
                                       .kwarg = arg("kw")},
                             yield_from(n("g")))));
  AST_DUMP(
      R"py(d = {k: v for k, v in t if k}, {e for e in t}, (e async for e in t), [*a], {**m, 1: 2})py",
      R"py(Module(body=[Assign(targets=[Name(id='d', ctx=Store())], value=Tuple(elts=[DictComp(key=Name(id='k', ctx=Load()), value=Name(id='v', ctx=Load()), generators=[comprehension(target=Tuple(elts=[Name(id='k', ctx=Store()), Name(id='v', ctx=Store())], ctx=Store()), iter=Name(id='t', ctx=Load()), ifs=[Name(id='k', ctx=Load())], is_async=0)]), SetComp(elt=Name(id='e', ctx=Load()), generators=[comprehension(target=Name(id='e', ctx=Store()), iter=Name(id='t', ctx=Load()), is_async=0)]), GeneratorExp(elt=Name(id='e', ctx=Load()), generators=[comprehension(target=Name(id='e', ctx=Store()), iter=Name(id='t', ctx=Load()), is_async=1)]), List(elts=[Starred(value=Name(id='a', ctx=Load()), ctx=Load())], ctx=Load()), Dict(keys=[None, Constant(value=1)], values=[Name(id='m', ctx=Load()), Constant(value=2)])], ctx=Load()))]))py",
      assign(st("d"), tuple(exprs(dict_comp(n("k"), n("v"),
                                            {comprehension(tuple(exprs(st("k"), st("v")), kStore),
                                                           n("t"), exprs(n("k")))}),
                                  set_comp(n("e"), {comprehension(st("e"), n("t"))}),
                                  generator_exp(n("e"), {comprehension(st("e"), n("t"), {}, true)}),
                                  list(exprs(starred(n("a")))),
                                  dict(exprs(nullptr, num(1)), exprs(n("m"), num(2)))))));
  AST_DUMP(
      R"py(s = {1, 2}; l = [x for x in y])py",
      R"py(Module(body=[Assign(targets=[Name(id='s', ctx=Store())], value=Set(elts=[Constant(value=1), Constant(value=2)])), Assign(targets=[Name(id='l', ctx=Store())], value=ListComp(elt=Name(id='x', ctx=Load()), generators=[comprehension(target=Name(id='x', ctx=Store()), iter=Name(id='y', ctx=Load()), is_async=0)]))]))py",
      assign(st("s"), set(exprs(num(1), num(2)))),
      assign(st("l"), list_comp(n("x"), {comprehension(st("x"), n("y"))})));
  AST_DUMP(
      R"py(f'{x!r:>{w}} and {y}')py",
      R"py(Module(body=[Expr(value=JoinedStr(values=[FormattedValue(value=Name(id='x', ctx=Load()), conversion=114, format_spec=JoinedStr(values=[Constant(value='>'), FormattedValue(value=Name(id='w', ctx=Load()), conversion=-1)])), Constant(value=' and '), FormattedValue(value=Name(id='y', ctx=Load()), conversion=-1)]))]))py",
      expr_stmt(joined_str(
          exprs(formatted_value(n("x"), 'r', joined_str(exprs(txt(">"), formatted_value(n("w"))))),
                txt(" and "), formatted_value(n("y"))))));
  AST_DUMP(
      R"py(print(..., None, True, 1.5, 2j, b'x', "it's", 10**30))py",
      R"py(Module(body=[Expr(value=Call(func=Name(id='print', ctx=Load()), args=[Constant(value=Ellipsis), Constant(value=None), Constant(value=True), Constant(value=1.5), Constant(value=2j), Constant(value=b'x'), Constant(value="it's"), BinOp(left=Constant(value=10), op=Pow(), right=Constant(value=30))]))]))py",
      expr_stmt(call(n("print"),
                     exprs(ellipsis(), none(), boolean(true), floating(1.5), complex_number(0, 2),
                           bytes("x"), txt("it's"), binop(num(10), Pow, num(30))))));
}

TEST(AstDump, StatementsMatchPython) {
  AST_DUMP(
      R"py(a, *b = c; del x[1:2], y.z; x += 1; y: list[int] = []; (q): int)py",
      R"py(Module(body=[Assign(targets=[Tuple(elts=[Name(id='a', ctx=Store()), Starred(value=Name(id='b', ctx=Store()), ctx=Store())], ctx=Store())], value=Name(id='c', ctx=Load())), Delete(targets=[Subscript(value=Name(id='x', ctx=Load()), slice=Slice(lower=Constant(value=1), upper=Constant(value=2)), ctx=Del()), Attribute(value=Name(id='y', ctx=Load()), attr='z', ctx=Del())]), AugAssign(target=Name(id='x', ctx=Store()), op=Add(), value=Constant(value=1)), AnnAssign(target=Name(id='y', ctx=Store()), annotation=Subscript(value=Name(id='list', ctx=Load()), slice=Name(id='int', ctx=Load()), ctx=Load()), value=List(ctx=Load()), simple=1), AnnAssign(target=Name(id='q', ctx=Store()), annotation=Name(id='int', ctx=Load()), simple=0)]))py",
      assign(tuple(exprs(st("a"), starred(st("b"), kStore)), kStore), n("c")),
      delete_(exprs(subscript(n("x"), slice(num(1), num(2)), kDel), attribute(n("y"), "z", kDel))),
      aug_assign(st("x"), Add, num(1)),
      ann_assign(st("y"), subscript(n("list"), n("int")), list({})),
      ann_assign(st("q"), n("int"), nullptr, false));
  AST_DUMP(
      R"py(
if a:
    pass
elif b:
    break
else:
    continue
while x := f():
    pass
else:
    raise
for i, j in z:
    raise E from e
)py",
      R"py(Module(body=[If(test=Name(id='a', ctx=Load()), body=[Pass()], orelse=[If(test=Name(id='b', ctx=Load()), body=[Break()], orelse=[Continue()])]), While(test=NamedExpr(target=Name(id='x', ctx=Store()), value=Call(func=Name(id='f', ctx=Load()))), body=[Pass()], orelse=[Raise()]), For(target=Tuple(elts=[Name(id='i', ctx=Store()), Name(id='j', ctx=Store())], ctx=Store()), iter=Name(id='z', ctx=Load()), body=[Raise(exc=Name(id='E', ctx=Load()), cause=Name(id='e', ctx=Load()))])]))py",
      if_(n("a"), body(pass()), body(if_(n("b"), body(break_()), body(continue_())))),
      while_(named_expr(st("x"), call(n("f"))), body(pass()), body(raise_())),
      for_(tuple(exprs(st("i"), st("j")), kStore), n("z"), body(raise_(n("E"), n("e")))));
  AST_DUMP(
      R"py(
async def f(a, /, b=1, *c, d, e=2, **g) -> T:
    async for x in y:
        await x
    async with a as b, c:
        yield
    return [i async for i in y if i]
)py",
      R"py(Module(body=[AsyncFunctionDef(name='f', args=arguments(posonlyargs=[arg(arg='a')], args=[arg(arg='b')], vararg=arg(arg='c'), kwonlyargs=[arg(arg='d'), arg(arg='e')], kw_defaults=[None, Constant(value=2)], kwarg=arg(arg='g'), defaults=[Constant(value=1)]), body=[AsyncFor(target=Name(id='x', ctx=Store()), iter=Name(id='y', ctx=Load()), body=[Expr(value=Await(value=Name(id='x', ctx=Load())))]), AsyncWith(items=[withitem(context_expr=Name(id='a', ctx=Load()), optional_vars=Name(id='b', ctx=Store())), withitem(context_expr=Name(id='c', ctx=Load()))], body=[Expr(value=Yield())]), Return(value=ListComp(elt=Name(id='i', ctx=Load()), generators=[comprehension(target=Name(id='i', ctx=Store()), iter=Name(id='y', ctx=Load()), ifs=[Name(id='i', ctx=Load())], is_async=1)]))], returns=Name(id='T', ctx=Load()))]))py",
      async_function_def(
          "f",
          Arguments{.posonlyargs = {arg("a")},
                    .args = {arg("b")},
                    .vararg = arg("c"),
                    .kwonlyargs = {arg("d"), arg("e")},
                    .kw_defaults = {nullptr, num(2)},
                    .kwarg = arg("g"),
                    .defaults = {num(1)}},
          body(async_for(st("x"), n("y"), body(expr_stmt(await_(n("x"))))),
               async_with({with_item(n("a"), st("b")), with_item(n("c"))},
                          body(expr_stmt(yield_()))),
               return_(list_comp(n("i"), {comprehension(st("i"), n("y"), exprs(n("i")), true)}))),
          {}, n("T")));
  AST_DUMP(
      R"py(
@dec
class C(B, metaclass=M):
    'doc'
    def m(self, x: int) -> None:
        global g
        nonlocal n
        return
)py",
      R"py(Module(body=[ClassDef(name='C', bases=[Name(id='B', ctx=Load())], keywords=[keyword(arg='metaclass', value=Name(id='M', ctx=Load()))], body=[Expr(value=Constant(value='doc')), FunctionDef(name='m', args=arguments(args=[arg(arg='self'), arg(arg='x', annotation=Name(id='int', ctx=Load()))]), body=[Global(names=['g']), Nonlocal(names=['n']), Return()], returns=Constant(value=None))], decorator_list=[Name(id='dec', ctx=Load())])]))py",
      class_def("C", exprs(n("B")), {keyword("metaclass", n("M"))},
                body(expr_stmt(txt("doc")),
                     function_def("m", Arguments{.args = {arg("self"), arg("x", n("int"))}},
                                  body(global({"g"}), nonlocal({"n"}), return_()), {}, none())),
                exprs(n("dec"))));
  AST_DUMP(
      R"py(
try:
    pass
except (A, B) as e:
    pass
except:
    pass
else:
    pass
finally:
    assert x, 'm'
try:
    pass
except* E:
    pass
)py",
      R"py(Module(body=[Try(body=[Pass()], handlers=[ExceptHandler(type=Tuple(elts=[Name(id='A', ctx=Load()), Name(id='B', ctx=Load())], ctx=Load()), name='e', body=[Pass()]), ExceptHandler(body=[Pass()])], orelse=[Pass()], finalbody=[Assert(test=Name(id='x', ctx=Load()), msg=Constant(value='m'))]), TryStar(body=[Pass()], handlers=[ExceptHandler(type=Name(id='E', ctx=Load()), body=[Pass()])])]))py",
      try_(body(pass()),
           {except_handler(tuple(exprs(n("A"), n("B"))), "e", body(pass())),
            except_handler(nullptr, std::nullopt, body(pass()))},
           body(pass()), body(assert_(n("x"), txt("m")))),
      try_star(body(pass()), {except_handler(n("E"), std::nullopt, body(pass()))}));
  AST_DUMP(
      R"py(
import a.b as c, d
from ..m import x as y, z
from . import *
with open(p) as f:
    pass
)py",
      R"py(Module(body=[Import(names=[alias(name='a.b', asname='c'), alias(name='d')]), ImportFrom(module='m', names=[alias(name='x', asname='y'), alias(name='z')], level=2), ImportFrom(names=[alias(name='*')], level=1), With(items=[withitem(context_expr=Call(func=Name(id='open', ctx=Load()), args=[Name(id='p', ctx=Load())]), optional_vars=Name(id='f', ctx=Store()))], body=[Pass()])]))py",
      import_({alias("a.b", "c"), alias("d")}), import_from("m", {alias("x", "y"), alias("z")}, 2),
      import_from("", {alias("*")}, 1),
      with_({with_item(call(n("open"), exprs(n("p"))), st("f"))}, body(pass())));
  AST_DUMP(
      R"py(
match p:
    case [1, *r] if r:
        pass
    case {'k': v, **kw}:
        pass
    case C(1, a=b) | None as z:
        pass
    case [*_, _]:
        pass
)py",
      R"py(Module(body=[Match(subject=Name(id='p', ctx=Load()), cases=[match_case(pattern=MatchSequence(patterns=[MatchValue(value=Constant(value=1)), MatchStar(name='r')]), guard=Name(id='r', ctx=Load()), body=[Pass()]), match_case(pattern=MatchMapping(keys=[Constant(value='k')], patterns=[MatchAs(name='v')], rest='kw'), body=[Pass()]), match_case(pattern=MatchAs(pattern=MatchOr(patterns=[MatchClass(cls=Name(id='C', ctx=Load()), patterns=[MatchValue(value=Constant(value=1))], kwd_attrs=['a'], kwd_patterns=[MatchAs(name='b')]), MatchSingleton(value=None)]), name='z'), body=[Pass()]), match_case(pattern=MatchSequence(patterns=[MatchStar(), MatchAs()]), body=[Pass()])])]))py",
      match(
          n("p"),
          {match_case(match_sequence({match_value(num(1)), match_star("r")}), body(pass()), n("r")),
           match_case(match_mapping(exprs(txt("k")), {capture("v")}, "kw"), body(pass())),
           match_case(
               match_as(match_or({match_class(n("C"), {match_value(num(1))}, {"a"}, {capture("b")}),
                                  match_singleton(make_object(NoneValue{}))}),
                        "z"),
               body(pass())),
           match_case(match_sequence({match_star(), wildcard()}), body(pass()))}));
  AST_DUMP(
      R"py(
type X[T: int, *Ts, **P] = dict[T, P]
def f[T = int]():
    pass
class K[T](Base):
    pass
)py",
      R"py(Module(body=[TypeAlias(name=Name(id='X', ctx=Store()), type_params=[TypeVar(name='T', bound=Name(id='int', ctx=Load())), TypeVarTuple(name='Ts'), ParamSpec(name='P')], value=Subscript(value=Name(id='dict', ctx=Load()), slice=Tuple(elts=[Name(id='T', ctx=Load()), Name(id='P', ctx=Load())], ctx=Load()), ctx=Load())), FunctionDef(name='f', args=arguments(), body=[Pass()], type_params=[TypeVar(name='T', default_value=Name(id='int', ctx=Load()))]), ClassDef(name='K', bases=[Name(id='Base', ctx=Load())], body=[Pass()], type_params=[TypeVar(name='T')])]))py",
      type_alias(st("X"), {type_var("T", n("int")), type_var_tuple("Ts"), param_spec("P")},
                 subscript(n("dict"), tuple(exprs(n("T"), n("P"))))),
      function_def("f", {}, body(pass()), {}, nullptr, {type_var("T", nullptr, n("int"))}),
      class_def("K", exprs(n("Base")), {}, body(pass()), {}, {type_var("T")}));
}

}  // namespace

// --- NameText ------------------------------------------------------------------

TEST(NameText, OwnedAndBorrowedReadAlike) {
  const std::string table = "encoder_attention_mask";  // longer than a short-string buffer
  ast::NameText owned(table);
  ast::NameText borrowed = ast::NameText::borrowed(table);
  EXPECT_EQ(owned, borrowed);
  EXPECT_EQ(borrowed, "encoder_attention_mask");
  EXPECT_EQ(borrowed, table);
  EXPECT_EQ(borrowed.view().data(), table.data());  // a view: no copy was made
  EXPECT_NE(owned.view().data(), table.data());     // a copy
  EXPECT_EQ(borrowed.size(), table.size());
  EXPECT_TRUE(borrowed.starts_with("encoder_"));
  EXPECT_EQ(borrowed[0], 'e');
  EXPECT_EQ("x." + borrowed, "x.encoder_attention_mask");
}

TEST(NameText, CopiesKeepWhatTheyAre) {
  const std::string table = "v";
  ast::NameText borrowed = ast::NameText::borrowed(table);
  ast::NameText copy = borrowed;
  EXPECT_EQ(copy.view().data(), table.data());
  // An owned short name lives inside the object: a copy or a move reads its own.
  ast::NameText owned(std::string("short"));
  ast::NameText owned_copy = owned;
  ast::NameText moved = std::move(owned);
  EXPECT_EQ(owned_copy, "short");
  EXPECT_EQ(moved, "short");
  EXPECT_NE(owned_copy.view().data(), moved.view().data());
}

TEST(NameText, EmptyAndOrdered) {
  EXPECT_TRUE(ast::NameText().empty());
  EXPECT_TRUE(ast::NameText::borrowed(std::string_view()).empty());
  EXPECT_EQ(ast::NameText::borrowed(std::string_view()), "");
  EXPECT_LT(ast::NameText("a"), ast::NameText::borrowed("b"));
  ast::NameSet names{"_t1", "_t2"};
  const std::string text = "_t2";
  EXPECT_EQ(names.count(ast::NameText::borrowed(text)), 1u);  // looked up without a std::string
  EXPECT_EQ(names.count(ast::NameText("_t3")), 0u);
}

}  // namespace unveil::ast
