// The object model: what a marshal stream (or a live code object) holds.
//
// Objects are immutable and shared (marshal back-references make the stream a
// DAG), so they live behind std::shared_ptr<const Object>. Values are plain
// data; nothing here knows about Python's C API.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace unveil {

struct Object;
struct CodeObject;
using ObjectRef = std::shared_ptr<const Object>;

struct NoneValue {};
struct EllipsisValue {};
struct StopIterationValue {};  // marshal 'S': the StopIteration class itself
struct NullValue {};           // marshal '0': only valid as a dict terminator

struct BoolValue {
  bool value;
};

// Arbitrary-precision integer. `small` holds it when it fits in 64 bits;
// otherwise `digits` holds the magnitude in base 2**15, least significant first
// (marshal's own representation), and `negative` the sign.
struct IntValue {
  std::int64_t small = 0;
  std::vector<std::uint16_t> digits;  // empty when the value is `small`
  bool negative = false;

  bool is_small() const noexcept { return digits.empty(); }
  std::string to_decimal() const;
};

struct FloatValue {
  double value;
};
struct ComplexValue {
  double real;
  double imag;
};
struct BytesValue {
  std::string data;
};
// Text, stored as UTF-8. Lone surrogates (allowed by marshal's
// "surrogatepass") are kept as their 3-byte encodings.
struct StrValue {
  std::string utf8;
};

struct TupleValue {
  std::vector<ObjectRef> items;
};
struct ListValue {
  std::vector<ObjectRef> items;
};
struct SetValue {
  std::vector<ObjectRef> items;
};
struct FrozenSetValue {
  std::vector<ObjectRef> items;
};
struct DictValue {
  std::vector<std::pair<ObjectRef, ObjectRef>> items;
};
struct SliceValue {  // marshal version 5 (3.14)
  ObjectRef start, stop, step;
};

// A constant that marshal cannot hold (a class, a dtype, a function...), as
// found in Dynamo-generated code. `name` says what it is; `index` lets the
// caller bind the real object back.
struct PlaceholderValue {
  std::string name;
  std::size_t index = 0;
};

struct CodeValue {
  std::shared_ptr<const CodeObject> code;
};

struct Object {
  std::variant<NoneValue, EllipsisValue, StopIterationValue, NullValue, BoolValue, IntValue,
               FloatValue, ComplexValue, BytesValue, StrValue, TupleValue, ListValue, SetValue,
               FrozenSetValue, DictValue, SliceValue, PlaceholderValue, CodeValue>
      value;

  template <class T>
  const T* as() const noexcept {
    return std::get_if<T>(&value);
  }
  template <class T>
  bool is() const noexcept {
    return std::holds_alternative<T>(value);
  }
  // Short type name for messages ("tuple", "code", ...).
  const char* type_name() const noexcept;
};

template <class T>
ObjectRef make_object(T value) {
  return std::make_shared<const Object>(Object{std::move(value)});
}

// Small ints, in the range CPython caches too.
inline constexpr std::int64_t kSmallIntMin = -5, kSmallIntMax = 256;

// Objects every code object holds, made once and shared by every reader:
// immutable, so sharing them is safe, and it spares an allocation (and a
// free) per occurrence.
struct SharedObjects {
  ObjectRef none, yes, no, stop_iteration, ellipsis;
  std::array<ObjectRef, kSmallIntMax - kSmallIntMin + 1> small_ints;  // from kSmallIntMin
};

namespace detail {
// Set once they are made. (Constant-initialized: safe to read at any time.)
extern std::atomic<const SharedObjects*> shared_objects;
const SharedObjects& make_shared_objects();
}  // namespace detail

// Inline, a load and a test: readers ask for these once per constant (a
// function-local static costs a call and its prologue each time).
inline const SharedObjects& shared_objects() {
  if (const SharedObjects* made = detail::shared_objects.load(std::memory_order_acquire)) [[likely]]
    return *made;
  return detail::make_shared_objects();
}
inline const ObjectRef& none_object() { return shared_objects().none; }
inline const ObjectRef& bool_object(bool value) {
  return value ? shared_objects().yes : shared_objects().no;
}
inline const ObjectRef& stop_iteration_object() { return shared_objects().stop_iteration; }
inline const ObjectRef& ellipsis_object() { return shared_objects().ellipsis; }
// The shared int `v`, for kSmallIntMin <= v <= kSmallIntMax.
inline const ObjectRef& small_int_object(std::int64_t v) {
  return shared_objects().small_ints[std::size_t(v - kSmallIntMin)];
}

}  // namespace unveil
