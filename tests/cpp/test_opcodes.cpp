// The generated opcode tables and the version registry.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>

#include "opcodes/version.h"
#include "versions.h"

namespace unveil {
namespace {

using testing::version;

// The opcode named `name`, or -1.
int opcode_or_minus_one(const VersionTraits& traits, std::string_view name) {
  const auto op = testing::find_opcode(traits, name);
  return op ? int{*op} : -1;
}

const OpcodeInfo& info(int minor, std::string_view name) {
  const VersionTraits& traits = version(minor);
  const int op = opcode_or_minus_one(traits, name);
  if (op < 0) throw std::runtime_error(std::string(name) + " missing");
  return traits.opcodes[op];
}

TEST(Opcodes, RegistryListsEveryVersionInOrder) {
  auto versions = all_versions();
  ASSERT_EQ(versions.size(), 7u);
  for (std::size_t i = 0; i < versions.size(); ++i) {
    EXPECT_EQ(versions[i]->minor, 8 + static_cast<int>(i));
    EXPECT_EQ(find_version(versions[i]->minor), versions[i]);
  }
  EXPECT_EQ(find_version(7), nullptr);
  EXPECT_EQ(find_version(15), nullptr);
  EXPECT_EQ(find_version(-1), nullptr);
}

TEST(Opcodes, FindVersionByMagic) {
  auto minor_of = [](std::uint16_t magic) {
    const VersionTraits* traits = find_version_by_magic(magic);
    return traits ? traits->minor : 0;
  };
  EXPECT_EQ(minor_of(3413), 8);
  EXPECT_EQ(minor_of(3400), 8);
  EXPECT_EQ(minor_of(3425), 9);
  EXPECT_EQ(minor_of(3439), 10);
  EXPECT_EQ(minor_of(3450), 11);
  EXPECT_EQ(minor_of(3495), 11);
  EXPECT_EQ(minor_of(3531), 12);
  EXPECT_EQ(minor_of(3571), 13);
  EXPECT_EQ(minor_of(3600), 14);
  EXPECT_EQ(minor_of(3627), 14);
  EXPECT_EQ(find_version_by_magic(3399), nullptr);
  EXPECT_EQ(find_version_by_magic(3414), nullptr);  // between 3.8 and 3.9
  EXPECT_EQ(find_version_by_magic(3628), nullptr);
  EXPECT_EQ(find_version_by_magic(0), nullptr);
  EXPECT_EQ(find_version_by_magic(0xffff), nullptr);
}

TEST(Opcodes, FinalMagicNumbers) {
  const std::uint16_t finals[] = {3413, 3425, 3439, 3495, 3531, 3571, 3627};
  for (int minor = 8; minor <= 14; ++minor) {
    EXPECT_EQ(version(minor).magic_last, finals[minor - 8]) << "3." << minor;
  }
}

TEST(Opcodes, LayoutFacts) {
  for (int minor = 8; minor <= 14; ++minor) {
    const VersionTraits& t = version(minor);
    SCOPED_TRACE("3." + std::to_string(minor));
    EXPECT_EQ(t.marshal_version, minor == 14 ? 5 : 4);
    EXPECT_EQ(t.jump_unit, minor <= 9 ? 1 : 2);
    EXPECT_EQ(t.compare_shift, minor <= 11 ? 0 : minor == 12 ? 4 : 5);
    EXPECT_EQ(t.locals_layout, minor <= 10 ? LocalsLayout::Split : LocalsLayout::LocalsPlus);
    EXPECT_EQ(t.has_exception_table(), minor >= 11);
    const LineTableFormat lines = minor <= 9    ? LineTableFormat::Lnotab
                                  : minor == 10 ? LineTableFormat::LineTable310
                                                : LineTableFormat::Locations;
    EXPECT_EQ(t.line_table, lines);
  }
}

TEST(Opcodes, ExtendedArgNumbers) {
  for (int minor = 8; minor <= 12; ++minor) EXPECT_EQ(version(minor).extended_arg, 144);
  EXPECT_EQ(version(13).extended_arg, 71);
  EXPECT_EQ(version(14).extended_arg, 69);
  for (const VersionTraits* t : all_versions()) {
    EXPECT_EQ(t->op(t->extended_arg).name, "EXTENDED_ARG");
    EXPECT_EQ(t->op(t->extended_arg).arg, ArgKind::Plain);
  }
}

TEST(Opcodes, NamesAreUniquePerVersion) {
  for (const VersionTraits* t : all_versions()) {
    std::set<std::string_view> seen;
    for (const OpcodeInfo& op : t->opcodes) {
      if (op.known()) {
        EXPECT_TRUE(seen.insert(op.name).second) << op.name;
      }
    }
    EXPECT_GT(seen.size(), 100u);
  }
}

TEST(Opcodes, InlineCacheCounts) {
  EXPECT_EQ(info(12, "LOAD_ATTR").caches, 9);
  EXPECT_EQ(info(11, "LOAD_ATTR").caches, 4);
  EXPECT_EQ(info(11, "LOAD_GLOBAL").caches, 5);
  EXPECT_EQ(info(12, "LOAD_GLOBAL").caches, 4);
  EXPECT_EQ(info(11, "LOAD_METHOD").caches, 10);
  EXPECT_EQ(info(11, "PRECALL").caches, 1);
  EXPECT_EQ(info(11, "CALL").caches, 4);
  EXPECT_EQ(info(13, "CALL").caches, 3);
  EXPECT_EQ(info(13, "CALL_KW").caches, 0);
  EXPECT_EQ(info(14, "CALL_KW").caches, 3);
  EXPECT_EQ(info(14, "BINARY_OP").caches, 5);
  EXPECT_EQ(info(13, "TO_BOOL").caches, 3);
  EXPECT_EQ(info(12, "JUMP_BACKWARD").caches, 0);
  EXPECT_EQ(info(13, "JUMP_BACKWARD").caches, 1);
  EXPECT_EQ(info(12, "FOR_ITER").caches, 1);
  EXPECT_EQ(info(10, "LOAD_ATTR").caches, 0);
  // Before 3.11 nothing has caches and there is no CACHE opcode.
  for (int minor = 8; minor <= 10; ++minor) {
    EXPECT_FALSE(version(minor).op(0).known());
    for (const OpcodeInfo& op : version(minor).opcodes) EXPECT_EQ(op.caches, 0) << op.name;
  }
  for (int minor = 11; minor <= 14; ++minor) EXPECT_EQ(version(minor).op(0).name, "CACHE");
}

TEST(Opcodes, ArgumentKinds) {
  EXPECT_EQ(info(10, "LOAD_GLOBAL").arg, ArgKind::Name);
  EXPECT_EQ(info(11, "LOAD_GLOBAL").arg, ArgKind::NameShift1);
  EXPECT_EQ(info(11, "LOAD_ATTR").arg, ArgKind::Name);
  EXPECT_EQ(info(12, "LOAD_ATTR").arg, ArgKind::NameShift1);
  EXPECT_EQ(info(12, "LOAD_SUPER_ATTR").arg, ArgKind::NameShift2);
  EXPECT_EQ(info(8, "LOAD_CONST").arg, ArgKind::Const);
  EXPECT_EQ(info(11, "KW_NAMES").arg, ArgKind::Const);
  EXPECT_EQ(info(12, "RETURN_CONST").arg, ArgKind::Const);
  EXPECT_EQ(info(8, "LOAD_FAST").arg, ArgKind::Local);
  EXPECT_EQ(info(12, "LOAD_FAST_AND_CLEAR").arg, ArgKind::Local);
  EXPECT_EQ(info(13, "LOAD_FAST_LOAD_FAST").arg, ArgKind::LocalPair);
  EXPECT_EQ(info(13, "STORE_FAST_STORE_FAST").arg, ArgKind::LocalPair);
  EXPECT_EQ(info(14, "LOAD_FAST_BORROW").arg, ArgKind::Local);
  EXPECT_EQ(info(14, "LOAD_FAST_BORROW_LOAD_FAST_BORROW").arg, ArgKind::LocalPair);
  EXPECT_EQ(info(8, "LOAD_DEREF").arg, ArgKind::Free);
  EXPECT_EQ(info(14, "LOAD_DEREF").arg, ArgKind::Free);  // haslocal in 3.14's dis (gh-151321)
  EXPECT_EQ(info(11, "MAKE_CELL").arg, ArgKind::Free);
  EXPECT_EQ(info(12, "LOAD_FROM_DICT_OR_DEREF").arg, ArgKind::Free);
  EXPECT_EQ(info(8, "COMPARE_OP").arg, ArgKind::Compare);
  EXPECT_EQ(info(14, "COMPARE_OP").arg, ArgKind::Compare);
  EXPECT_EQ(info(11, "BINARY_OP").arg, ArgKind::BinaryOp);
  EXPECT_EQ(info(12, "CALL_INTRINSIC_1").arg, ArgKind::Intrinsic1);
  EXPECT_EQ(info(12, "CALL_INTRINSIC_2").arg, ArgKind::Intrinsic2);
  EXPECT_EQ(info(12, "FORMAT_VALUE").arg, ArgKind::FormatValue);
  EXPECT_EQ(info(13, "CONVERT_VALUE").arg, ArgKind::ConvertValue);
  EXPECT_EQ(opcode_or_minus_one(version(13), "FORMAT_VALUE"), -1);
  EXPECT_EQ(info(14, "LOAD_SMALL_INT").arg, ArgKind::SmallInt);
  EXPECT_EQ(info(14, "LOAD_COMMON_CONSTANT").arg, ArgKind::CommonConstant);
  EXPECT_EQ(info(14, "LOAD_SPECIAL").arg, ArgKind::SpecialMethod);
  EXPECT_EQ(info(8, "CALL_FUNCTION").arg, ArgKind::Plain);
  EXPECT_EQ(info(14, "RESUME").arg, ArgKind::Plain);
  EXPECT_EQ(info(8, "RETURN_VALUE").arg, ArgKind::None);
  // 3.13/3.14 HAVE_ARGUMENT quirk: the opcode at the boundary takes no argument.
  EXPECT_EQ(version(13).op(44).name, "WITH_EXCEPT_START");
  EXPECT_FALSE(version(13).op(44).has_arg());
  EXPECT_EQ(version(14).op(43).name, "WITH_EXCEPT_START");
  EXPECT_FALSE(version(14).op(43).has_arg());
  EXPECT_FALSE(info(14, "CALL_FUNCTION_EX").has_arg());
  EXPECT_TRUE(info(13, "CALL_FUNCTION_EX").has_arg());
}

TEST(Opcodes, JumpKinds) {
  EXPECT_EQ(info(8, "POP_JUMP_IF_FALSE").jump, JumpKind::Absolute);
  EXPECT_EQ(info(9, "JUMP_IF_NOT_EXC_MATCH").jump, JumpKind::Absolute);
  EXPECT_EQ(info(10, "JUMP_ABSOLUTE").jump, JumpKind::Absolute);
  EXPECT_EQ(info(8, "SETUP_FINALLY").jump, JumpKind::Forward);
  EXPECT_EQ(info(8, "FOR_ITER").jump, JumpKind::Forward);
  EXPECT_EQ(info(11, "POP_JUMP_FORWARD_IF_TRUE").jump, JumpKind::Forward);
  EXPECT_EQ(info(11, "POP_JUMP_BACKWARD_IF_TRUE").jump, JumpKind::Backward);
  EXPECT_EQ(info(11, "POP_JUMP_BACKWARD_IF_NOT_NONE").jump, JumpKind::Backward);
  EXPECT_EQ(info(11, "JUMP_BACKWARD_NO_INTERRUPT").jump, JumpKind::Backward);
  EXPECT_EQ(info(12, "JUMP_BACKWARD").jump, JumpKind::Backward);
  EXPECT_EQ(info(12, "POP_JUMP_IF_NONE").jump, JumpKind::Forward);
  EXPECT_EQ(info(12, "SEND").jump, JumpKind::Forward);
  EXPECT_EQ(info(13, "JUMP_BACKWARD").jump, JumpKind::Backward);
  EXPECT_EQ(info(14, "END_ASYNC_FOR").jump, JumpKind::Backward);
  EXPECT_EQ(info(14, "END_ASYNC_FOR").arg, ArgKind::Jump);
  EXPECT_FALSE(info(13, "END_ASYNC_FOR").has_arg());
  // 3.11+ has no absolute jumps at all; every jump has ArgKind::Jump.
  for (const VersionTraits* t : all_versions()) {
    for (const OpcodeInfo& op : t->opcodes) {
      EXPECT_EQ(op.arg == ArgKind::Jump, op.jump != JumpKind::None) << op.name;
      if (t->minor >= 11) {
        EXPECT_NE(op.jump, JumpKind::Absolute) << op.name;
      }
    }
  }
}

TEST(Opcodes, RuntimeOnlyOpcodesAreUnknown) {
  EXPECT_FALSE(version(11).op(3).known());    // BINARY_OP_ADAPTIVE (specialized)
  EXPECT_FALSE(version(12).op(237).known());  // INSTRUMENTED_LOAD_SUPER_ATTR
  EXPECT_FALSE(version(12).op(254).known());  // INSTRUMENTED_LINE
  EXPECT_FALSE(version(13).op(70).known());   // ENTER_EXECUTOR
  EXPECT_FALSE(version(13).op(150).known());  // BINARY_OP_ADD_FLOAT (specialized)
  EXPECT_FALSE(version(13).op(236).known());  // INSTRUMENTED_RESUME
  EXPECT_FALSE(version(14).op(255).known());  // ENTER_EXECUTOR
  EXPECT_FALSE(version(14).op(129).known());  // BINARY_OP_ADD_FLOAT (specialized)
  EXPECT_FALSE(version(14).op(3).known());    // BINARY_OP_INPLACE_ADD_UNICODE
  for (const VersionTraits* t : all_versions()) {
    for (const OpcodeInfo& op : t->opcodes) {
      EXPECT_EQ(op.name.find("INSTRUMENTED"), std::string_view::npos) << op.name;
      if (!op.known()) {
        EXPECT_FALSE(op.has_arg());
        EXPECT_EQ(op.caches, 0);
      }
    }
  }
}

TEST(Opcodes, RenumberedOpcodes) {
  EXPECT_EQ(opcode_or_minus_one(version(8), "LOAD_CONST"), 100);
  EXPECT_EQ(opcode_or_minus_one(version(12), "LOAD_CONST"), 100);
  EXPECT_EQ(opcode_or_minus_one(version(13), "LOAD_CONST"), 83);
  EXPECT_EQ(opcode_or_minus_one(version(14), "LOAD_CONST"), 82);
  EXPECT_EQ(opcode_or_minus_one(version(14), "RESUME"), 128);
  EXPECT_EQ(opcode_or_minus_one(version(13), "RESUME"), 149);
  EXPECT_EQ(opcode_or_minus_one(version(14), "BINARY_SUBSCR"), -1);
  EXPECT_EQ(opcode_or_minus_one(version(11), "LOAD_METHOD"), 160);
  EXPECT_EQ(opcode_or_minus_one(version(12), "LOAD_METHOD"), -1);  // a pseudo-op from 3.12
  EXPECT_EQ(opcode_or_minus_one(version(13), "LOAD_CLOSURE"), -1);  // a pseudo-op from 3.13
}

TEST(Opcodes, OperatorTables) {
  const VersionTraits& v38 = version(8);
  ASSERT_EQ(v38.cmp_op.size(), 12u);
  EXPECT_EQ(v38.cmp_op[10], "exception match");
  for (int minor = 9; minor <= 14; ++minor) {
    ASSERT_EQ(version(minor).cmp_op.size(), 6u);
    EXPECT_EQ(version(minor).cmp_op[4], ">");
  }
  EXPECT_TRUE(version(10).nb_ops.empty());
  ASSERT_EQ(version(11).nb_ops.size(), 26u);
  EXPECT_EQ(version(11).nb_ops[0], "+");
  EXPECT_EQ(version(11).nb_ops[13], "+=");
  EXPECT_EQ(version(13).nb_ops[25], "^=");
  ASSERT_EQ(version(14).nb_ops.size(), 27u);
  EXPECT_EQ(version(14).nb_ops[26], "[]");

  EXPECT_TRUE(version(11).intrinsic_1.empty());
  ASSERT_GE(version(12).intrinsic_1.size(), 12u);
  EXPECT_EQ(version(12).intrinsic_1[5], "INTRINSIC_UNARY_POSITIVE");
  EXPECT_EQ(version(12).intrinsic_2[1], "INTRINSIC_PREP_RERAISE_STAR");
  EXPECT_EQ(version(13).intrinsic_2[5], "INTRINSIC_SET_TYPEPARAM_DEFAULT");

  EXPECT_TRUE(version(13).common_constants.empty());
  ASSERT_EQ(version(14).common_constants.size(), 5u);
  EXPECT_EQ(version(14).common_constants[0], "AssertionError");
  EXPECT_EQ(version(14).common_constants[4], "any");
  ASSERT_EQ(version(14).special_methods.size(), 4u);
  EXPECT_EQ(version(14).special_methods[1], "__exit__");
  EXPECT_EQ(version(14).special_methods[2], "__aenter__");
}

}  // namespace
}  // namespace unveil
