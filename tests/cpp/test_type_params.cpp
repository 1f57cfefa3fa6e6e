// PEP 695 type parameters (3.12+): generic defs, classes and type aliases
// compiled by the pyenv Pythons come back with their type parameters; bad
// intrinsic input is a clear error in the fallback, never a crash; and 3.14,
// which has no interpreter here, on hand-assembled code objects.
#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "assembler.h"
#include "decompile/decompile.h"
#include "objects.h"
#include "python_snippets.h"
#include "read/object.h"
#include "support/error.h"

namespace unveil {
namespace {

using testing::Assembler;

// The interpreters with type parameter syntax.
const std::array<const char*, 2> kTypeParamPythons = {"3.12.1", "3.13.0"};

// Decompiles `source` with each available interpreter from 3.<from_minor>.
void expect_source(const std::string& source, const std::string& expected, int from_minor = 12) {
  int ran = 0;
  for (const char* v : kTypeParamPythons) {
    const int minor = std::stoi(std::string(v).substr(2));
    if (minor < from_minor) continue;
    auto data = testing::marshal_snippet(v, source);
    if (data.empty()) continue;
    ++ran;
    EXPECT_EQ(decompile_marshal(data, minor, "", {}), expected) << "Python " << v;
  }
  if (ran == 0) GTEST_SKIP() << "no pyenv Python 3.12+ available";
}

using testing::code_const;
using testing::text;

}  // namespace

TEST(TypeParams, GenericDefsWithBoundsConstraintsAndDecorators) {
  expect_source(
      "@dec\ndef f[T: int, S: (str, bytes), *Ts, **P](x: T, y=1, *, z: S = 2) -> T:\n    return x\n",
      "@dec\ndef f[T: int, S: (str, bytes), *Ts, **P](x: T, y=1, *, z: S = 2) -> T:\n    return x\n");
}

TEST(TypeParams, GenericClassesKeepTheirBasesAndKeywords) {
  expect_source(
      "class C[T](B, metaclass=M):\n    def m[U](self, a: T) -> U:\n        return a\n",
      "class C[T](B, metaclass=M):\n    def m[U](self, a: T) -> U:\n        return a\n");
}

TEST(TypeParams, GenericTypeAliases) {
  expect_source("type Tree[T] = T | list[Tree[T]]\n", "type Tree[T] = T | list[Tree[T]]\n");
}

TEST(TypeParams, DefaultsOfEveryKind) {  // PEP 696, 3.13+
  expect_source("def f[T: int = bool, *Ts = *tuple[int], **P = [int]](x):\n    return x\n",
                "def f[T: int = bool, *Ts = *tuple[int], **P = [int]](x):\n    return x\n", 13);
}

// --- bad input: each intrinsic with the wrong operands --------------------------

class BadTypeParams : public ::testing::TestWithParam<int> {
 protected:
  int minor() const { return GetParam(); }
  // The module decompiles to a fallback whose comment says what is wrong.
  void expect_fallback(Assembler& a, std::vector<ObjectRef> consts, const std::string& says) {
    auto code = a.code();
    code->consts = std::move(consts);
    code->name = code->qualname = "<module>";
    std::string source;
    ASSERT_NO_THROW(source = decompile_to_source(code, *find_version(minor())));
    EXPECT_NE(source.find(says), std::string::npos) << source;
    EXPECT_NE(source.find("raise RuntimeError("), std::string::npos) << source;
  }
};

constexpr std::uint32_t kTypeVar = 7, kSubscriptGeneric = 10;          // intrinsic_1
constexpr std::uint32_t kWithBound = 2, kSetFunctionTypeParams = 4;    // intrinsic_2

TEST_P(BadTypeParams, NameThatIsNotAString) {
  Assembler a(minor());
  a.op("LOAD_CONST", 0);
  a.op("CALL_INTRINSIC_1", kTypeVar);
  a.op("RETURN_VALUE");
  expect_fallback(a, {make_object(NoneValue{})}, "a type parameter's name is not an identifier");
}

TEST_P(BadTypeParams, BoundThatIsNotAFunction) {
  Assembler a(minor());
  a.op("LOAD_CONST", 0);
  a.op("LOAD_CONST", 0);
  a.op("CALL_INTRINSIC_2", kWithBound);
  a.op("RETURN_VALUE");
  expect_fallback(a, {text("T")}, "a type parameter's bound is not a lazily computed value");
}

TEST_P(BadTypeParams, TypeParamsOnSomethingThatIsNotAFunction) {
  Assembler a(minor());
  a.op("LOAD_CONST", 0);
  a.op("LOAD_CONST", 0);
  a.op("CALL_INTRINSIC_2", kSetFunctionTypeParams);
  a.op("RETURN_VALUE");
  expect_fallback(a, {text("T")}, "type parameters set on something that is not a function");
}

TEST_P(BadTypeParams, GenericOfSomethingElse) {
  Assembler a(minor());
  a.op("LOAD_CONST", 0);
  a.op("CALL_INTRINSIC_1", kSubscriptGeneric);
  a.op("RETURN_VALUE");
  expect_fallback(a, {text("T")}, "Generic[...] of something that is not the type parameters");
}

TEST_P(BadTypeParams, TypeParameterUsedAsAValue) {
  Assembler a(minor());
  a.op("LOAD_CONST", 0);
  a.op("CALL_INTRINSIC_1", kTypeVar);
  a.op("LOAD_CONST", 0);
  a.op("BUILD_TUPLE", 2);
  a.op("RETURN_VALUE");
  expect_fallback(a, {text("T")}, "value without a source form used as an expression");
}

// A `<generic parameters of f>` that does not make f: the def falls back
// under its name, with the reason; the module goes on.
TEST_P(BadTypeParams, WrapperThatMakesNothing) {
  Assembler w(minor());
  w.op("LOAD_CONST", 0);
  w.op("RETURN_VALUE");
  auto wrapper = w.code();
  wrapper->name = wrapper->qualname = "<generic parameters of f>";
  wrapper->varnames = wrapper->localsplusnames = {};
  wrapper->localspluskinds = {};
  wrapper->nlocals = 0;
  wrapper->flags = kCoOptimized | kCoNewLocals;

  Assembler a(minor());
  if (minor() == 12) a.op("PUSH_NULL");
  a.op("LOAD_CONST", 1);
  a.op("MAKE_FUNCTION", 0);
  if (minor() >= 13) a.op("PUSH_NULL");
  a.op("CALL", 0);
  a.op("STORE_NAME", 0);
  a.op("LOAD_CONST", 0);
  a.op("RETURN_VALUE");
  auto module = a.code();
  module->consts = {make_object(NoneValue{}), code_const(wrapper)};
  module->names = {"f"};
  module->name = module->qualname = "<module>";
  const std::string source = decompile_to_source(module, *find_version(minor()));
  EXPECT_NE(source.find("def f(*args, **kwargs):\n    # unveil: could not decompile <generic parameters of f>: "),
            std::string::npos)
      << source;
  EXPECT_NE(source.find("<generic parameters of f> does more than make f"), std::string::npos) << source;
  EXPECT_NE(source.find("raise RuntimeError('unveil could not decompile <generic parameters of f>')"),
            std::string::npos)
      << source;
}

INSTANTIATE_TEST_SUITE_P(Versions, BadTypeParams, ::testing::Values(12, 13, 14),
                         [](const auto& info) { return "py3" + std::to_string(info.param); });

// --- 3.14, from its opcode tables ---------------------------------------------------

// A 3.14 annotation scope returning the global `int`: a `format` argument and
// the NotImplementedError guard for the formats it cannot compute.
std::shared_ptr<CodeObject> annotation_scope_returning_int(const std::string& name, const std::string& qualname) {
  Assembler b(14);
  const int body = b.label();
  b.op("RESUME", 0);
  b.op("LOAD_FAST_BORROW", 0);
  b.op("LOAD_SMALL_INT", 2);
  b.op("COMPARE_OP", (4u << 5) | 16u);  // >, result as bool
  b.jump("POP_JUMP_IF_FALSE", body);
  b.op("NOT_TAKEN");
  b.op("LOAD_COMMON_CONSTANT", 1);  // NotImplementedError
  b.op("RAISE_VARARGS", 1);
  b.bind(body);
  b.op("LOAD_GLOBAL", 0);  // int
  b.op("RETURN_VALUE");
  auto code = b.code();
  code->name = name;
  code->qualname = qualname;
  code->argcount = code->posonlyargcount = 1;
  code->varnames = code->localsplusnames = {"format"};
  code->localspluskinds = {kLocalPlain | kLocalArgPos};
  code->names = {"int"};
  code->consts = {};
  code->flags = kCoOptimized | kCoNewLocals;
  return code;
}

// `type X = int` as 3.14 compiles it: the value is an annotation scope.
TEST(TypeParams314, TypeAliasValueIsAnAnnotationScope) {
  Assembler m(14);
  m.op("RESUME", 0);
  m.op("LOAD_CONST", 0);  // 'X'
  m.op("LOAD_CONST", 1);  // None
  m.op("LOAD_CONST", 2);  // <code X>
  m.op("MAKE_FUNCTION");
  m.op("BUILD_TUPLE", 3);
  m.op("CALL_INTRINSIC_1", 11);  // INTRINSIC_TYPEALIAS
  m.op("STORE_NAME", 0);
  m.op("LOAD_CONST", 1);
  m.op("RETURN_VALUE");
  auto module = m.code();
  module->consts = {text("X"), make_object(NoneValue{}), code_const(annotation_scope_returning_int("X", "X"))};
  module->names = {"X"};
  module->varnames = module->localsplusnames = {};
  module->localspluskinds = {};
  module->name = module->qualname = "<module>";
  EXPECT_EQ(decompile_to_source(module, *find_version(14)), "type X = int\n");
}

// `def first[T: int](x): return x` as 3.14 compiles it: the bound is an
// annotation scope whose function gets `format` a default of 1.
TEST(TypeParams314, GenericDefWithAnAnnotationScopeBound) {
  const int minor = 14;
  auto bound = annotation_scope_returning_int("T", "<generic parameters of first>.T");

  Assembler f(minor);
  f.op("RESUME", 0);
  f.op("LOAD_FAST_BORROW", 0);
  f.op("RETURN_VALUE");
  auto first = f.code();
  first->name = "first";
  first->qualname = "first";
  first->argcount = 1;
  first->localspluskinds = {kLocalPlain | kLocalArgPos | kLocalArgKw};
  first->consts = {};
  first->flags = kCoOptimized | kCoNewLocals;

  Assembler w(minor);
  w.op("RESUME", 0);
  w.op("LOAD_CONST", 0);  // 'T'
  w.op("LOAD_CONST", 1);  // (1,)
  w.op("LOAD_CONST", 2);  // <code T>
  w.op("MAKE_FUNCTION");
  w.op("SET_FUNCTION_ATTRIBUTE", 1);
  w.op("CALL_INTRINSIC_2", kWithBound);
  w.op("COPY", 1);
  w.op("STORE_FAST", 0);
  w.op("BUILD_TUPLE", 1);
  w.op("LOAD_CONST", 3);  // <code first>
  w.op("MAKE_FUNCTION");
  w.op("SWAP", 2);
  w.op("CALL_INTRINSIC_2", kSetFunctionTypeParams);
  w.op("RETURN_VALUE");
  auto wrapper = w.code();
  wrapper->name = wrapper->qualname = "<generic parameters of first>";
  wrapper->varnames = wrapper->localsplusnames = {"T"};
  wrapper->localspluskinds = {kLocalPlain};
  wrapper->consts = {text("T"), make_object(TupleValue{{make_object(IntValue{.small = 1, .digits = {}})}}),
                     code_const(bound), code_const(first)};
  wrapper->flags = kCoOptimized | kCoNewLocals;

  Assembler m(minor);
  m.op("RESUME", 0);
  m.op("LOAD_CONST", 0);
  m.op("MAKE_FUNCTION");
  m.op("PUSH_NULL");
  m.op("CALL", 0);
  m.op("STORE_NAME", 0);
  m.op("LOAD_CONST", 1);
  m.op("RETURN_VALUE");
  auto module = m.code();
  module->consts = {code_const(wrapper), make_object(NoneValue{})};
  module->names = {"first"};
  module->varnames = module->localsplusnames = {};
  module->localspluskinds = {};
  module->name = module->qualname = "<module>";

  EXPECT_EQ(decompile_to_source(module, *find_version(minor)), "def first[T: int](x):\n    return x\n");
}

// `class C[T]: pass` as 3.14 compiles it: the wrapper keeps the tuple in the
// cell `.type_params` for the class body and passes Generic[T] as the last base.
TEST(TypeParams314, GenericClass) {
  Assembler b(14);
  b.op("COPY_FREE_VARS", 1);
  b.op("RESUME", 0);
  b.op("LOAD_NAME", 0);   // __name__
  b.op("STORE_NAME", 1);  // __module__
  b.op("LOAD_CONST", 0);  // 'C'
  b.op("STORE_NAME", 2);  // __qualname__
  b.op("LOAD_SMALL_INT", 1);
  b.op("STORE_NAME", 3);  // __firstlineno__
  b.op("LOAD_LOCALS");
  b.op("LOAD_FROM_DICT_OR_DEREF", 0);  // .type_params
  b.op("STORE_NAME", 4);               // __type_params__
  b.op("LOAD_CONST", 1);               // ()
  b.op("STORE_NAME", 5);               // __static_attributes__
  b.op("LOAD_CONST", 2);               // None
  b.op("RETURN_VALUE");
  auto body = b.code();
  body->name = body->qualname = "C";
  body->names = {"__name__", "__module__", "__qualname__", "__firstlineno__", "__type_params__", "__static_attributes__"};
  body->consts = {text("C"), make_object(TupleValue{}), make_object(NoneValue{})};
  body->varnames = {};
  body->freevars = body->localsplusnames = {".type_params"};
  body->localspluskinds = {kLocalFree};
  body->nlocals = 0;
  body->flags = 0;

  Assembler w(14);
  w.op("MAKE_CELL", 2);
  w.op("RESUME", 0);
  w.op("LOAD_CONST", 0);  // 'T'
  w.op("CALL_INTRINSIC_1", kTypeVar);
  w.op("COPY", 1);
  w.op("STORE_FAST", 0);  // T
  w.op("BUILD_TUPLE", 1);
  w.op("STORE_DEREF", 2);  // .type_params
  w.op("LOAD_BUILD_CLASS");
  w.op("PUSH_NULL");
  w.op("LOAD_FAST", 2);
  w.op("BUILD_TUPLE", 1);
  w.op("LOAD_CONST", 1);  // <code C>
  w.op("MAKE_FUNCTION");
  w.op("SET_FUNCTION_ATTRIBUTE", 8);
  w.op("LOAD_CONST", 2);  // 'C'
  w.op("LOAD_DEREF", 2);
  w.op("CALL_INTRINSIC_1", kSubscriptGeneric);
  w.op("STORE_FAST", 1);  // .generic_base
  w.op("LOAD_FAST", 1);
  w.op("CALL", 3);
  w.op("RETURN_VALUE");
  auto wrapper = w.code();
  wrapper->name = wrapper->qualname = "<generic parameters of C>";
  wrapper->consts = {text("T"), code_const(body), text("C")};
  wrapper->varnames = {"T", ".generic_base"};
  wrapper->cellvars = {".type_params"};
  wrapper->localsplusnames = {"T", ".generic_base", ".type_params"};
  wrapper->localspluskinds = {kLocalPlain, kLocalPlain, kLocalCell};
  wrapper->nlocals = 2;
  wrapper->flags = kCoOptimized | kCoNewLocals;

  Assembler m(14);
  m.op("RESUME", 0);
  m.op("LOAD_CONST", 0);
  m.op("MAKE_FUNCTION");
  m.op("PUSH_NULL");
  m.op("CALL", 0);
  m.op("STORE_NAME", 0);
  m.op("LOAD_CONST", 1);
  m.op("RETURN_VALUE");
  auto module = m.code();
  module->consts = {code_const(wrapper), make_object(NoneValue{})};
  module->names = {"C"};
  module->varnames = module->localsplusnames = {};
  module->localspluskinds = {};
  module->name = module->qualname = "<module>";
  EXPECT_EQ(decompile_to_source(module, *find_version(14)), "class C[T]:\n    pass\n");
}

}  // namespace unveil
