// The symbolic value stack of lifting: what each slot of CPython's value stack
// holds while a block is executed symbolically.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ast/expr.h"
#include "ast/stmt.h"
#include "ast/type_param.h"
#include "read/code_object.h"

namespace unveil::lift {

// A function object under construction (MAKE_FUNCTION and what follows it).
struct FunctionValue {
  std::shared_ptr<const CodeObject> code;
  ast::ExprList defaults;                        // positional defaults
  std::vector<std::pair<std::string, ast::ExprPtr>> kwdefaults;
  std::vector<std::pair<std::string, ast::ExprPtr>> annotations;
  ast::ExprList decorators;                      // outermost first
  ast::TypeParamList type_params;                // 3.12+ `def f[T]` (INTRINSIC_SET_FUNCTION_TYPE_PARAMS)
  // 3.12+: a generic def, decompiled whole from its `<generic parameters of
  // f>` function (signature, body, type parameters); decorators and the
  // stored name are still the enclosing code's.
  ast::StmtPtr defined;

  // The name the def gives it (a generic def's own, else its code's).
  const std::string& name() const;
};

// `__build_class__(func, name, *bases, **kw)` before it is stored.
struct ClassValue {
  std::shared_ptr<FunctionValue> body;
  std::string name;
  ast::ExprList bases;
  std::vector<ast::Keyword> keywords;
  ast::ExprList decorators;
  ast::TypeParamList type_params;  // 3.12+ `class C[T]` (its implicit Generic[T] base is not in bases)
  ast::StmtPtr defined;            // a generic class decompiled whole (see FunctionValue::defined)
};

// 3.12+: the hidden function that builds a generic def, class or type
// alias's type parameters, `<generic parameters of name>`.
inline constexpr std::string_view kGenericPrefix = "<generic parameters of ";
inline bool is_generic_wrapper(const CodeObject& c) {
  return c.name.size() > kGenericPrefix.size() + 1 && c.name.starts_with(kGenericPrefix) && c.name.back() == '>';
}
// The name the wrapper's def, class or alias is stored under (before mangling).
inline std::string generic_target(const CodeObject& c) {
  return c.name.substr(kGenericPrefix.size(), c.name.size() - kGenericPrefix.size() - 1);
}

inline const std::string& FunctionValue::name() const {
  if (defined)
    if (auto* f = defined->as<ast::FunctionDef>()) return f->name;
  if (defined)
    if (auto* f = defined->as<ast::AsyncFunctionDef>()) return f->name;
  return code->name;
}

// Where a stored value goes when the store is part of a bigger target:
// unpacking, a for target, `with ... as`, `except ... as`.
struct Sink {
  virtual ~Sink() = default;
  // Receives the target of slot `index`; returns a statement when complete.
  virtual void put(std::size_t index, ast::ExprPtr target) = 0;
};

// IMPORT_NAME's result.
struct ImportValue {
  std::string module;
  int level = 0;
  bool from_import = false;  // fromlist is not None
  std::string attr_path;     // IMPORT_FROM/LOAD_ATTR chain on an import: `a.b.c` parts after the first
};

// The variable a value was stored in (Item::bound_to), or none. Rare, so
// held by pointer: half the size of a std::string in an item that is copied
// with every stack.
class BoundName {
 public:
  bool empty() const noexcept { return !name_; }
  void clear() noexcept { name_.reset(); }
  BoundName& operator=(const std::string& name) {
    name_ = std::make_shared<const std::string>(name);
    return *this;
  }
  operator const std::string&() const noexcept { return name_ ? *name_ : none(); }  // NOLINT: reads as the name
  friend bool operator==(const BoundName& a, const BoundName& b) noexcept {
    return static_cast<const std::string&>(a) == static_cast<const std::string&>(b);
  }
  friend bool operator==(const BoundName& a, const std::string& b) noexcept {
    return static_cast<const std::string&>(a) == b;
  }

 private:
  static const std::string& none() noexcept {
    static const std::string empty;
    return empty;
  }
  std::shared_ptr<const std::string> name_;
};

struct Item {
  enum class Kind {
    Value,       // an expression
    Null,        // NULL pushed for the call protocol (PUSH_NULL, LOAD_METHOD...)
    Marker,      // a value with no source form that is popped silently
    Iter,        // GET_ITER result; expr = the iterable
    AsyncIter,   // GET_AITER result; expr = the iterable
    Function,    // function
    Class,       // cls
    BuildClass,  // LOAD_BUILD_CLASS
    Import,      // IMPORT_NAME result; expr = Name(dotted module)
    Slot,        // a value whose store goes to `sink[index]`
    Exception,   // an exception pushed by a handler entry (structurer use)
    TypeParam,   // 3.12+ one type parameter (INTRINSIC_TYPEVAR...); `type_params` holds it
    TypeParams,  // 3.12+ the tuple of a generic's type parameters; `type_params`
    GenericBase, // 3.12+ a generic class's implicit base Generic[T...] (INTRINSIC_SUBSCRIPT_GENERIC)
  };
  Kind kind = Kind::Value;
  std::uint32_t index = 0;  // Slot: the sink's slot (next to kind: items are copied often)
  ast::ExprPtr expr;
  // Function: the function; Class: the class; Import: the import; TypeParam,
  // TypeParams, GenericBase: the type parameters (shared: items are copied
  // often, these rarely). One at most, so one member.
  const std::shared_ptr<FunctionValue>& function() const { return payload<FunctionValue>(); }
  const std::shared_ptr<ClassValue>& cls() const { return payload<ClassValue>(); }
  const std::shared_ptr<const ImportValue>& import() const { return payload<const ImportValue>(); }
  const std::shared_ptr<const ast::TypeParamList>& type_params() const { return payload<const ast::TypeParamList>(); }
  void set(std::shared_ptr<FunctionValue> f) { payload_ = std::move(f); }
  void set(std::shared_ptr<ClassValue> c) { payload_ = std::move(c); }
  void set(std::shared_ptr<const ImportValue> i) { payload_ = std::move(i); }
  void set(std::shared_ptr<const ast::TypeParamList> p) { payload_ = std::move(p); }
  std::shared_ptr<Sink> sink;
  // Value: a copy of it was stored in this variable (DUP + STORE), so the
  // variable names it from then on: `(x := v)` or, after other statements, `x`.
  BoundName bound_to;
  // Value: when it was computed (copies share it); spills keep this order.
  std::uint64_t seq = 0;

  static Item value(ast::ExprPtr e) {
    Item i;
    i.expr = std::move(e);
    return i;
  }
  static Item of(Kind k, ast::ExprPtr e = nullptr) {
    Item i;
    i.kind = k;
    i.expr = std::move(e);
    return i;
  }

 private:
  template <class T>
  const std::shared_ptr<T>& payload() const {
    static const std::shared_ptr<T> none;
    auto* p = std::get_if<std::shared_ptr<T>>(&payload_);
    return p ? *p : none;
  }
  std::variant<std::monostate, std::shared_ptr<FunctionValue>, std::shared_ptr<ClassValue>,
               std::shared_ptr<const ImportValue>, std::shared_ptr<const ast::TypeParamList>>
      payload_;
};

using Stack = std::vector<Item>;

}  // namespace unveil::lift
