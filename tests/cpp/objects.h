// Python objects (None, numbers, strings, tuples, code) as constants of hand-built code objects.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "read/code_object.h"
#include "read/object.h"

namespace unveil::testing {

inline ObjectRef none() { return make_object(NoneValue{}); }
inline ObjectRef boolean(bool v) { return make_object(BoolValue{v}); }
// An int held in IntValue::small (digits empty, negative left false).
inline ObjectRef integer(std::int64_t v) {
  IntValue value;
  value.small = v;
  return make_object(std::move(value));
}
inline ObjectRef real(double v) { return make_object(FloatValue{v}); }
inline ObjectRef text(std::string s) { return make_object(StrValue{std::move(s)}); }
inline ObjectRef binary(std::string s) { return make_object(BytesValue{std::move(s)}); }
inline ObjectRef tuple(std::vector<ObjectRef> items) { return make_object(TupleValue{std::move(items)}); }
inline ObjectRef code_const(std::shared_ptr<const CodeObject> c) { return make_object(CodeValue{std::move(c)}); }

}  // namespace unveil::testing
