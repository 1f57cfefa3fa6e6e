// Tests for core/read/marshal.cpp and core/read/object.cpp.
//
// The hex streams were generated once with the real interpreters:
//   /root/.pyenv/versions/<ver>/bin/python -c "import marshal; print(marshal.dumps(V).hex())"
// and, for the code samples, marshal.dumps(compile(kSampleSource, "sample.py", "exec")) with the
// expected strings built from each code object's co_qualname (co_name before 3.11), co_argcount,
// co_posonlyargcount, co_kwonlyargcount, co_nlocals, co_stacksize, co_flags, co_firstlineno,
// co_varnames, co_cellvars, co_freevars, co_names and co_code.hex(), walking co_consts in pre-order.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "opcodes/version.h"
#include "read/code_object.h"
#include "read/marshal.h"
#include "read/object.h"
#include "hex.h"
#include "support/error.h"
#include "versions.h"

namespace unveil {
namespace {

using testing::Bytes;
using testing::unhex_bytes;
using testing::version;

ObjectRef read_hex(std::string_view hex, int minor = 11, const MarshalOptions& options = {}) {
  return read_marshal(unhex_bytes(hex), version(minor), options);
}

// The error read_marshal throws for `data`; fails the test if none is thrown.
Error read_error(const Bytes& data, int minor = 11, const MarshalOptions& options = {},
                 std::size_t base_offset = 0) {
  try {
    read_marshal(data, version(minor), options, base_offset);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error thrown";
  return Error(ErrorKind::Unsupported, "none");
}

// By value, so that `const auto& x = as<T>(read_hex(...))` extends the copy's lifetime.
template <class T>
T as(const ObjectRef& obj) {
  const T* v = obj ? obj->as<T>() : nullptr;
  if (!v) throw std::runtime_error(std::string("unexpected type ") + (obj ? obj->type_name() : "null"));
  return *v;
}

std::string utf8_of(const ObjectRef& obj) { return as<StrValue>(obj).utf8; }

// Small builders for hand-made streams.
Bytes cat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}
Bytes op(char c) { return Bytes{std::uint8_t(c)}; }
Bytes i32(std::int64_t v) {
  auto u = std::uint32_t(v);
  return Bytes{std::uint8_t(u), std::uint8_t(u >> 8), std::uint8_t(u >> 16), std::uint8_t(u >> 24)};
}
Bytes short_str(std::string_view s) {  // 'z': short ascii
  Bytes out{'z', std::uint8_t(s.size())};
  out.insert(out.end(), s.begin(), s.end());
  return out;
}
Bytes bytes_obj(std::string_view s) {  // 's'
  Bytes out = cat({op('s'), i32(std::int64_t(s.size()))});
  out.insert(out.end(), s.begin(), s.end());
  return out;
}
Bytes small_tuple(std::initializer_list<Bytes> items) {
  Bytes out{')', std::uint8_t(items.size())};
  for (const auto& i : items) out.insert(out.end(), i.begin(), i.end());
  return out;
}


// ---- code samples ----------------------------------------------------------

// kSampleSource, compiled by each interpreter below:
//
// def outer(a, b=2, /, c=3, *args, d, **kw):
//     x = a + 1
//     def inner(y):
//         nonlocal x
//         x += y
//         return a, x, c
//     return [inner(i) for i in args]
//
// class K:
//     def m(self):
//         return __class__
//
// BIG = (1267650600228229401496703205376, -1267650600228229401496703205376, 1.5, 2j, b'\x00b', 'h\xe9\u20ac', None, ...)
// IN = BIG in {1, 2}
// Python 3.8: marshal.dumps(compile(kSampleSource, "sample.py", "exec"))
constexpr std::string_view kSample38 =
    "e3000000000000000000000000000000000300000040000000732800000064096402640384015a004700640464058400"
    "640583025a0164065a02650264076b065a0364085300290ae902000000e9030000006303000000020000000100000006"
    "000000030000000f000000732a0000008800640117008903870087018703660364026403840889028702660164046405"
    "84087c0444008301530029064ee901000000630100000000000000000000000100000003000000130000007312000000"
    "88027c003700890288008802880166035300a9014ea9002901da01792903da0161da0163da01787205000000fa097361"
    "6d706c652e7079da05696e6e6572030000007304000000000208017a146f757465722e3c6c6f63616c733e2e696e6e65"
    "7263010000000000000000000000020000000400000013000000731400000067007c005d0c7d0188007c018301910271"
    "045300720500000072050000002902da022e30da01692901720b0000007205000000720a000000da0a3c6c697374636f"
    "6d703e070000007304000000060002007a196f757465722e3c6c6f63616c733e2e3c6c697374636f6d703e7205000000"
    "29067207000000da01627208000000da0164da04617267735a026b777205000000290472070000007208000000720b00"
    "00007209000000720a000000da056f757465720100000073060000000001080110047212000000630000000000000000"
    "00000000000000000300000000000000731c00000065005a0164005a02870066016401640284085a03870004005a0453"
    "002903da014b630100000000000000000000000100000001000000030000007304000000880053007204000000720500"
    "00002901da0473656c66a901da095f5f636c6173735f5f7205000000720a000000da016d0a000000730200000000017a"
    "034b2e6d2905da085f5f6e616d655f5fda0a5f5f6d6f64756c655f5fda0c5f5f7175616c6e616d655f5f7217000000da"
    "0d5f5f636c61737363656c6c5f5f720500000072050000007215000000720a0000007213000000090000007302000000"
    "0801721300000029086c0700000000000000000000000000000000046cf9ffffff000000000000000000000000000467"
    "000000000000f83f790000000000000000000000000000004073020000000062750600000068c3a9e282ac4e2e3e0200"
    "0000720300000072010000004e2902720100000072020000002904721200000072130000005a034249475a02494e7205"
    "00000072050000007205000000720a000000da083c6d6f64756c653e0100000073060000000a080e040401"
;
constexpr std::string_view kSample38Expected[] = {
    "<module>|0|0|0|0|3|64|1||||outer,K,BIG,IN|64096402640384015a004700640464058400640583025a0164065a02650264076b065a0364085300",
    "outer|3|2|1|6|3|15|1|a,b,c,d,args,kw|a,c,inner,x|||880064011700890387008701870366036402640384088902870266016404640584087c04440083015300",
    "inner|1|0|0|1|3|19|3|y||a,c,x||88027c003700890288008802880166035300",
    "<listcomp>|1|0|0|2|4|19|7|.0,i||inner||67007c005d0c7d0188007c018301910271045300",
    "K|0|0|0|0|3|0|9||__class__||__name__,__module__,__qualname__,m,__classcell__|65005a0164005a02870066016401640284085a03870004005a045300",
    "m|1|0|0|1|1|3|10|self||__class__||88005300",
};
// Python 3.9: marshal.dumps(compile(kSampleSource, "sample.py", "exec"))
constexpr std::string_view kSample39 =
    "e3000000000000000000000000000000000300000040000000732800000064096402640384015a004700640464058400"
    "640583025a0164065a026502640776005a0364085300290ae902000000e9030000006303000000020000000100000006"
    "000000030000000f000000732a0000008800640117008903870087018703660364026403840889028702660164046405"
    "84087c0444008301530029064ee901000000630100000000000000000000000100000003000000130000007312000000"
    "88027c003700890288008802880166035300a9014ea9002901da01792903da0161da0163da01787205000000fa097361"
    "6d706c652e7079da05696e6e6572030000007304000000000208017a146f757465722e3c6c6f63616c733e2e696e6e65"
    "7263010000000000000000000000020000000400000013000000731400000067007c005d0c7d0188007c018301910271"
    "045300720500000072050000002902da022e30da01692901720b0000007205000000720a000000da0a3c6c697374636f"
    "6d703e07000000f3000000007a196f757465722e3c6c6f63616c733e2e3c6c697374636f6d703e720500000029067207"
    "000000da01627208000000da0164da04617267735a026b777205000000290472070000007208000000720b0000007209"
    "000000720a000000da056f75746572010000007306000000000108011004721300000063000000000000000000000000"
    "000000000300000000000000731c00000065005a0164005a02870066016401640284085a03870004005a0453002903da"
    "014b63010000000000000000000000010000000100000003000000730400000088005300720400000072050000002901"
    "da0473656c66a901da095f5f636c6173735f5f7205000000720a000000da016d0a000000730200000000017a034b2e6d"
    "2905da085f5f6e616d655f5fda0a5f5f6d6f64756c655f5fda0c5f5f7175616c6e616d655f5f7218000000da0d5f5f63"
    "6c61737363656c6c5f5f720500000072050000007216000000720a000000721400000009000000730200000008017214"
    "00000029086c0700000000000000000000000000000000046cf9ffffff00000000000000000000000000046700000000"
    "0000f83f790000000000000000000000000000004073020000000062750600000068c3a9e282ac4e2e3e020000007203"
    "00000072010000004e2902720100000072020000002904721300000072140000005a034249475a02494e720500000072"
    "050000007205000000720a000000da083c6d6f64756c653e0100000073060000000a080e040401"
;
constexpr std::string_view kSample39Expected[] = {
    "<module>|0|0|0|0|3|64|1||||outer,K,BIG,IN|64096402640384015a004700640464058400640583025a0164065a026502640776005a0364085300",
    "outer|3|2|1|6|3|15|1|a,b,c,d,args,kw|a,c,inner,x|||880064011700890387008701870366036402640384088902870266016404640584087c04440083015300",
    "inner|1|0|0|1|3|19|3|y||a,c,x||88027c003700890288008802880166035300",
    "<listcomp>|1|0|0|2|4|19|7|.0,i||inner||67007c005d0c7d0188007c018301910271045300",
    "K|0|0|0|0|3|0|9||__class__||__name__,__module__,__qualname__,m,__classcell__|65005a0164005a02870066016401640284085a03870004005a045300",
    "m|1|0|0|1|1|3|10|self||__class__||88005300",
};
// Python 3.10: marshal.dumps(compile(kSampleSource, "sample.py", "exec"))
constexpr std::string_view kSample310 =
    "e3000000000000000000000000000000000300000040000000732800000064096402640384015a004700640464058400"
    "640583025a0164065a026502640776005a0364085300290ae902000000e9030000006303000000020000000100000006"
    "000000030000000f000000732a0000008800640117008903870087018703660364026403840889028702660164046405"
    "84087c0444008301530029064ee901000000630100000000000000000000000100000003000000130000007312000000"
    "88027c003700890288008802880166035300a9014ea9002901da01792903da0161da0163da01787205000000fa097361"
    "6d706c652e7079da05696e6e657203000000730400000008020a017a146f757465722e3c6c6f63616c733e2e696e6e65"
    "7263010000000000000000000000020000000400000013000000731400000067007c005d067d0188007c018301910271"
    "025300720500000072050000002902da022e30da01692901720b0000007205000000720a000000da0a3c6c697374636f"
    "6d703e07000000730200000014007a196f757465722e3c6c6f63616c733e2e3c6c697374636f6d703e72050000002906"
    "7207000000da01627208000000da0164da04617267735a026b777205000000290472070000007208000000720b000000"
    "7209000000720a000000da056f7574657201000000730600000008011001120472120000006300000000000000000000"
    "0000000000000300000000000000731c00000065005a0164005a02870066016401640284085a03870004005a04530029"
    "03da014b6301000000000000000000000001000000010000000300000073040000008800530072040000007205000000"
    "2901da0473656c66a901da095f5f636c6173735f5f7205000000720a000000da016d0a000000730200000004017a034b"
    "2e6d2905da085f5f6e616d655f5fda0a5f5f6d6f64756c655f5fda0c5f5f7175616c6e616d655f5f7217000000da0d5f"
    "5f636c61737363656c6c5f5f720500000072050000007215000000720a00000072130000000900000073040000000800"
    "1401721300000029086c0700000000000000000000000000000000046cf9ffffff000000000000000000000000000467"
    "000000000000f83f790000000000000000000000000000004073020000000062750600000068c3a9e282ac4e2e3e0200"
    "0000720300000072010000004e2902720100000072020000002904721200000072130000005a034249475a02494e7205"
    "00000072050000007205000000720a000000da083c6d6f64756c653e0100000073080000000a000e0804040c01"
;
constexpr std::string_view kSample310Expected[] = {
    "<module>|0|0|0|0|3|64|1||||outer,K,BIG,IN|64096402640384015a004700640464058400640583025a0164065a026502640776005a0364085300",
    "outer|3|2|1|6|3|15|1|a,b,c,d,args,kw|a,c,inner,x|||880064011700890387008701870366036402640384088902870266016404640584087c04440083015300",
    "inner|1|0|0|1|3|19|3|y||a,c,x||88027c003700890288008802880166035300",
    "<listcomp>|1|0|0|2|4|19|7|.0,i||inner||67007c005d067d0188007c018301910271025300",
    "K|0|0|0|0|3|0|9||__class__||__name__,__module__,__qualname__,m,__classcell__|65005a0164005a02870066016401640284085a03870004005a045300",
    "m|1|0|0|1|1|3|10|self||__class__||88005300",
};
// Python 3.11: marshal.dumps(compile(kSampleSource, "sample.py", "exec"))
constexpr std::string_view kSample311 =
    "e30000000000000000000000000400000000000000f33400000097006408640284015a0002004700640384006404a602"
    "0000ab0200000000000000005a0164055a026502640676005a03640753002909e902000000e903000000630300000002"
    "00000001000000030000000f000000f33e00000087008702870687079700890064017a0000008a078800880288076603"
    "640284088a0688066601640384087c044400a6000000ab000000000000000000530029044ee901000000630100000000"
    "000000000000000300000013000000f3180000009503970089037c007a0d00008a0389018903890266035300a9014ea9"
    "002904da0179da0161da0163da0178730400000020808080fa0973616d706c652e7079da05696e6e65727a146f757465"
    "722e3c6c6f63616c733e2e696e6e6572030000007317000000f88000e00809885189068801d80f10902190518877880e"
    "f300000000630100000000000000000000000500000013000000f3260000009501970067007c005d0d7d01020089027c"
    "01a6010000ab01000000000000000091028c0e5300720800000072080000002903da022e30da0169720e000000730300"
    "0000202080720d000000fa0a3c6c697374636f6d703e7a196f757465722e3c6c6f63616c733e2e3c6c697374636f6d70"
    "3e070000007321000000f88000d00b23d00b23d00b23981188458845902189488c48d00b23d00b23d00b23720f000000"
    "72080000002908720a000000da0162720b000000da0164da0461726773da026b77720e000000720c0000007308000000"
    "6020602020204040720d000000da056f75746572721800000001000000734e000000f8f8f8f88000d808098841890580"
    "41f002030517f000030517f000030517f000030517f000030517f000030517f000030517f008000c24d00b23d00b23d0"
    "0b239864d00b23d10b23d40b23d00423720f000000630000000000000000000000000200000000000000f31e00000087"
    "00970065005a0164005a0288006601640184085a03880078015a0453002902da014b6301000000000000000000000001"
    "00000003000000f3080000009501970089015300720700000072080000002902da0473656c66da095f5f636c6173735f"
    "5f73020000002080720d000000da016d7a034b2e6d0a0000007309000000f88000d80f18d00818720f0000002905da08"
    "5f5f6e616d655f5fda0a5f5f6d6f64756c655f5fda0c5f5f7175616c6e616d655f5f721e000000da0d5f5f636c617373"
    "63656c6c5f5f2901721d000000730100000040720d000000721a000000721a000000090000007338000000f880008000"
    "800080008000f002010519f000010519f000010519f000010519f000010519f000010519f000010519f000010519f000"
    "010519720f000000721a00000029086c0700000000000000000000000000000000046cf9ffffff000000000000000000"
    "000000000467000000000000f83f790000000000000000000000000000004073020000000062750600000068c3a9e282"
    "ac4e2e3e02000000720500000072020000004e29027202000000720300000029047218000000721a000000da03424947"
    "da02494e7208000000720f000000720d000000fa083c6d6f64756c653e7225000000010000007356000000f003010101"
    "f002060124f000060124f000060124f000060124f010020119f000020119f000020119f000020119f000020119f10002"
    "0119f400020119f000020119f008000777018003d805088846805d800280028002720f000000"
;
constexpr std::string_view kSample311Expected[] = {
    "<module>|0|0|0|0|4|0|1||||outer,K,BIG,IN|97006408640284015a0002004700640384006404a6020000ab0200000000000000005a0164055a026502640676005a0364075300",
    "outer|3|2|1|6|3|15|1|a,b,c,d,args,kw|a,c,inner,x|||87008702870687079700890064017a0000008a078800880288076603640284088a0688066601640384087c044400a6000000ab0000000000000000005300",
    "outer.<locals>.inner|1|0|0|1|3|19|3|y||a,c,x||9503970089037c007a0d00008a0389018903890266035300",
    "outer.<locals>.<listcomp>|1|0|0|2|5|19|7|.0,i||inner||9501970067007c005d0d7d01020089027c01a6010000ab01000000000000000091028c0e5300",
    "K|0|0|0|0|2|0|9||__class__||__name__,__module__,__qualname__,m,__classcell__|8700970065005a0164005a0288006601640184085a03880078015a045300",
    "K.m|1|0|0|1|1|3|10|self||__class__||9501970089015300",
};
// Python 3.12: marshal.dumps(compile(kSampleSource, "sample.py", "exec"))
constexpr std::string_view kSample312 =
    "e30000000000000000000000000400000000000000f32c00000097006407640184015a0002004700640284006403ab02"
    "0000000000005a0164045a026502640576005a0379062908e90200000063030000000200000001000000060000000f00"
    "0000f3560000008700870287089700890064017a0000008a088800880288086603640284087d067c0444008f07630267"
    "0063025d0a00007d0702007c067c07ab0100000000000091028c0c040063027d0753006302010063027d07770029034e"
    "e901000000630100000000000000000000000300000013000000f3180000009503970089037c007a0d00008a03890189"
    "03890266035300a9014ea9002904da0179da0161da0163da0178730400000020808080fa0973616d706c652e7079da05"
    "696e6e65727a146f757465722e3c6c6f63616c733e2e696e6e6572030000007317000000f88000e00809885189068801"
    "d80f10902190518877880ef300000000720700000029097209000000da0162720a000000da0164da0461726773da026b"
    "77720d000000da0169720b0000007309000000602060202020202040720c000000da056f757465727214000000010000"
    "00732b000000fa8000d80809884189058041f602030517f008001f23d60b239811894590218d48d20b23d00423f9d20b"
    "237304000000940f2604630000000000000000000000000200000000000000f31e0000008700970065005a0164005a02"
    "88006601640184085a03880078015a0453002902da014b630100000000000000000000000100000003000000f3080000"
    "009501970089015300720600000072070000002902da0473656c66da095f5f636c6173735f5f73020000002080720c00"
    "0000da016d7a034b2e6d0a0000007309000000f88000d80f18d00818720e0000002905da085f5f6e616d655f5fda0a5f"
    "5f6d6f64756c655f5fda0c5f5f7175616c6e616d655f5f721a000000da0d5f5f636c61737363656c6c5f5f2901721900"
    "0000730100000040720c0000007216000000721600000009000000730d000000f88400f702010519f000010519720e00"
    "0000721600000029086c0700000000000000000000000000000000046cf9ffffff000000000000000000000000000467"
    "000000000000f83f790000000000000000000000000000004073020000000062750600000068c3a9e282ac4e2e3e0200"
    "0000720400000072020000004e29027202000000e903000000290472140000007216000000da03424947da02494e7207"
    "000000720e000000720c000000fa083c6d6f64756c653e7222000000010000007325000000f003010101f302060124f7"
    "10020119f100020119f008000777018003d805088846805d8102720e000000"
;
constexpr std::string_view kSample312Expected[] = {
    "<module>|0|0|0|0|4|0|1||||outer,K,BIG,IN|97006407640184015a0002004700640284006403ab020000000000005a0164045a026502640576005a037906",
    "outer|3|2|1|8|6|15|1|a,b,c,d,args,kw,inner,i|a,c,x|||8700870287089700890064017a0000008a088800880288086603640284087d067c0444008f076302670063025d0a00007d0702007c067c07ab0100000000000091028c0c040063027d0753006302010063027d077700",
    "outer.<locals>.inner|1|0|0|1|3|19|3|y||a,c,x||9503970089037c007a0d00008a0389018903890266035300",
    "K|0|0|0|0|2|0|9||__class__||__name__,__module__,__qualname__,m,__classcell__|8700970065005a0164005a0288006601640184085a03880078015a045300",
    "K.m|1|0|0|1|1|3|10|self||__class__||9501970089015300",
};
// Python 3.13: marshal.dumps(compile(kSampleSource, "sample.py", "exec"))
constexpr std::string_view kSample313 =
    "e30000000000000000000000000400000000000000f3300000009500530753011a006a0172001800220053021a005303"
    "35020000000000007201530472025c0253053b000000720367062908e902000000630300000002000000010000000600"
    "00000f000000f35a0000005e005e025e089500540053012d0000006d08550055025508340353021a006a086e06550413"
    "00560773022f007302480a00006f7622005507350100000000000050024d0c00000b00200073026e0724007302200073"
    "026e07660029034ee901000000630100000000000000000000000300000013000000f3180000003e039500540355002d"
    "0d00006d0354015403540234032400a9014ea9002904da0179da0161da0163da0178730400000020808080da0973616d"
    "706c652e7079da05696e6e6572da146f757465722e3c6c6f63616c733e2e696e6e6572030000007317000000f88000e0"
    "0809885189068801d80f10902190518877880ef300000000720700000029097209000000da0162720a000000da0164da"
    "0461726773da026b77720d000000da0169720b0000007309000000602060202020202040720c000000da056f75746572"
    "721500000001000000732f000000fa8000d80809884189058041f702030517f108001f23d30b2399649811884590218e"
    "489964d10b23d00423f9d20b23730400000095102804630000000000000000000000000200000000000000f328000000"
    "5e0095005c00720153007202530172035500340153021a006a0872045303720555003d01720624002904da014be90900"
    "0000630100000000000000000000000100000003000000f3080000003e01950054012400720600000072070000002902"
    "da0473656c66da095f5f636c6173735f5f73020000002080720c000000da016dda034b2e6d0a0000007309000000f880"
    "00d80f18d00818720f00000072070000002907da085f5f6e616d655f5fda0a5f5f6d6f64756c655f5fda0c5f5f717561"
    "6c6e616d655f5fda0f5f5f66697273746c696e656e6f5f5f721c000000da155f5f7374617469635f6174747269627574"
    "65735f5fda0d5f5f636c61737363656c6c5f5f2901721b000000730100000040720c0000007217000000721700000009"
    "000000730d000000f88600f702010519f300010519720f000000721700000029086c0700000000000000000000000000"
    "000000046cf9ffffff000000000000000000000000000467000000000000f83f79000000000000000000000000000000"
    "4073020000000062750600000068c3a9e282ac4e2e3e02000000720400000072020000004e29027202000000e9030000"
    "00290472150000007217000000da03424947da02494e7207000000720f000000720c000000da083c6d6f64756c653e72"
    "27000000010000007325000000f003010101f402060124f710020119f100020119f008000777018003d805088846815d"
    "8102720f000000"
;
constexpr std::string_view kSample313Expected[] = {
    "<module>|0|0|0|0|4|0|1||||outer,K,BIG,IN|9500530753011a006a0172001800220053021a00530335020000000000007201530472025c0253053b00000072036706",
    "outer|3|2|1|8|6|15|1|a,b,c,d,args,kw,inner,i|a,c,x|||5e005e025e089500540053012d0000006d08550055025508340353021a006a086e0655041300560773022f007302480a00006f7622005507350100000000000050024d0c00000b00200073026e0724007302200073026e076600",
    "outer.<locals>.inner|1|0|0|1|3|19|3|y||a,c,x||3e039500540355002d0d00006d0354015403540234032400",
    "K|0|0|0|0|2|0|9||__class__||__name__,__module__,__qualname__,__firstlineno__,m,__static_attributes__,__classcell__|5e0095005c00720153007202530172035500340153021a006a0872045303720555003d0172062400",
    "K.m|1|0|0|1|1|3|10|self||__class__||3e01950054012400",
};

struct Sample {
  int minor;
  std::string_view hex;
  std::span<const std::string_view> expected;
};

const Sample kSamples[] = {
    {8, kSample38, kSample38Expected},    {9, kSample39, kSample39Expected},
    {10, kSample310, kSample310Expected}, {11, kSample311, kSample311Expected},
    {12, kSample312, kSample312Expected}, {13, kSample313, kSample313Expected},
};

std::string join(const NameList& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) out.append(i ? "," : "").append(items[i]);
  return out;
}

std::string to_hex(std::string_view bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

// The same description the generator built from the live code object.
std::string describe(const CodeObject& c) {
  return c.qualname + "|" + std::to_string(c.argcount) + "|" + std::to_string(c.posonlyargcount) +
         "|" + std::to_string(c.kwonlyargcount) + "|" + std::to_string(c.nlocals) + "|" +
         std::to_string(c.stacksize) + "|" + std::to_string(c.flags) + "|" +
         std::to_string(c.firstlineno) + "|" + join(c.varnames) + "|" + join(c.cellvars) + "|" +
         join(c.freevars) + "|" + join(c.names) + "|" + to_hex(c.code);
}

void walk_code(const CodeObject& c, const std::function<void(const CodeObject&)>& visit) {
  visit(c);
  for (const auto& k : c.consts)
    if (auto cv = k->as<CodeValue>()) walk_code(*cv->code, visit);
}

CodeObject copy_of_code(const ObjectRef& obj) { return *as<CodeValue>(obj).code; }

CodeObject find_code(const CodeObject& root, std::string_view name) {
  const CodeObject* found = nullptr;
  walk_code(root, [&](const CodeObject& c) {
    if (c.name == name && !found) found = &c;
  });
  if (!found) throw std::runtime_error("no code object " + std::string(name));
  return *found;
}

std::uint8_t kind_of(const CodeObject& c, std::string_view name) {
  for (std::size_t i = 0; i < c.localsplusnames.size(); ++i)
    if (c.localsplusnames[i] == name) return c.localspluskinds[i];
  throw std::runtime_error("no local " + std::string(name));
}

// A minimal code object `def f(a): return None` in 3.<minor>'s layout, with
// the named field swapped for raw marshal bytes; `offsets` says where each
// field starts.
struct MadeCode {
  Bytes data;
  std::vector<std::pair<std::string, std::size_t>> offsets;
  std::size_t offset_of(std::string_view field) const {
    for (const auto& [name, at] : offsets)
      if (name == field) return at;
    throw std::runtime_error("no field " + std::string(field));
  }
};

MadeCode marshalled_code(int minor, std::string_view field = {}, const Bytes& replacement = {}) {
  const bool split = minor <= 10;
  std::vector<std::pair<std::string, Bytes>> f;
  f.emplace_back("argcount", i32(1));
  f.emplace_back("posonlyargcount", i32(0));
  f.emplace_back("kwonlyargcount", i32(0));
  if (split) f.emplace_back("nlocals", i32(1));
  f.emplace_back("stacksize", i32(1));
  f.emplace_back("flags", i32(3));
  f.emplace_back("code", bytes_obj(std::string_view("d\0S\0", 4)));
  f.emplace_back("consts", small_tuple({op('N')}));
  f.emplace_back("names", small_tuple({}));
  if (split) {
    f.emplace_back("varnames", small_tuple({short_str("a")}));
    f.emplace_back("freevars", small_tuple({}));
    f.emplace_back("cellvars", small_tuple({}));
  } else {
    f.emplace_back("localsplusnames", small_tuple({short_str("a")}));
    f.emplace_back("localspluskinds", bytes_obj("\x20"));
  }
  f.emplace_back("filename", short_str("f.py"));
  f.emplace_back("name", short_str("f"));
  if (!split) f.emplace_back("qualname", short_str("f"));
  f.emplace_back("firstlineno", i32(1));
  f.emplace_back("linetable", bytes_obj(""));
  if (!split) f.emplace_back("exceptiontable", bytes_obj(""));

  MadeCode made;
  made.data = {0xe3};  // 'c' | FLAG_REF, as CPython writes it
  bool replaced = field.empty();
  for (const auto& [name, bytes] : f) {
    made.offsets.emplace_back(name, made.data.size());
    const Bytes& b = name == field ? (replaced = true, replacement) : bytes;
    made.data.insert(made.data.end(), b.begin(), b.end());
  }
  if (!replaced) throw std::runtime_error("no field " + std::string(field) + " in this layout");
  return made;
}

constexpr int kLayoutMinors[] = {8, 10, 11, 13};

// ---- scalar values ---------------------------------------------------------

TEST(MarshalValues, Singletons) {
  EXPECT_TRUE(read_hex("4e")->is<NoneValue>());
  EXPECT_TRUE(read_hex("2e")->is<EllipsisValue>());
  EXPECT_TRUE(read_hex("53")->is<StopIterationValue>());
  EXPECT_FALSE(as<BoolValue>(read_hex("46")).value);
  EXPECT_TRUE(as<BoolValue>(read_hex("54")).value);
  EXPECT_STREQ(read_hex("4e")->type_name(), "None");
}

TEST(MarshalValues, SmallInts) {
  EXPECT_EQ(as<IntValue>(read_hex("e905000000")).small, 5);
  EXPECT_EQ(as<IntValue>(read_hex("e9ffffffff")).small, -1);
  EXPECT_TRUE(as<IntValue>(read_hex("e9ffffffff")).negative);
  EXPECT_EQ(as<IntValue>(read_hex("ec03000000000000000004")).small, std::int64_t(1) << 40);
  const auto& max = as<IntValue>(read_hex("ec05000000ff7fff7fff7fff7f0700"));
  EXPECT_TRUE(max.is_small());
  EXPECT_EQ(max.small, INT64_MAX);
  const auto& min = as<IntValue>(read_hex("ecfbffffff00000000000000000800"));
  EXPECT_TRUE(min.is_small());
  EXPECT_EQ(min.small, INT64_MIN);
  EXPECT_EQ(min.to_decimal(), "-9223372036854775808");
  EXPECT_EQ(as<IntValue>(read_hex("6c00000000")).to_decimal(), "0");  // 'l' with no digits
}

TEST(SharedObjects, HoldTheirValues) {
  // The readers hand these out for every None, bool and small int: each
  // must be the value it stands for, and the same object every time.
  EXPECT_TRUE(none_object()->is<NoneValue>());
  EXPECT_TRUE(ellipsis_object()->is<EllipsisValue>());
  EXPECT_TRUE(stop_iteration_object()->is<StopIterationValue>());
  EXPECT_TRUE(as<BoolValue>(bool_object(true)).value);
  EXPECT_FALSE(as<BoolValue>(bool_object(false)).value);
  for (std::int64_t v = kSmallIntMin; v <= kSmallIntMax; ++v) {
    const auto& i = as<IntValue>(small_int_object(v));
    EXPECT_TRUE(i.is_small());
    EXPECT_EQ(i.small, v);
    EXPECT_EQ(i.negative, v < 0);
    EXPECT_EQ(small_int_object(v).get(), small_int_object(v).get());
  }
  EXPECT_EQ(read_hex("4e").get(), none_object().get());
  EXPECT_EQ(read_hex("e9ffffffff").get(), small_int_object(-1).get());
}

TEST(MarshalValues, Int64TypeCode) {
  // 'I': legacy 64-bit int, still accepted by CPython's reader.
  auto v = read_marshal(cat({op('I'), i32(-2), i32(-1)}), version(11));
  EXPECT_EQ(as<IntValue>(v).small, -2);
}

TEST(MarshalValues, BigInts) {
  const auto& p63 = as<IntValue>(read_hex("ec0500000000000000000000000800"));
  EXPECT_FALSE(p63.is_small());
  EXPECT_EQ(p63.to_decimal(), "9223372036854775808");
  const auto& p100 = as<IntValue>(read_hex("ec070000000000000000000000000000000004"));
  EXPECT_FALSE(p100.is_small());
  EXPECT_FALSE(p100.negative);
  EXPECT_EQ(p100.digits.size(), 7u);
  EXPECT_EQ(p100.to_decimal(), "1267650600228229401496703205376");
  const auto& m100 = as<IntValue>(read_hex("ecf9ffffff0000000000000000000000000004"));
  EXPECT_TRUE(m100.negative);
  EXPECT_EQ(m100.to_decimal(), "-1267650600228229401496703205376");
  EXPECT_STREQ(read_hex("ec070000000000000000000000000000000004")->type_name(), "int");
}

TEST(MarshalValues, ToDecimal) {
  EXPECT_EQ(IntValue{}.to_decimal(), "0");
  EXPECT_EQ((IntValue{-42, {}, true}).to_decimal(), "-42");
  // 10**30 = digits of base 2**15, least significant first (from Python).
  IntValue v;
  v.digits = {0, 0, 14249, 13223, 19716, 26003, 807};
  EXPECT_EQ(v.to_decimal(), "1000000000000000000000000000000");
  v.negative = true;
  EXPECT_EQ(v.to_decimal(), "-1000000000000000000000000000000");
  IntValue zero;
  zero.digits = {0, 0};
  EXPECT_EQ(zero.to_decimal(), "0");
}

TEST(MarshalValues, LongChecksMirrorCPython) {
  // Zero top digit: CPython's "unnormalized long data".
  auto e = read_error(unhex_bytes("6c020000000100" "0000"));
  EXPECT_EQ(e.kind(), ErrorKind::Marshal);
  EXPECT_EQ(e.offset(), 7u);
  // A digit >= 2**15.
  e = read_error(unhex_bytes("6c010000000080"));
  EXPECT_EQ(e.kind(), ErrorKind::Marshal);
  EXPECT_EQ(e.offset(), 5u);
  EXPECT_EQ(as<IntValue>(read_hex("6c01000000ff7f")).small, 32767);
  // INT32_MIN digits: "long size out of range".
  e = read_error(unhex_bytes("6c00000080"));
  EXPECT_EQ(e.offset(), 1u);
  // A digit count far beyond the input must fail before allocating.
  e = read_error(unhex_bytes("6cffffff7f0100"));
  EXPECT_EQ(e.kind(), ErrorKind::Marshal);
  EXPECT_EQ(e.offset(), 1u);
}

TEST(MarshalValues, Floats) {
  EXPECT_EQ(as<FloatValue>(read_hex("e7000000000000f83f")).value, 1.5);
  const auto& c = as<ComplexValue>(read_hex("f9000000000000f03f0000000000000040"));
  EXPECT_EQ(c.real, 1.0);
  EXPECT_EQ(c.imag, 2.0);
  // marshal version 1 text forms.
  EXPECT_EQ(as<FloatValue>(read_hex("6603312e35")).value, 1.5);
  const auto& tc = as<ComplexValue>(read_hex("7801310132"));
  EXPECT_EQ(tc.real, 1.0);
  EXPECT_EQ(tc.imag, 2.0);
}

double text_float(std::string_view s) {
  Bytes data{'f', std::uint8_t(s.size())};
  data.insert(data.end(), s.begin(), s.end());
  return as<FloatValue>(read_marshal(data, version(11))).value;
}

TEST(MarshalValues, TextFloatSyntax) {
  EXPECT_EQ(text_float("+1.5"), 1.5);
  EXPECT_EQ(text_float("-0.25"), -0.25);
  EXPECT_EQ(text_float("1e5"), 100000.0);
  EXPECT_EQ(text_float(".5"), 0.5);
  EXPECT_TRUE(std::isinf(text_float("inf")));
  EXPECT_TRUE(std::isinf(text_float("Infinity")));
  EXPECT_LT(text_float("-inf"), 0);
  EXPECT_TRUE(std::isnan(text_float("nan")));
  // Out of double's range: strtod's overflow and underflow results.
  EXPECT_EQ(text_float("1e400"), HUGE_VAL);
  EXPECT_EQ(text_float("-1e400"), -HUGE_VAL);
  EXPECT_EQ(text_float("1e-400"), 0.0);
  EXPECT_TRUE(std::signbit(text_float("-1e-400")));
  // CPython rejects all of these.
  for (std::string_view bad : {" 1.5", "0x1", "1_0", "", "+", "+-1", "1.5x", "--1"}) {
    Bytes data{'f', std::uint8_t(bad.size())};
    data.insert(data.end(), bad.begin(), bad.end());
    auto e = read_error(data);
    EXPECT_EQ(e.kind(), ErrorKind::Marshal) << bad;
    EXPECT_EQ(e.offset(), 1u) << bad;
  }
}

TEST(MarshalValues, BytesAndStrings) {
  EXPECT_EQ(as<BytesValue>(read_hex("f303000000006162")).data, std::string("\0ab", 3));
  EXPECT_EQ(utf8_of(read_hex("f50600000068c3a9e282ac")), "h\xc3\xa9\xe2\x82\xac");
  // A lone surrogate (surrogatepass) keeps its 3-byte encoding.
  EXPECT_EQ(utf8_of(read_hex("f503000000eda080")), "\xed\xa0\x80");
  // 'z'/'a' strings are Latin-1: 0xe9 is U+00E9.
  EXPECT_EQ(utf8_of(read_hex("7a02e941")), "\xc3\xa9" "A");
  EXPECT_EQ(utf8_of(read_hex("610200000068690a")), "hi");
  EXPECT_EQ(utf8_of(read_hex("4102000000686900")), "hi");
  EXPECT_EQ(utf8_of(read_hex("5a026869")), "hi");
  EXPECT_EQ(utf8_of(read_hex("740200000068690a")), "hi");
}

TEST(MarshalValues, InvalidUtf8) {
  for (std::string_view bad : {"ff", "c0af", "e08080", "f4908080", "e282", "80"}) {
    Bytes data = cat({op('u'), i32(std::int64_t(bad.size() / 2 + 1)), op('x'), unhex_bytes(bad)});
    auto e = read_error(data);
    EXPECT_EQ(e.kind(), ErrorKind::Marshal) << bad;
    EXPECT_EQ(e.offset(), 6u) << bad;  // the first bad byte
  }
}

// ---- containers and references ----------------------------------------------

TEST(MarshalContainers, AllKinds) {
  // [1, (2, 3), {'a': None}, {4}, frozenset({5}), b'x']
  auto obj = read_hex(
      "db06000000e901000000a902e902000000e9030000007bda01614e303c01000000e9040000003e01000000e905"
      "000000f30100000078");
  const auto& list = as<ListValue>(obj).items;
  ASSERT_EQ(list.size(), 6u);
  EXPECT_EQ(as<IntValue>(list[0]).small, 1);
  const auto& tuple = as<TupleValue>(list[1]).items;
  ASSERT_EQ(tuple.size(), 2u);
  EXPECT_EQ(as<IntValue>(tuple[1]).small, 3);
  const auto& dict = as<DictValue>(list[2]).items;
  ASSERT_EQ(dict.size(), 1u);
  EXPECT_EQ(utf8_of(dict[0].first), "a");
  EXPECT_TRUE(dict[0].second->is<NoneValue>());
  EXPECT_EQ(as<IntValue>(as<SetValue>(list[3]).items.at(0)).small, 4);
  EXPECT_EQ(as<IntValue>(as<FrozenSetValue>(list[4]).items.at(0)).small, 5);
  EXPECT_EQ(as<BytesValue>(list[5]).data, "x");
  EXPECT_STREQ(list[4]->type_name(), "frozenset");
  EXPECT_STREQ(list[2]->type_name(), "dict");
}

TEST(MarshalContainers, EmptyOnes) {
  EXPECT_TRUE(as<TupleValue>(read_hex("2900")).items.empty());
  EXPECT_TRUE(as<TupleValue>(read_hex("2800000000")).items.empty());
  EXPECT_TRUE(as<DictValue>(read_hex("7b30")).items.empty());
  EXPECT_TRUE(as<FrozenSetValue>(read_hex("3e00000000")).items.empty());
}

TEST(MarshalRefs, SharedObjectsAreShared) {
  // s = 'abc'*3; [s, s]
  const auto& strs = as<ListValue>(read_hex("5b02000000da096162636162636162637200000000")).items;
  ASSERT_EQ(strs.size(), 2u);
  EXPECT_EQ(utf8_of(strs[1]), "abcabcabc");
  EXPECT_EQ(strs[0].get(), strs[1].get());
  // x = (1000, 2000); [x, x, [x]]
  const auto& items =
      as<ListValue>(read_hex("5b03000000a902e9e8030000e9d007000072000000005b010000007200000000"))
          .items;
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(items[0].get(), items[1].get());
  EXPECT_EQ(as<ListValue>(items[2]).items.at(0).get(), items[0].get());
  EXPECT_EQ(as<IntValue>(as<TupleValue>(items[1]).items.at(1)).small, 2000);
}

TEST(MarshalRefs, SlotsInPreOrder) {
  // A list with FLAG_REF takes slot 0 before its children, so 'r' 1 is the int.
  auto obj = read_marshal(cat({unhex_bytes("db02000000"), unhex_bytes("e907000000"), op('r'), i32(1)}),
                          version(11));
  const auto& items = as<ListValue>(obj).items;
  EXPECT_EQ(items[0].get(), items[1].get());
  // Singletons never take a slot, FLAG_REF or not (as in CPython).
  auto e = read_error(cat({unhex_bytes("2902ce"), op('r'), i32(0)}));
  EXPECT_EQ(e.kind(), ErrorKind::Marshal);
  EXPECT_EQ(e.offset(), 4u);
  EXPECT_NE(std::string(e.what()).find("out of range"), std::string::npos);
}

TEST(MarshalRefs, BadReferences) {
  auto e = read_error(cat({op('r'), i32(0)}));
  EXPECT_EQ(e.kind(), ErrorKind::Marshal);
  EXPECT_EQ(e.offset(), 1u);
  e = read_error(cat({unhex_bytes("2902e905000000"), op('r'), i32(-1)}));
  EXPECT_EQ(e.offset(), 8u);
  e = read_error(cat({unhex_bytes("2902e905000000"), op('r'), i32(5)}), 11, {}, 100);
  EXPECT_EQ(e.offset(), 108u);  // base_offset is added
}

TEST(MarshalRefs, SelfReferenceIsAnError) {
  // A tuple, list and frozenset that contain themselves.
  for (std::string_view head : {"a901", "db01000000", "be01000000", "fb"}) {
    auto e = read_error(cat({unhex_bytes(head), op('r'), i32(0), op('0')}));
    EXPECT_EQ(e.kind(), ErrorKind::Marshal) << head;
    EXPECT_EQ(e.offset(), head.size() / 2 + 1) << head;
    EXPECT_NE(std::string(e.what()).find("still being read"), std::string::npos);
  }
  // A code object whose consts refer to the code object itself.
  MadeCode made = marshalled_code(11, "consts", cat({op(')'), Bytes{1}, op('r'), i32(0)}));
  auto e = read_error(made.data);
  EXPECT_EQ(e.kind(), ErrorKind::Marshal);
  EXPECT_EQ(e.offset(), made.offset_of("consts") + 3);
}

// ---- version-specific codes and malformed streams ------------------------------

TEST(MarshalErrors, SliceOnlyInVersion5) {
  Bytes slice = cat({op(':'), op('N'), unhex_bytes("e905000000"), op('N')});
  auto obj = read_marshal(slice, version(14));
  const auto& s = as<SliceValue>(obj);
  EXPECT_TRUE(s.start->is<NoneValue>());
  EXPECT_EQ(as<IntValue>(s.stop).small, 5);
  EXPECT_STREQ(obj->type_name(), "slice");
  auto e = read_error(slice, 13);
  EXPECT_EQ(e.kind(), ErrorKind::Marshal);
  EXPECT_EQ(e.offset(), 0u);
}

TEST(MarshalErrors, UnknownTypeCodes) {
  for (std::uint8_t code : {std::uint8_t('?'), std::uint8_t(0x01), std::uint8_t(0xbf),
                            std::uint8_t('R'), std::uint8_t(0x7f)}) {
    auto e = read_error(cat({unhex_bytes("2902e905000000"), Bytes{code}}));
    EXPECT_EQ(e.kind(), ErrorKind::Marshal);
    EXPECT_EQ(e.offset(), 7u);
  }
  auto e = read_error(cat({unhex_bytes("2902e905000000"), op('?')}), 11, {}, 16);
  EXPECT_EQ(e.offset(), 23u);
  EXPECT_NE(std::string(e.what()).find("unknown type code 0x3f ('?')"), std::string::npos);
}

TEST(MarshalErrors, NullOutsideDict) {
  EXPECT_EQ(read_error(unhex_bytes("30")).offset(), 0u);
  EXPECT_EQ(read_error(unhex_bytes("290130")).offset(), 2u);
  // A NULL value (CPython silently drops the pair; we refuse).
  EXPECT_EQ(read_error(unhex_bytes("7b4e30")).offset(), 2u);
}

TEST(MarshalErrors, SizesCheckedBeforeAllocating) {
  for (char code : {'(', '[', '<', '>', 's', 'u', 'a'}) {
    auto e = read_error(cat({op(code), i32(0x7fffffff), op('N')}));
    EXPECT_EQ(e.kind(), ErrorKind::Marshal) << code;
    EXPECT_EQ(e.offset(), 1u) << code;
    e = read_error(cat({op(code), i32(-1), op('N')}));
    EXPECT_EQ(e.offset(), 1u) << code;
    EXPECT_NE(std::string(e.what()).find("negative"), std::string::npos);
  }
}

TEST(MarshalErrors, DepthBombIsRefused) {
  Bytes bomb;
  for (int i = 0; i < 100000; ++i) {
    Bytes level = cat({op('['), i32(1)});
    bomb.insert(bomb.end(), level.begin(), level.end());
  }
  bomb.push_back('N');
  auto e = read_error(bomb);
  EXPECT_EQ(e.kind(), ErrorKind::Marshal);
  EXPECT_EQ(e.offset(), 256u * 5);  // the first list past the default limit of 256
}

TEST(MarshalErrors, DepthLimitIsExact) {
  MarshalOptions options;
  options.max_depth = 3;
  EXPECT_NO_THROW(read_marshal(unhex_bytes("290129012900"), version(11), options));
  EXPECT_EQ(read_error(unhex_bytes("2901290129012900"), 11, options).offset(), 6u);
  // Scalars inside the deepest container do not count.
  EXPECT_NO_THROW(read_marshal(unhex_bytes("2901290129014e"), version(11), options));
}

TEST(MarshalErrors, TruncationAtEveryPrefix) {
  for (const auto& sample : kSamples) {
    Bytes full = unhex_bytes(sample.hex);
    for (std::size_t n = 0; n < full.size(); ++n) {
      Bytes prefix(full.begin(), full.begin() + std::ptrdiff_t(n));
      try {
        read_marshal(prefix, version(sample.minor));
        ADD_FAILURE() << "3." << sample.minor << " prefix of " << n << " bytes was accepted";
      } catch (const Error& e) {
        EXPECT_LE(*e.offset(), n);
      }
    }
  }
}

TEST(MarshalErrors, CorruptedBytesNeverCrash) {
  // Every byte of every sample replaced by a few values: the reader must
  // either succeed or throw unveil::Error, never anything else. One sample
  // per layout variant keeps a Debug run short.
  for (const auto& sample : kSamples) {
    if (sample.minor == 9 || sample.minor == 12) continue;
    const Bytes full = unhex_bytes(sample.hex);
    for (std::size_t i = 0; i < full.size(); ++i) {
      for (std::uint8_t value :
           {std::uint8_t(0xff), std::uint8_t(full[i] ^ 0x80), std::uint8_t(full[i] ^ 0x01)}) {
        Bytes data = full;
        data[i] = value;
        try {
          read_marshal(data, version(sample.minor));
        } catch (const Error&) {
        }
      }
    }
  }
}

// ---- placeholders ------------------------------------------------------------------

MarshalOptions placeholder_options() {
  MarshalOptions options;
  options.placeholder_prefix = "__ph_";
  options.placeholder_names = {"torch.float32", "MyClass"};
  return options;
}

TEST(MarshalPlaceholders, StringsBecomePlaceholders) {
  Bytes data = small_tuple({short_str("__ph_1"), short_str("__ph_0"), short_str("__ph_"),
                            short_str("__ph_01"), short_str("__ph_x"), short_str("other")});
  const auto& items = as<TupleValue>(read_marshal(data, version(11), placeholder_options())).items;
  EXPECT_EQ(as<PlaceholderValue>(items[0]).name, "MyClass");
  EXPECT_EQ(as<PlaceholderValue>(items[0]).index, 1u);
  EXPECT_EQ(as<PlaceholderValue>(items[1]).name, "torch.float32");
  EXPECT_EQ(as<PlaceholderValue>(items[1]).index, 0u);
  EXPECT_STREQ(items[1]->type_name(), "placeholder");
  EXPECT_EQ(utf8_of(items[2]), "__ph_");
  EXPECT_EQ(utf8_of(items[3]), "__ph_01");
  EXPECT_EQ(utf8_of(items[4]), "__ph_x");
  EXPECT_EQ(utf8_of(items[5]), "other");
  // No prefix: no substitution.
  EXPECT_EQ(utf8_of(as<TupleValue>(read_marshal(data, version(11))).items[0]), "__ph_1");
}

TEST(MarshalPlaceholders, IndexOutOfRange) {
  for (std::string_view s : {"__ph_2", "__ph_99999999999999999999999"}) {
    auto e = read_error(small_tuple({op('N'), short_str(s)}), 11, placeholder_options());
    EXPECT_EQ(e.kind(), ErrorKind::Marshal);
    EXPECT_EQ(e.offset(), 3u);
  }
}

TEST(MarshalPlaceholders, InsideCodeObjects) {
  for (int minor : kLayoutMinors) {
    MadeCode made = marshalled_code(minor, "consts", small_tuple({short_str("__ph_1")}));
    // A name that happens to look like a placeholder still reads as a name.
    Bytes data = made.data;
    std::size_t at = made.offset_of("names");
    Bytes names = small_tuple({short_str("__ph_0")});
    data.erase(data.begin() + std::ptrdiff_t(at), data.begin() + std::ptrdiff_t(at + 2));
    data.insert(data.begin() + std::ptrdiff_t(at), names.begin(), names.end());
    const auto& code = copy_of_code(read_marshal(data, version(minor), placeholder_options()));
    EXPECT_EQ(as<PlaceholderValue>(code.consts.at(0)).name, "MyClass");
    EXPECT_EQ(code.names, std::vector<std::string_view>{"__ph_0"});
  }
}

// ---- code objects ------------------------------------------------------------------

TEST(MarshalCode, SamplesMatchPython) {
  for (const auto& sample : kSamples) {
    SCOPED_TRACE("3." + std::to_string(sample.minor));
    auto module = read_hex(sample.hex, sample.minor);
    std::vector<std::string> got;
    walk_code(copy_of_code(module), [&](const CodeObject& c) {
      got.push_back(describe(c));
      EXPECT_EQ(c.version_minor, sample.minor);
      EXPECT_EQ(c.filename, "sample.py");
    });
    ASSERT_EQ(got.size(), sample.expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], sample.expected[i]);
  }
}

TEST(MarshalCode, SampleConstants) {
  for (const auto& sample : kSamples) {
    SCOPED_TRACE("3." + std::to_string(sample.minor));
    const auto& module = copy_of_code(read_hex(sample.hex, sample.minor));
    const TupleValue* big = nullptr;
    const FrozenSetValue* set = nullptr;
    for (const auto& k : module.consts) {
      if (auto t = k->as<TupleValue>(); t && t->items.size() == 8) big = t;
      if (auto f = k->as<FrozenSetValue>()) set = f;
    }
    ASSERT_NE(big, nullptr);
    EXPECT_EQ(as<IntValue>(big->items[0]).to_decimal(), "1267650600228229401496703205376");
    EXPECT_EQ(as<IntValue>(big->items[1]).to_decimal(), "-1267650600228229401496703205376");
    EXPECT_EQ(as<FloatValue>(big->items[2]).value, 1.5);
    EXPECT_EQ(as<ComplexValue>(big->items[3]).imag, 2.0);
    EXPECT_EQ(as<BytesValue>(big->items[4]).data, std::string("\0b", 2));
    EXPECT_EQ(utf8_of(big->items[5]), "h\xc3\xa9\xe2\x82\xac");
    EXPECT_TRUE(big->items[6]->is<NoneValue>());
    EXPECT_TRUE(big->items[7]->is<EllipsisValue>());
    ASSERT_NE(set, nullptr);
    ASSERT_EQ(set->items.size(), 2u);
    EXPECT_EQ(as<IntValue>(set->items[0]).small + as<IntValue>(set->items[1]).small, 3);
    EXPECT_EQ(module.name, "<module>");
    EXPECT_EQ(module.qualname, "<module>");
  }
}

TEST(MarshalCode, LocalsPlusKinds311Plus) {
  for (int minor : {11, 12, 13}) {
    SCOPED_TRACE("3." + std::to_string(minor));
    const auto& outer = find_code(copy_of_code(read_hex(kSamples[minor - 8].hex, minor)), "outer");
    // An argument captured by a closure is one slot of kind LOCAL|CELL.
    EXPECT_EQ(kind_of(outer, "a"), kLocalPlain | kLocalCell);
    EXPECT_EQ(kind_of(outer, "b"), kLocalPlain);
    EXPECT_EQ(kind_of(outer, "x"), kLocalCell);
    EXPECT_EQ(outer.localsplusnames.size(), outer.localspluskinds.size());
    const auto& inner = find_code(copy_of_code(read_hex(kSamples[minor - 8].hex, minor)), "inner");
    EXPECT_EQ(kind_of(inner, "x"), kLocalFree);
    EXPECT_EQ(inner.qualname, "outer.<locals>.inner");
  }
}

TEST(MarshalCode, HiddenLocals312) {
  // 3.12: "class C:\n    xs = [i for i in range(3)]\n"; the inlined comprehension's
  // locals are HIDDEN|LOCAL (0x30) and Python still lists them in co_varnames.
  constexpr std::string_view kHidden =
    "e30000000000000000000000000400000000000000f318000000970002004700640084006401ab020000000000005a00"
    "79022903e30000000000000000000000000500000000000000f348000000970065005a0164005a02020065036401ab01"
    "00000000000044008f008f016303670063025d0400007d017c0191028c06040063037d017d005a047902630201006303"
    "7d017d0077002903da0143e9030000004e2905da085f5f6e616d655f5fda0a5f5f6d6f64756c655f5fda0c5f5f717561"
    "6c6e616d655f5fda0572616e6765da0278732902da022e30da016973020000003030da01737204000000720400000001"
    "00000073190000008400d9151a98319358d7091e90018a21d3091e8142f9d3091e730400000090091e0672040000004e"
    "29017204000000a900f300000000720d000000fa083c6d6f64756c653e721000000001000000730f000000f003010101"
    "f70201011ff20001011f720f000000";
  const auto& c = find_code(copy_of_code(read_hex(kHidden, 12)), "C");
  EXPECT_EQ(c.localspluskinds, (std::vector<std::uint8_t>{0x30, 0x30}));
  EXPECT_EQ(c.varnames, (std::vector<std::string_view>{".0", "i"}));
  EXPECT_EQ(c.nlocals, 2);
  EXPECT_TRUE(c.cellvars.empty());
}

TEST(MarshalCode, DerivedLocalsPlusBefore311) {
  for (int minor : {8, 9, 10}) {
    SCOPED_TRACE("3." + std::to_string(minor));
    const auto& outer = find_code(copy_of_code(read_hex(kSamples[minor - 8].hex, minor)), "outer");
    // varnames (args that are cells marked LOCAL|CELL), other cells, frees.
    EXPECT_EQ(outer.localsplusnames,
              (std::vector<std::string_view>{"a", "b", "c", "d", "args", "kw", "inner", "x"}));
    EXPECT_EQ(outer.localspluskinds,
              (std::vector<std::uint8_t>{0x60, 0x20, 0x60, 0x20, 0x20, 0x20, 0x40, 0x40}));
    const auto& inner = find_code(copy_of_code(read_hex(kSamples[minor - 8].hex, minor)), "inner");
    EXPECT_EQ(inner.localsplusnames, (std::vector<std::string_view>{"y", "a", "c", "x"}));
    EXPECT_EQ(inner.localspluskinds, (std::vector<std::uint8_t>{0x20, 0x80, 0x80, 0x80}));
    EXPECT_EQ(inner.qualname, "inner");
    EXPECT_TRUE(inner.exceptiontable.empty());
  }
}

TEST(MarshalCode, MadeCodeReads) {
  for (int minor : kLayoutMinors) {
    SCOPED_TRACE("3." + std::to_string(minor));
    const auto& c = copy_of_code(read_marshal(marshalled_code(minor).data, version(minor)));
    EXPECT_EQ(c.name, "f");
    EXPECT_EQ(c.qualname, "f");
    EXPECT_EQ(c.argcount, 1);
    EXPECT_EQ(c.nlocals, 1);
    EXPECT_EQ(c.varnames, std::vector<std::string_view>{"a"});
    EXPECT_EQ(c.localsplusnames, std::vector<std::string_view>{"a"});
    EXPECT_EQ(c.localspluskinds, std::vector<std::uint8_t>{kLocalPlain});
    EXPECT_EQ(c.code, std::string("d\0S\0", 4));
    EXPECT_EQ(c.flags, 3u);
  }
}

struct FieldCase {
  std::string field;
  Bytes replacement;
  std::string message;  // "{names}" stands for the locals field of the layout
  bool split_only = false, plus_only = false;
};

TEST(MarshalCode, FieldErrors) {
  const std::vector<FieldCase> cases = {
      {"names", cat({op('['), i32(0)}), "co_names is a list, expected a tuple of str"},
      {"names", small_tuple({unhex_bytes("e901000000")}), "co_names[0] is an int, expected a str"},
      {"code", short_str("ab"), "co_code is a str, expected bytes"},
      {"code", bytes_obj("abc"), "co_code has odd length 3"},
      {"consts", op('N'), "co_consts is None, expected a tuple"},
      {"filename", unhex_bytes("e901000000"), "co_filename is an int, expected a str"},
      {"name", bytes_obj("f"), "co_name is bytes, expected a str"},
      {"linetable", short_str(""), "", false, false},
      {"argcount", i32(-1), "co_argcount is -1, expected a count >= 0"},
      {"stacksize", i32(-5), "co_stacksize is -5, expected a count >= 0"},
      {"argcount", i32(2), "{names} holds 1 local name(s), fewer than the 2 argument(s)"},
      {"flags", i32(0x0f), "{names} holds 1 local name(s), fewer than the 3 argument(s)"},
      {"posonlyargcount", i32(2), "co_posonlyargcount 2 exceeds co_argcount 1"},
      {"nlocals", i32(-1), "co_nlocals is -1, expected a count >= 0", true},
      {"varnames", small_tuple({op('N')}), "co_varnames[0] is None, expected a str", true},
      {"cellvars", cat({op('['), i32(0)}), "co_cellvars is a list, expected a tuple of str", true},
      {"localspluskinds", bytes_obj(""),
       "co_localspluskinds has 0 entries for 1 names in co_localsplusnames", false, true},
      {"localspluskinds", small_tuple({}), "co_localspluskinds is a tuple, expected bytes", false,
       true},
      {"qualname", op('N'), "co_qualname is None, expected a str", false, true},
      {"exceptiontable", short_str(""), "co_exceptiontable is a str, expected bytes", false, true},
  };
  for (int minor : kLayoutMinors) {
    const bool split = minor <= 10;
    for (const auto& c : cases) {
      if ((c.split_only && !split) || (c.plus_only && split)) continue;
      SCOPED_TRACE("3." + std::to_string(minor) + " " + c.field);
      MadeCode made = marshalled_code(minor, c.field, c.replacement);
      auto e = read_error(made.data, minor);
      EXPECT_EQ(e.kind(), ErrorKind::CodeObject);
      std::string expected = c.message;
      if (c.field == "linetable")
        expected = std::string(minor <= 9 ? "co_lnotab" : "co_linetable") +
                   " is a str, expected bytes";
      if (auto p = expected.find("{names}"); p != std::string::npos)
        expected.replace(p, 7, split ? "co_varnames" : "co_localsplusnames");
      EXPECT_EQ(e.detail(), expected);
      std::string located = expected.find("local name(s)") != std::string::npos
                                ? (split ? "varnames" : "localsplusnames")
                            : expected.find("exceeds co_argcount") != std::string::npos
                                ? "posonlyargcount"
                                : c.field;
      EXPECT_EQ(e.offset(), made.offset_of(located));
    }
  }
}

TEST(MarshalCode, FieldThroughReference) {
  // Fields may be back-references; their type is that of the target.
  for (int minor : kLayoutMinors) {
    MadeCode made = marshalled_code(minor, "names", cat({op('r'), i32(0)}));
    auto e = read_error(made.data, minor);
    EXPECT_EQ(e.kind(), ErrorKind::Marshal);  // slot 0 is the code object itself
    made = marshalled_code(minor, "consts", small_tuple({unhex_bytes("7a0178") /*z*/}));
    Bytes data = made.data;
    data[made.offset_of("consts") + 2] |= 0x80;  // the str takes slot 1
    Bytes ref = small_tuple({cat({op('r'), i32(1)})});
    std::size_t at = made.offset_of("names");
    data.erase(data.begin() + std::ptrdiff_t(at), data.begin() + std::ptrdiff_t(at + 2));
    data.insert(data.begin() + std::ptrdiff_t(at), ref.begin(), ref.end());
    const auto& c = copy_of_code(read_marshal(data, version(minor)));
    EXPECT_EQ(c.names, std::vector<std::string_view>{"x"});
  }
}


TEST(MarshalCode, NamesOutliveTheBytesAndTheObjectsRead) {
  // The name tables view the reader's str objects, which the code object
  // holds: a copy of it outlives the bytes, the object read and the original.
  for (int minor : kLayoutMinors) {
    std::optional<CodeObject> copy;
    {
      const Bytes utf8_name = cat({op('u'), i32(4), Bytes{'n', 0xc3, 0xa9, 'e'}});  // "née"
      MadeCode made = marshalled_code(minor, "names", small_tuple({utf8_name, short_str("x")}));
      auto code = std::make_shared<CodeObject>(copy_of_code(read_marshal(made.data, version(minor))));
      copy = *code;
    }
    EXPECT_EQ(copy->names, (std::vector<std::string_view>{"n\xc3\xa9" "e", "x"}));
    EXPECT_FALSE(copy->localsplusnames.empty());
    EXPECT_EQ(copy->localsplusnames.front(), "a");
  }
}

TEST(MarshalPlaceholders, NameSharedWithAPlaceholderReadsAsItsText) {
  // A name that is a back-reference to a str the reader made a placeholder:
  // the name's text is made again, and held by the code object.
  for (int minor : kLayoutMinors) {
    MadeCode made = marshalled_code(minor, "consts", small_tuple({short_str("__ph_1")}));
    Bytes data = made.data;
    data[made.offset_of("consts") + 2] |= 0x80;  // the str takes slot 1
    const Bytes ref = small_tuple({cat({op('r'), i32(1)})});
    const std::size_t at = made.offset_of("names");
    data.erase(data.begin() + std::ptrdiff_t(at), data.begin() + std::ptrdiff_t(at + 2));
    data.insert(data.begin() + std::ptrdiff_t(at), ref.begin(), ref.end());
    const CodeObject c = copy_of_code(read_marshal(data, version(minor), placeholder_options()));
    EXPECT_EQ(as<PlaceholderValue>(c.consts.at(0)).name, "MyClass");
    EXPECT_EQ(c.names, std::vector<std::string_view>{"__ph_1"});
  }
}

}  // namespace
}  // namespace unveil
