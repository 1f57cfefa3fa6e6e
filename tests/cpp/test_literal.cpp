// repr() of constants, checked against CPython 3.11's repr() (the expected
// strings below were printed by /root/.pyenv/versions/3.11.7/bin/python).
#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "emit/literal.h"
#include "objects.h"
#include "read/code_object.h"

namespace unveil {
namespace {

using namespace std::string_view_literals;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct FloatCase {
  double value;
  const char* repr;
};
struct TextCase {
  std::string_view value;  // UTF-8 for str, raw bytes for bytes
  std::string_view repr;
};
struct ComplexCase {
  double real, imag;
  const char* repr;
};

// clang-format off
// float_repr: value (hex float, exact) and repr() of Python 3.11.
constexpr FloatCase kFloats[] = {
    {0x0.0p+0, "0.0"},
    {-0x0.0p+0, "-0.0"},
    {0x1.0000000000000p+0, "1.0"},
    {-0x1.0000000000000p+0, "-1.0"},
    {0x1.999999999999ap-4, "0.1"},
    {0x1.0000000000000p-1, "0.5"},
    {0x1.9000000000000p+6, "100.0"},
    {0x1.1c37937e08000p+53, "1e+16"},
    {0x1.c6bf526340000p+49, "1000000000000000.0"},
    {0x1.1c37937e07fffp+53, "9999999999999998.0"},
    {0x1.5eddb25e04800p+53, "1.2345e+16"},
    {0x1.a36e2eb1c432dp-14, "0.0001"},
    {0x1.4f8b588e368f1p-17, "1e-05"},
    {0x1.f75104d551d69p-14, "0.00012"},
    {0x1.f75104d551d69p-17, "1.5e-05"},
    {0x1.0f0cf064dd592p+73, "1e+22"},
    {0x1.52d02c7e14af6p+76, "1e+23"},
    {0x1.1eb2d66005835p+997, "1.5e+300"},
    {-0x1.ac9a7b3b7302fp-996, "-2.5e-300"},
    {0x0.0000000000001p-1022, "5e-324"},
    {0x1.0000000000000p-1022, "2.2250738585072014e-308"},
    {0x1.fffffffffffffp+1023, "1.7976931348623157e+308"},
    {0x1.b69b4ba630f35p+56, "1.2345678901234568e+17"},
    {0x1.3333333333334p-2, "0.30000000000000004"},
    {0x1.5555555555555p-2, "0.3333333333333333"},
    {0x1.5555555555555p-1, "0.6666666666666666"},
    {0x1.921fb54442d18p+1, "3.141592653589793"},
    {0x1.81cd6c8b43958p+13, "12345.678"},
    {0x1.249ad2594c37dp+332, "1e+100"},
    {0x1.ec00000000000p+6, "123.0"},
    {0x1.18b54f22aeb03p+50, "1234567890123456.8"},
};
// str_repr: UTF-8 (lone surrogates as marshal writes them) and repr() of Python 3.11.
constexpr TextCase kStrings[] = {
    {""sv, "''"sv},
    {"a"sv, "'a'"sv},
    {"'"sv, "\042'\042"sv},
    {"\042"sv, "'\042'"sv},
    {"'\042"sv, "'\134'\042'"sv},
    {"it's"sv, "\042it's\042"sv},
    {"say \042hi\042"sv, "'say \042hi\042'"sv},
    {"\134"sv, "'\134\134'"sv},
    {"\011\012\015\000\001\037\177"sv, "'\134t\134n\134r\134x00\134x01\134x1f\134x7f'"sv},
    {"\302\200\302\237\302\240\302\241\302\255\303\277"sv, "'\134x80\134x9f\134xa0\302\241\134xad\303\277'"sv},
    {"\303\251 \303\274 \303\237"sv, "'\303\251 \303\274 \303\237'"sv},
    {"\346\227\245\346\234\254\350\252\236"sv, "'\346\227\245\346\234\254\350\252\236'"sv},
    {"\342\200\250\342\200\251\342\200\213\342\200\216\357\273\277"sv, "'\134u2028\134u2029\134u200b\134u200e\134ufeff'"sv},
    {"\355\240\200"sv, "'\134ud800'"sv},
    {"\355\277\277"sv, "'\134udfff'"sv},
    {"a\355\262\200b"sv, "'a\134udc80b'"sv},
    {"\360\237\230\200"sv, "'\360\237\230\200'"sv},
    {"\363\240\200\201"sv, "'\134U000e0001'"sv},
    {"\364\217\277\277"sv, "'\134U0010ffff'"sv},
    {"\357\277\277\357\267\220"sv, "'\134uffff\134ufdd0'"sv},
    {"\033[0m"sv, "'\134x1b[0m'"sv},
    {"\330\200\330\234"sv, "'\134u0600\134u061c'"sv},
    {"a\343\200\200b\302\240c"sv, "'a\134u3000b\134xa0c'"sv},
    {"\363\260\200\200"sv, "'\134U000f0000'"sv},
    {"\356\200\200"sv, "'\134ue000'"sv},
    {"\360\235\204\241"sv, "'\360\235\204\241'"sv},
};
// bytes_repr, as repr() of Python 3.11.
constexpr TextCase kBytes[] = {
    {""sv, "b''"sv},
    {"a"sv, "b'a'"sv},
    {"'"sv, "b\042'\042"sv},
    {"\042"sv, "b'\042'"sv},
    {"'\042"sv, "b'\134'\042'"sv},
    {"\134"sv, "b'\134\134'"sv},
    {"\011\012\015\000\037\177\200\377"sv, "b'\134t\134n\134r\134x00\134x1f\134x7f\134x80\134xff'"sv},
    {"hello world"sv, "b'hello world'"sv},
    {" !\042#$%&'()*+,-./"sv, "b' !\042#$%&\134'()*+,-./'"sv},
};
// complex repr, as repr(complex(real, imag)) of Python 3.11.
constexpr ComplexCase kComplexes[] = {
    {0x1.0000000000000p+0, 0x1.0000000000000p+1, "(1+2j)"},
    {0x0.0p+0, 0x1.0000000000000p+1, "2j"},
    {-0x0.0p+0, -0x1.0000000000000p+0, "(-0-1j)"},
    {0x0.0p+0, 0x0.0p+0, "0j"},
    {-0x0.0p+0, 0x0.0p+0, "(-0+0j)"},
    {0x1.8000000000000p+0, -0x0.0p+0, "(1.5-0j)"},
    {kNaN, kInf, "(nan+infj)"},
    {0x0.0p+0, kNaN, "nanj"},
    {kInf, -kInf, "(inf-infj)"},
    {0x1.1c37937e08000p+53, 0x1.4f8b588e368f1p-17, "(1e+16+1e-05j)"},
    {-0x1.0000000000000p+0, 0x1.7e43c8800759cp+996, "(-1+1e+300j)"},
    {0x1.999999999999ap-4, 0x1.999999999999ap-3, "(0.1+0.2j)"},
};
// clang-format on

using testing::integer;
using testing::none;
using testing::text;

TEST(LiteralFloat, MatchesPythonRepr) {
  for (const FloatCase& c : kFloats) EXPECT_EQ(float_repr(c.value), c.repr) << c.repr;
}

TEST(LiteralFloat, SpecialValues) {
  EXPECT_EQ(float_repr(kInf), "inf");
  EXPECT_EQ(float_repr(-kInf), "-inf");
  EXPECT_EQ(float_repr(kNaN), "nan");
  EXPECT_EQ(float_repr(-kNaN), "nan");  // repr() never shows a NaN's sign
}

TEST(LiteralFloat, ExponentSwitchPoints) {
  // repr() uses an exponent when the decimal exponent is < -4 or >= 16.
  EXPECT_EQ(float_repr(1e16), "1e+16");
  EXPECT_EQ(float_repr(1e15), "1000000000000000.0");
  EXPECT_EQ(float_repr(0.0001), "0.0001");
  EXPECT_EQ(float_repr(0.00001), "1e-05");
  EXPECT_EQ(float_repr(-1.5e-7), "-1.5e-07");
  EXPECT_EQ(float_repr(2e200), "2e+200");
}

TEST(LiteralFloat, ObjectRepr) {
  EXPECT_EQ(literal_repr(*make_object(FloatValue{2.5})), "2.5");
}

TEST(LiteralComplex, MatchesPythonRepr) {
  for (const ComplexCase& c : kComplexes)
    EXPECT_EQ(literal_repr(*make_object(ComplexValue{c.real, c.imag})), c.repr) << c.repr;
}

TEST(LiteralStr, MatchesPythonRepr) {
  for (const TextCase& c : kStrings) EXPECT_EQ(str_repr(c.value), c.repr) << c.repr;
}

// Strings of printable ASCII with no backslash or quote are checked 16 bytes
// at a time (a short one as two overlapping words) and written as they are:
// any other byte, at any position, must send the string the general way.
TEST(LiteralStr, EveryAsciiByteAtEveryPosition) {
  auto expected = [](const std::string& text) {
    const bool single = text.find('\'') != std::string::npos,
               dbl = text.find('"') != std::string::npos;
    const char quote = single && !dbl ? '"' : '\'';
    std::string out(1, quote);
    for (char ch : text) {
      const auto c = static_cast<unsigned char>(ch);
      if (c == '\t')
        out += "\\t";
      else if (c == '\n')
        out += "\\n";
      else if (c == '\r')
        out += "\\r";
      else if (c == '\\')
        out += "\\\\";
      else if (c == static_cast<unsigned char>(quote))
        out += std::string("\\") + quote;
      else if (c < 0x20 || c == 0x7f) {
        static constexpr char kHex[] = "0123456789abcdef";
        out += "\\x";
        out += kHex[c >> 4];
        out += kHex[c & 15];
      } else {
        out += ch;
      }
    }
    return out + quote;
  };
  for (std::size_t size = 1; size <= 40; ++size)
    for (std::size_t at = 0; at < size; ++at) {
      std::string text(size, 'a');
      for (int b = 0; b < 0x80; ++b) {
        text[at] = static_cast<char>(b);
        ASSERT_EQ(str_repr(text), expected(text)) << "byte " << b << " at " << at << " of " << size;
      }
      // A character that is not ASCII, and not printable: U+0080.
      const std::string wide = std::string(at, 'a') + "\xc2\x80" + std::string(size - at, 'a');
      ASSERT_EQ(str_repr(wide),
                "'" + std::string(at, 'a') + "\\x80" + std::string(size - at, 'a') + "'")
          << at;
    }
  // The unparser writes such a string itself, between single quotes.
  EXPECT_TRUE(str_repr_is_quoted(""));
  EXPECT_TRUE(str_repr_is_quoted("l_self_modules_encoder_layers_0_attention"));
  EXPECT_FALSE(str_repr_is_quoted("l_self_modules_encoder_layers_0_attention'"));
  EXPECT_FALSE(str_repr_is_quoted("caf\xc3\xa9"));
  EXPECT_FALSE(str_repr_is_quoted("tab\there"));
}

TEST(LiteralStr, InvalidUtf8BecomesEscapes) {
  // Not produced by marshal, but must not crash or emit broken UTF-8.
  EXPECT_EQ(str_repr("a\xff" "b"), "'a\\udcffb'");
  EXPECT_EQ(str_repr("\xe6\x97"), "'\\udce6\\udc97'");        // truncated sequence
  EXPECT_EQ(str_repr("\xc0\x80"), "'\\udcc0\\udc80'");        // overlong NUL
  EXPECT_EQ(str_repr("\xf4\x90\x80\x80"), "'\\udcf4\\udc90\\udc80\\udc80'");  // > U+10FFFF
}

TEST(LiteralBytes, MatchesPythonRepr) {
  for (const TextCase& c : kBytes) EXPECT_EQ(bytes_repr(c.value), c.repr) << c.repr;
}

TEST(LiteralBytes, AllByteValues) {
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  const std::string repr = bytes_repr(all);
  EXPECT_EQ(repr.substr(0, 18), "b'\\x00\\x01\\x02\\x03");
  EXPECT_NE(repr.find(" !\"#$%&\\'()*+,-./0123456789"), std::string::npos);
  EXPECT_EQ(repr.substr(repr.size() - 9), "\\xfe\\xff'");
}

TEST(LiteralObject, Singletons) {
  EXPECT_EQ(literal_repr(*none()), "None");
  EXPECT_EQ(literal_repr(*make_object(EllipsisValue{})), "Ellipsis");
  EXPECT_EQ(literal_repr(*make_object(StopIterationValue{})), "StopIteration");
  EXPECT_EQ(literal_repr(*make_object(BoolValue{true})), "True");
  EXPECT_EQ(literal_repr(*make_object(BoolValue{false})), "False");
}

TEST(LiteralObject, Integers) {
  EXPECT_EQ(literal_repr(*integer(0)), "0");
  EXPECT_EQ(literal_repr(*integer(-42)), "-42");
  EXPECT_EQ(literal_repr(*integer(INT64_MIN)), "-9223372036854775808");
  // 2**100 in marshal's base-2**15 digits: 2**100 = 2**(15*6 + 10).
  IntValue big;
  big.digits = {0, 0, 0, 0, 0, 0, 1 << 10};
  EXPECT_EQ(literal_repr(*make_object(big)), "1267650600228229401496703205376");
  big.negative = true;
  EXPECT_EQ(literal_repr(*make_object(big)), "-1267650600228229401496703205376");
}

TEST(LiteralObject, Tuples) {
  EXPECT_EQ(literal_repr(*make_object(TupleValue{})), "()");
  EXPECT_EQ(literal_repr(*make_object(TupleValue{{integer(1)}})), "(1,)");
  EXPECT_EQ(literal_repr(*make_object(TupleValue{{integer(1), text("a")}})), "(1, 'a')");
  const auto nested = make_object(TupleValue{{make_object(TupleValue{{none()}}), make_object(TupleValue{})}});
  EXPECT_EQ(literal_repr(*nested), "((None,), ())");
}

TEST(LiteralObject, ListsSetsDicts) {
  EXPECT_EQ(literal_repr(*make_object(ListValue{})), "[]");
  EXPECT_EQ(literal_repr(*make_object(ListValue{{integer(1), integer(2)}})), "[1, 2]");
  EXPECT_EQ(literal_repr(*make_object(SetValue{})), "set()");
  EXPECT_EQ(literal_repr(*make_object(SetValue{{integer(1), integer(2)}})), "{1, 2}");
  EXPECT_EQ(literal_repr(*make_object(FrozenSetValue{})), "frozenset()");
  EXPECT_EQ(literal_repr(*make_object(FrozenSetValue{{text("a")}})), "frozenset({'a'})");
  EXPECT_EQ(literal_repr(*make_object(FrozenSetValue{{integer(1), integer(2)}})),
            "frozenset({1, 2})");
  EXPECT_EQ(literal_repr(*make_object(DictValue{})), "{}");
  EXPECT_EQ(literal_repr(*make_object(DictValue{{{text("a"), integer(1)}, {integer(2), none()}}})),
            "{'a': 1, 2: None}");
}

TEST(LiteralObject, Slices) {
  EXPECT_EQ(literal_repr(*make_object(SliceValue{integer(1), integer(2), none()})),
            "slice(1, 2, None)");
  EXPECT_EQ(literal_repr(*make_object(SliceValue{none(), integer(-1), integer(2)})),
            "slice(None, -1, 2)");
}

TEST(LiteralObject, CodeObjectsHaveNoAddress) {
  auto code = std::make_shared<CodeObject>();
  code->name = "<lambda>";
  code->filename = "dir/x.py";
  code->firstlineno = 12;
  EXPECT_EQ(literal_repr(*make_object(CodeValue{code})),
            "<code object <lambda>, file \"dir/x.py\", line 12>");
}

TEST(LiteralObject, PlaceholdersPrintTheirName) {
  EXPECT_EQ(literal_repr(*make_object(PlaceholderValue{"torch.float32", 3})), "torch.float32");
  const auto tuple = make_object(TupleValue{{make_object(PlaceholderValue{"MyClass", 0})}});
  EXPECT_EQ(literal_repr(*tuple), "(MyClass,)");
}

TEST(LiteralObject, ComplexInsideContainers) {
  const auto tuple = make_object(TupleValue{{make_object(ComplexValue{2, 0}), make_object(FloatValue{-0.0}),
                                             make_object(BytesValue{"x"})}});
  EXPECT_EQ(literal_repr(*tuple), "((2+0j), -0.0, b'x')");
}

}  // namespace
}  // namespace unveil
