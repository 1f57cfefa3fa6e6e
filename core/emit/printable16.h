// Sixteen bytes at a time: which are not printable ASCII (0x20..0x7e). The
// string-literal and docstring scans of emit both start from this test.
#pragma once

#include "support/simd.h"

#if UNVEIL_SSE2

namespace unveil {

// 0xff lanes for the bytes of c outside 0x20..0x7e. c + 0x60 takes 0x20..0x7e
// to -128..-34, signed, and every other byte above -34: one add and one compare.
inline __m128i not_printable_ascii16(__m128i c) {
  return _mm_cmpgt_epi8(_mm_add_epi8(c, _mm_set1_epi8(0x60)), _mm_set1_epi8(static_cast<char>(-34)));
}

}  // namespace unveil
#endif
