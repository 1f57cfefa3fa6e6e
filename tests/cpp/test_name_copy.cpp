// write_name, which leaves a recycled code object's name alone when it is
// already the one being written (read/name_copy.h).
#include "read/name_copy.h"

#include <gtest/gtest.h>

#include <string>

namespace unveil::detail {
namespace {

TEST(NameCopy, SameBytesSeesADifferenceAtEveryPositionOfEveryLength) {
  for (std::size_t n = 0; n <= 48; ++n) {
    const std::string a(n, 'a');
    std::string copy = a;
    EXPECT_TRUE(same_bytes(a.data(), copy.data(), n)) << n;
    for (std::size_t i = 0; i < n; ++i) {
      std::string b = a;
      b[i] = 'b';
      EXPECT_FALSE(same_bytes(a.data(), b.data(), n)) << n << " at " << i;
    }
  }
}

TEST(NameCopy, WriteNameKeepsAnEqualNameAndReplacesAnyOther) {
  std::string out = "a_name_longer_than_sixteen_bytes";
  const char* buffer = out.data();
  write_name(out, std::string_view("a_name_longer_than_sixteen_bytes"));
  EXPECT_EQ(out.data(), buffer);
  write_name(out, std::string_view("a_name_longer_than_sixteen_bytez"));
  EXPECT_EQ(out, "a_name_longer_than_sixteen_bytez");
  EXPECT_EQ(out.data(), buffer);  // (the buffer is kept)
  write_name(out, std::string("x"));
  EXPECT_EQ(out, "x");
  write_name(out, std::string_view(""));
  EXPECT_EQ(out, "");
  write_name(out, std::string("a much longer name than any name before it in this test"));
  EXPECT_EQ(out, "a much longer name than any name before it in this test");
}

}  // namespace
}  // namespace unveil::detail
