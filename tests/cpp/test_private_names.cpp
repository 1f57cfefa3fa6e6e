// Private-name spelling (decompile/private_names): `_C__x` back to `__x`
// inside class C, and the whole driver on classes that use such names.
#include <gtest/gtest.h>

#include <string>

#include "ast/build.h"
#include "decompile/private_names.h"
#include "emit/unparse.h"

namespace unveil {
namespace {

using decompile::mangled;
using decompile::private_prefix;
using decompile::unmangle_private_names;

TEST(PrivateNames, PrefixStripsLeadingUnderscores) {
  EXPECT_EQ(private_prefix("C"), "_C");
  EXPECT_EQ(private_prefix("__Meta"), "_Meta");
  EXPECT_EQ(private_prefix("___"), "");  // all underscores: no mangling
}

TEST(PrivateNames, OnlyPrivateNamesAreMangled) {
  EXPECT_EQ(mangled("__x", "_C"), "_C__x");
  EXPECT_EQ(mangled("__init__", "_C"), "__init__");  // dunder
  EXPECT_EQ(mangled("_x", "_C"), "_x");
  EXPECT_EQ(mangled("__x", ""), "__x");
}

TEST(PrivateNames, NamesAttributesAndDefinitionsAreSpelledAsWritten) {
  ast::StmtList body{
      ast::assign(ast::attribute(ast::name("self"), "_C__x", ast::ExprContext::Store), ast::name("_C__y")),
      ast::function_def("_C__f", {}, {ast::pass()}),
      ast::expr_stmt(ast::attribute(ast::name("o"), "_D__z")),  // another class's: kept
      ast::expr_stmt(ast::name("_C__init__")),                  // would be a dunder: kept
  };
  EXPECT_EQ(unparse(unmangle_private_names(body, "_C")),
            "self.__x = __y\n\n\ndef __f():\n    pass\n\n\no._D__z\n_C__init__");
  EXPECT_EQ(unparse(unmangle_private_names(body, "")), unparse(body));
}

}  // namespace
}  // namespace unveil
