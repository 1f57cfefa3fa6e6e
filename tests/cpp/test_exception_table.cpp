// co_exceptiontable (3.11+): real tables against dis._parse_exception_table,
// and the errors a broken table must raise.
//
// The tables below are co_exceptiontable of small functions compiled by the
// pyenv interpreters 3.11.7, 3.12.1 and 3.13.0, with the entries dis reports
// ("start-end>target[depth]", L for lasti, end inclusive as dis prints it).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "decode/exception_table.h"
#include "hex.h"
#include "support/error.h"

namespace unveil {
namespace {

using testing::unhex;

std::string format_entries(const std::vector<ExceptionTableEntry>& entries) {
  std::string out;
  for (const ExceptionTableEntry& e : entries) {
    if (!out.empty()) out += ' ';
    out += std::to_string(e.start) + "-" + std::to_string(e.end) + ">" +
           std::to_string(e.target) + "[" + std::to_string(e.depth) + "]" + (e.lasti ? "L" : "");
  }
  return out;
}

// Decodes the table and returns the Error it must raise.
Error table_error(std::string_view table, std::size_t code_size) {
  try {
    decode_exception_table(table, code_size);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error";
  return Error(ErrorKind::Unsupported, "none");
}

struct RealExceptionTable {
  int minor;
  const char* function;
  std::size_t code_size;
  const char* table_hex;
  const char* entries;
};

// clang-format off
constexpr RealExceptionTable kRealExceptionTables[] = {
    {11, "f", 46,
        "",
        ""},
    {11, "gen", 80,
        "841c2300a3022503",
        "8-62>70[0] 70-72>74[1]L"},
    {11, "t", 324,
        "820a0d008d0a230397011e03980123039e052303a70a3200b219411003c11503421503c1180c413d05c1240c"
        "421503c13d04420109c20103421503c20401420109c20503421503c21504421907c21c01421907",
        "4-22>26[0] 26-44>70[1]L 46-46>60[1]L 48-48>70[1]L 60-68>70[1]L 78-96>100[0] 100-148>160["
        "1]L 170-174>298[1]L 176-198>250[2]L 200-222>298[1]L 250-256>258[4]L 258-262>298[1]L 264-"
        "264>258[4]L 266-270>298[1]L 298-304>306[3]L 312-312>306[3]L"},
    {12, "f", 46,
        "",
        ""},
    {12, "gen", 78,
        "82012501841a20009f012501a0022203a2032501",
        "4-4>74[0]L 8-58>64[0] 62-62>74[0]L 64-66>68[1]L 68-72>74[0]L"},
    {12, "t", 300,
        "820739008a074111009303420a0396054135059b09413008a402413505a609420a03b909410e03c102014109"
        "03c10301410e03c10905410e03c11117412d03c13005413505c13505413e09c13a07420a03c20a05421307",
        "4-16>114[0] 20-32>162[0] 38-42>276[1]L 44-52>234[2]L 54-70>224[4] 72-74>234[2]L 76-92>27"
        "6[1]L 114-130>156[1]L 132-132>146[1]L 134-134>156[1]L 146-154>156[1]L 162-206>218[1]L 22"
        "4-232>234[2]L 234-242>252[4]L 244-256>276[1]L 276-284>294[3]L"},
    {13, "f", 76,
        "",
        ""},
    {13, "gen", 80,
        "82012601841c2100a0012601a1022303a3032601",
        "4-4>76[0]L 8-62>66[0] 64-64>76[0]L 66-68>70[1]L 70-74>76[0]L"},
    {13, "t", 328,
        "820739008a07411200930242130395054139059a0a413408a402413905a609421303b90a410f03c10301410a"
        "03c10401410f03c10a05410f03c1121a413103c13405413905c1390a420709c20307421303c2130a422107",
        "4-16>114[0] 20-32>164[0] 38-40>294[1]L 42-50>242[2]L 52-70>232[4] 72-74>242[2]L 76-92>29"
        "4[1]L 114-132>158[1]L 134-134>148[1]L 136-136>158[1]L 148-156>158[1]L 164-214>226[1]L 23"
        "2-240>242[2]L 242-260>270[4]L 262-274>294[1]L 294-312>322[3]L"},
};
// clang-format on

// Byte offsets at which each entry of a (valid) table starts.
std::vector<std::size_t> entry_starts(std::string_view table) {
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < table.size(); ++i)
    if (static_cast<unsigned char>(table[i]) & 0x80) starts.push_back(i);
  return starts;
}

TEST(ExceptionTableReal, MatchesDis) {
  for (const RealExceptionTable& t : kRealExceptionTables) {
    SCOPED_TRACE(std::string("3.") + std::to_string(t.minor) + " " + t.function);
    EXPECT_EQ(format_entries(decode_exception_table(unhex(t.table_hex), t.code_size)), t.entries);
  }
}

TEST(ExceptionTableReal, TruncatedAtEveryLength) {
  for (const RealExceptionTable& t : kRealExceptionTables) {
    SCOPED_TRACE(std::string("3.") + std::to_string(t.minor) + " " + t.function);
    const std::string table = unhex(t.table_hex);
    const auto starts = entry_starts(table);
    const auto full = decode_exception_table(table, t.code_size);
    ASSERT_EQ(starts.size(), full.size());
    for (std::size_t n = 0; n < table.size(); ++n) {
      const std::string prefix = table.substr(0, n);
      const auto boundary = std::find(starts.begin(), starts.end(), n);
      if (n == 0 || boundary != starts.end()) {
        // Cut between entries: the complete entries before the cut.
        const auto kept = static_cast<std::size_t>(boundary - starts.begin());
        const std::vector<ExceptionTableEntry> expected(full.begin(), full.begin() + (n ? kept : 0));
        EXPECT_EQ(format_entries(decode_exception_table(prefix, t.code_size)),
                  format_entries(expected))
            << "length " << n;
        continue;
      }
      // Cut inside an entry: an error at the end of the table.
      const Error e = table_error(prefix, t.code_size);
      EXPECT_EQ(e.kind(), ErrorKind::Decode) << "length " << n;
      EXPECT_EQ(e.offset(), n) << "length " << n << ": " << e.what();
    }
  }
}

TEST(ExceptionTable, EmptyTable) {
  EXPECT_TRUE(decode_exception_table("", 10).empty());
  EXPECT_TRUE(decode_exception_table("", 0).empty());
}

TEST(ExceptionTable, MultiByteVarintsAreBigEndian) {
  // start 100 = 1*64 + 36, length 70 = 1*64 + 6, target 200 = 3*64 + 8,
  // depth 3 with lasti (3 << 1 | 1 = 7); all in code units.
  const std::string table = unhex("c124" "4106" "4308" "07");
  const auto entries = decode_exception_table(table, 1000);
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].start, 200u);
  EXPECT_EQ(entries[0].end, 200u + 140u - 2u);
  EXPECT_EQ(entries[0].target, 400u);
  EXPECT_EQ(entries[0].depth, 3u);
  EXPECT_TRUE(entries[0].lasti);
}

