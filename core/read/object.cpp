#include "read/object.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <type_traits>

namespace unveil {

namespace {

template <class T>
constexpr const char* name_of() {
  if constexpr (std::is_same_v<T, NoneValue>) return "None";
  else if constexpr (std::is_same_v<T, EllipsisValue>) return "ellipsis";
  else if constexpr (std::is_same_v<T, StopIterationValue>) return "StopIteration";
  else if constexpr (std::is_same_v<T, NullValue>) return "NULL";
  else if constexpr (std::is_same_v<T, BoolValue>) return "bool";
  else if constexpr (std::is_same_v<T, IntValue>) return "int";
  else if constexpr (std::is_same_v<T, FloatValue>) return "float";
  else if constexpr (std::is_same_v<T, ComplexValue>) return "complex";
  else if constexpr (std::is_same_v<T, BytesValue>) return "bytes";
  else if constexpr (std::is_same_v<T, StrValue>) return "str";
  else if constexpr (std::is_same_v<T, TupleValue>) return "tuple";
  else if constexpr (std::is_same_v<T, ListValue>) return "list";
  else if constexpr (std::is_same_v<T, SetValue>) return "set";
  else if constexpr (std::is_same_v<T, FrozenSetValue>) return "frozenset";
  else if constexpr (std::is_same_v<T, DictValue>) return "dict";
  else if constexpr (std::is_same_v<T, SliceValue>) return "slice";
  else if constexpr (std::is_same_v<T, PlaceholderValue>) return "placeholder";
  else if constexpr (std::is_same_v<T, CodeValue>) return "code";
  else static_assert(!sizeof(T), "every alternative needs a name");
}

// 30-bit limbs let one division step by 10**9 stay inside 64 bits:
// remainder * 2**30 + limb < 10**9 * 2**30 < 2**64.
constexpr std::uint32_t kLimbBits = 30;
constexpr std::uint32_t kChunk = 1'000'000'000;  // 9 decimal digits per division pass

std::vector<std::uint32_t> to_limbs(const std::vector<std::uint16_t>& digits) {
  std::vector<std::uint32_t> limbs((digits.size() + 1) / 2, 0);
  for (std::size_t i = 0; i < digits.size(); ++i)
    limbs[i / 2] |= std::uint32_t(digits[i] & 0x7fff) << (15 * (i % 2));
  while (!limbs.empty() && limbs.back() == 0) limbs.pop_back();
  return limbs;
}

// Divides `limbs` (little-endian, base 2**30) in place by 10**9; returns the remainder.
std::uint32_t divide_chunk(std::vector<std::uint32_t>& limbs) {
  std::uint64_t rem = 0;
  for (std::size_t i = limbs.size(); i-- > 0;) {
    std::uint64_t cur = (rem << kLimbBits) | limbs[i];
    limbs[i] = std::uint32_t(cur / kChunk);
    rem = cur % kChunk;
  }
  while (!limbs.empty() && limbs.back() == 0) limbs.pop_back();
  return std::uint32_t(rem);
}

}  // namespace

namespace detail {

constinit std::atomic<const SharedObjects*> shared_objects{nullptr};

const SharedObjects& make_shared_objects() {
  static const SharedObjects objects = [] {
    SharedObjects out{make_object(NoneValue{}), make_object(BoolValue{true}),
                      make_object(BoolValue{false}), make_object(StopIterationValue{}),
                      make_object(EllipsisValue{}), {}};
    for (std::int64_t i = kSmallIntMin; i <= kSmallIntMax; ++i)
      out.small_ints[std::size_t(i - kSmallIntMin)] = make_object(IntValue{i, {}, i < 0});
    return out;
  }();
  shared_objects.store(&objects, std::memory_order_release);
  return objects;
}

}  // namespace detail

const char* Object::type_name() const noexcept {
  return std::visit([](const auto& v) { return name_of<std::decay_t<decltype(v)>>(); }, value);
}

std::string IntValue::to_decimal() const {
  if (is_small()) return std::to_string(small);

  // Schoolbook conversion: quadratic, fine for any constant real code holds.
  std::vector<std::uint32_t> limbs = to_limbs(digits);
  if (limbs.empty()) return "0";
  std::vector<std::uint32_t> chunks;  // base 10**9, least significant first
  while (!limbs.empty()) chunks.push_back(divide_chunk(limbs));

  std::string out = negative ? "-" : "";
  out += std::to_string(chunks.back());
  char buf[16];
  for (std::size_t i = chunks.size() - 1; i-- > 0;) {
    std::snprintf(buf, sizeof buf, "%09u", unsigned(chunks[i]));
    out += buf;
  }
  return out;
}

}  // namespace unveil