TEST(ExceptionTable, RangeMayEndAtTheEndOfTheCode) {
  // start 2, length 3 (units): bytes 4..10 of a 10-byte code.
  const auto entries = decode_exception_table(unhex("82030000"), 10);
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].start, 4u);
  EXPECT_EQ(entries[0].end, 8u);
  EXPECT_EQ(entries[0].target, 0u);
  EXPECT_FALSE(entries[0].lasti);
}

TEST(ExceptionTable, RangePastTheCode) {
  const Error e = table_error(unhex("8001020080060000"), 10);  // second entry: bytes 0..12
  EXPECT_EQ(e.kind(), ErrorKind::Decode);
  EXPECT_EQ(e.offset(), 4u);
  EXPECT_NE(e.detail().find("outside the code"), std::string::npos) << e.detail();
  EXPECT_EQ(table_error(unhex("85010000"), 10).offset(), 0u);  // start 10: at the end
}

TEST(ExceptionTable, TargetPastTheCode) {
  const Error e = table_error(unhex("80010500"), 10);  // target 5 units = byte 10
  EXPECT_EQ(e.kind(), ErrorKind::Decode);
  EXPECT_EQ(e.offset(), 0u);
  EXPECT_NE(e.detail().find("handler"), std::string::npos) << e.detail();
}

TEST(ExceptionTable, EmptyRange) {
  const Error e = table_error(unhex("80000100"), 10);
  EXPECT_EQ(e.kind(), ErrorKind::Decode);
  EXPECT_NE(e.detail().find("empty"), std::string::npos) << e.detail();
}

TEST(ExceptionTable, EntryStartMarks) {
  // The first byte of an entry lacks the 0x80 mark.
  Error e = table_error(unhex("00010000"), 10);
  EXPECT_EQ(e.offset(), 0u);
  EXPECT_NE(e.detail().find("0x80"), std::string::npos) << e.detail();
  // A later byte carries it: the table is out of step.
  e = table_error(unhex("80810000"), 10);
  EXPECT_EQ(e.offset(), 1u);
  EXPECT_NE(e.detail().find("start mark"), std::string::npos) << e.detail();
}

TEST(ExceptionTable, HugeVarint) {
  // Seven 6-bit groups exceed 32 bits.
  const Error e = table_error(unhex("c07f7f7f7f7f3f010000"), 10);
  EXPECT_EQ(e.kind(), ErrorKind::Decode);
  EXPECT_EQ(e.offset(), 0u);
  EXPECT_NE(e.detail().find("too large"), std::string::npos) << e.detail();
}

TEST(ExceptionTable, RandomBytesNeverCrash) {
  std::uint32_t state = 99;
  auto next = [&state] {
    state = state * 1664525u + 1013904223u;
    return state >> 24;
  };
  for (int round = 0; round < 2000; ++round) {
    std::string table(next() % 24, '\0');
    for (char& c : table) c = static_cast<char>(next());
    if (!table.empty()) table[0] = static_cast<char>(table[0] | 0x80);
    try {
      for (const ExceptionTableEntry& e : decode_exception_table(table, 64)) {
        EXPECT_LE(e.start, e.end);
        EXPECT_LT(e.end, 64u);
        EXPECT_LT(e.target, 64u);
      }
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Decode);
      ASSERT_TRUE(e.offset().has_value());
      EXPECT_LE(*e.offset(), table.size());
    }
  }
}

}  // namespace
}  // namespace unveil
