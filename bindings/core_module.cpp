// unveil._core: the thin nanobind layer over the C++ core.
//
// It only converts: bytes in, Python objects out, and unveil::Error into the
// typed exceptions of unveil.errors. All reading and decoding is in core/.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

// PyMarshal_WriteObjectToString: Python.h leaves marshal.h out.
#include <marshal.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>
#include <span>
#include <string_view>
#include <string>
#include <utility>
#include <vector>

#include "decode/argument.h"
#include "decode/decode.h"
#include "decompile/decompile.h"
#include "disasm/disassemble.h"
#include "read/code_layout.h"
#include "read/marshal.h"
#include "read/pyc.h"
#include "support/error.h"
#include "support/tls.h"

namespace nb = nanobind;
using namespace unveil;

namespace {

// A code constant as seen from Python: enough to identify it.
struct CodeRef {
  std::string name, qualname, filename;
  int firstlineno;
};
// A constant that marshal could not hold, as substituted by unveil._live.
struct PlaceholderRef {
  std::string name;
  std::size_t index;
};

std::span<const std::uint8_t> as_span(const nb::bytes& data) {
  return {static_cast<const std::uint8_t*>(data.data()), data.size()};
}

const VersionTraits& version_or_throw(int minor) {
  if (const VersionTraits* v = find_version(minor)) return *v;
  throw Error(ErrorKind::Unsupported,
              "Python 3." + std::to_string(minor) + " is not supported (3.8–3.14 are)");
}

nb::object to_python(const ObjectRef& ref);

template <class Items>
nb::list to_list(const Items& items) {
  nb::list out;
  for (const ObjectRef& item : items) out.append(to_python(item));
  return out;
}

nb::object int_to_python(const IntValue& v) {
  if (v.is_small()) return nb::steal(PyLong_FromLongLong(v.small));
  std::string text = v.to_decimal();
  return nb::steal(PyLong_FromString(text.c_str(), nullptr, 10));
}

nb::object to_python(const ObjectRef& ref) {
  if (!ref) return nb::none();
  const Object& o = *ref;
  return std::visit(
      [&](const auto& v) -> nb::object {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, NoneValue> || std::is_same_v<T, NullValue>) {
          return nb::none();
        } else if constexpr (std::is_same_v<T, EllipsisValue>) {
          return nb::borrow(Py_Ellipsis);
        } else if constexpr (std::is_same_v<T, StopIterationValue>) {
          return nb::borrow(PyExc_StopIteration);
        } else if constexpr (std::is_same_v<T, BoolValue>) {
          return nb::bool_(v.value);
        } else if constexpr (std::is_same_v<T, IntValue>) {
          return int_to_python(v);
        } else if constexpr (std::is_same_v<T, FloatValue>) {
          return nb::float_(v.value);
        } else if constexpr (std::is_same_v<T, ComplexValue>) {
          return nb::steal(PyComplex_FromDoubles(v.real, v.imag));
        } else if constexpr (std::is_same_v<T, BytesValue>) {
          return nb::bytes(v.data.data(), v.data.size());
        } else if constexpr (std::is_same_v<T, StrValue>) {
          PyObject* s = PyUnicode_DecodeUTF8(v.utf8.data(), Py_ssize_t(v.utf8.size()),
                                             "surrogatepass");
          if (!s) throw nb::python_error();
          return nb::steal(s);
        } else if constexpr (std::is_same_v<T, TupleValue>) {
          return nb::tuple(to_list(v.items));
        } else if constexpr (std::is_same_v<T, ListValue>) {
          return to_list(v.items);
        } else if constexpr (std::is_same_v<T, SetValue>) {
          return nb::steal(PySet_New(to_list(v.items).ptr()));
        } else if constexpr (std::is_same_v<T, FrozenSetValue>) {
          return nb::steal(PyFrozenSet_New(to_list(v.items).ptr()));
        } else if constexpr (std::is_same_v<T, DictValue>) {
          nb::dict d;
          for (const auto& [key, value] : v.items) d[to_python(key)] = to_python(value);
          return d;
        } else if constexpr (std::is_same_v<T, SliceValue>) {
          return nb::steal(PySlice_New(to_python(v.start).ptr(), to_python(v.stop).ptr(),
                                       to_python(v.step).ptr()));
        } else if constexpr (std::is_same_v<T, PlaceholderValue>) {
          return nb::cast(PlaceholderRef{v.name, v.index});
        } else {
          static_assert(std::is_same_v<T, CodeValue>);
          const CodeObject& c = *v.code;
          return nb::cast(CodeRef{c.name, c.qualname, c.filename, c.firstlineno});
        }
      },
      o.value);
}

// Names and strings are valid UTF-8 (lone surrogates allowed) once the
// reader accepted them; messages may quote raw input, so never fail on them.
nb::str utf8_str(std::string_view s) {
  PyObject* o = PyUnicode_DecodeUTF8(s.data(), Py_ssize_t(s.size()), "surrogatepass");
  if (!o) {
    PyErr_Clear();
    o = PyUnicode_DecodeUTF8(s.data(), Py_ssize_t(s.size()), "backslashreplace");
    if (!o) throw nb::python_error();
  }
  return nb::steal<nb::str>(o);
}

// Whether every byte of `s` is ASCII: the bytes are or-ed together a word
// (or a vector register) at a time, and the high bits tested once.
bool all_ascii(std::string_view s) {
  constexpr std::uint64_t kHigh = 0x8080808080808080u;
  const char* p = s.data();
  std::size_t n = s.size();
  auto load = [](const char* at, auto w) {
    std::memcpy(&w, at, sizeof w);
    return w;
  };
  std::uint64_t bits = 0;
#if defined(__GNUC__) || defined(__clang__)
  using Wide = std::uint64_t __attribute__((vector_size(16)));
  Wide wide{};
  for (; n >= 64; p += 64, n -= 64)
    wide |= load(p, Wide{}) | load(p + 16, Wide{}) | load(p + 32, Wide{}) | load(p + 48, Wide{});
  bits = wide[0] | wide[1];
#endif
  auto word = [&](const char* at) { return load(at, std::uint64_t{}); };
  for (; n >= 32; p += 32, n -= 32) bits |= word(p) | word(p + 8) | word(p + 16) | word(p + 24);
  for (; n >= 8; p += 8, n -= 8) bits |= word(p);
  for (; n > 0; ++p, --n) bits |= std::uint8_t(*p);
  return (bits & kHigh) == 0;
}

// The decompiled source as a str. Source is nearly always ASCII: then the str
// is made at its size and filled with one copy, where decoding it as UTF-8
// (what casting a std::string does) costs a few instructions per byte.
nb::object source_str(const std::string& text) {
  if (!all_ascii(text)) return nb::cast(text);
  PyObject* s = PyUnicode_New(Py_ssize_t(text.size()), 127);
  if (!s) throw nb::python_error();
  std::memcpy(PyUnicode_DATA(s), text.data(), text.size());
  return nb::steal(s);
}

// What `dis` calls argval, in Python terms.
nb::object argval_to_python(const ResolvedArg& arg) {
  switch (arg.kind) {
    case ArgKind::None: return nb::none();
    case ArgKind::Const: return to_python(arg.constant);
    case ArgKind::Name:
    case ArgKind::NameShift1:
    case ArgKind::NameShift2:
    case ArgKind::Local:
    case ArgKind::Free:
    case ArgKind::Compare:
    case ArgKind::CommonConstant:
    case ArgKind::SpecialMethod:
      return utf8_str(arg.text);
    case ArgKind::LocalPair: return nb::make_tuple(utf8_str(arg.text), utf8_str(arg.second));
    case ArgKind::FormatValue: return nb::make_tuple(utf8_str(arg.text), arg.has_format_spec);
    case ArgKind::ConvertValue: return utf8_str(arg.text);
    default: return nb::int_(arg.number);
  }
}

nb::object optional_int(const std::optional<int>& v) {
  return v ? nb::object(nb::int_(*v)) : nb::none();
}

nb::dict decoded_to_python(const DecodedCode& decoded, const std::string& path) {
  const CodeObject& c = *decoded.code;
  nb::list instructions;
  for (const Instruction& ins : decoded.instructions) {
    ResolvedArg arg = resolve_argument(decoded, ins);
    instructions.append(nb::make_tuple(ins.offset, ins.start_offset, ins.opcode,
                                       std::string(ins.name()),
                                       ins.info->has_arg() ? nb::object(nb::int_(ins.arg))
                                                           : nb::none(),
                                       argval_to_python(arg)));
  }
  nb::list lines;
  for (const LineRange& r : decoded.lines)
    lines.append(nb::make_tuple(r.start, r.end, optional_int(r.line)));
  nb::list positions;
  for (const Position& p : decoded.positions)
    positions.append(nb::make_tuple(optional_int(p.line), optional_int(p.end_line),
                                    optional_int(p.column), optional_int(p.end_column)));
  nb::list table;
  for (const ExceptionTableEntry& e : decoded.exception_table)
    // Exclusive end, as dis._parse_exception_table gives it.
    table.append(nb::make_tuple(e.start, e.end + 2, e.target, e.depth, e.lasti));
  nb::dict out;
  out["path"] = utf8_str(path);
  out["name"] = utf8_str(c.name);
  out["qualname"] = utf8_str(c.qualname);
  out["firstlineno"] = c.firstlineno;
  out["instructions"] = instructions;
  out["lines"] = lines;
  out["positions"] = positions;
  out["exception_table"] = table;
  return out;
}

// Decodes `code` and its nested code objects, depth first in co_consts order.
void decode_tree(const std::shared_ptr<const CodeObject>& code, const VersionTraits& version,
                 const std::string& path, nb::list& out) {
  out.append(decoded_to_python(decode(code, version), path));
  int index = 0;
  for (const ObjectRef& constant : code->consts) {
    if (const auto* nested = constant->as<CodeValue>())
      decode_tree(nested->code, version, path + "/" + std::to_string(index) + ":" + nested->code->name,
                  out);
    ++index;
  }
}

struct LoadedCode {
  std::shared_ptr<const CodeObject> code;
  const VersionTraits* version;
};

LoadedCode load_marshal(const nb::bytes& data, int minor, const std::string& prefix,
                        const std::vector<std::string>& names) {
  const VersionTraits& version = version_or_throw(minor);
  MarshalOptions options;
  options.placeholder_prefix = prefix;
  options.placeholder_names = names;
  ObjectRef object = read_marshal(as_span(data), version, options);
  const auto* code = object->as<CodeValue>();
  if (!code)
    throw Error(ErrorKind::CodeObject,
                std::string("expected a code object, found ") + object->type_name(), 0);
  return {code->code, &version};
}

LoadedCode load_pyc(const nb::bytes& data) {
  PycFile file = read_pyc(as_span(data));
  return {file.module->as<CodeValue>()->code, file.header.version};
}

std::string disassemble_loaded(const LoadedCode& loaded, bool recursive, bool show_caches) {
  DisasmOptions options;
  options.recursive = recursive;
  options.show_caches = show_caches;
  return disassemble(decode(loaded.code, *loaded.version), options);
}

nb::list decode_loaded(const LoadedCode& loaded) {
  nb::list out;
  decode_tree(loaded.code, *loaded.version, loaded.code->name, out);
  return out;
}

// Reads and decodes a code tree, resolving every argument, without building
// Python objects: what the speed benchmark times.
void count_tree(const std::shared_ptr<const CodeObject>& code, const VersionTraits& version,
                std::size_t& code_objects, std::size_t& instructions) {
  DecodedCode decoded = decode(code, version);
  for (const Instruction& ins : decoded.instructions) (void)resolve_argument(decoded, ins);
  ++code_objects;
  instructions += decoded.instructions.size();
  for (const ObjectRef& constant : code->consts)
    if (const auto* nested = constant->as<CodeValue>())
      count_tree(nested->code, version, code_objects, instructions);
}

// Code objects of earlier calls, kept with their buffers. A call's tree is
// dropped whole when the call ends; the next call's code objects overwrite
// a kept one's strings and vectors instead of allocating their own (some ten
// allocations and frees per code object, most of the reading's cost for a
// small function). Per thread; bounded in count and in what each keeps.
class CodePool {
 public:
  std::shared_ptr<CodeObject> take() {
    if (free_.empty()) return std::make_shared<CodeObject>();
    std::shared_ptr<CodeObject> code = std::move(free_.back());
    free_.pop_back();
    return code;
  }

  // Keeps `code` and the code objects nested in it, those that nothing but
  // the tree holds (a caller may keep any part of it: then that part stays).
  // Every code object of a tree LiveReader read came from take(), so none is
  // a const object.
  void give_back(std::shared_ptr<const CodeObject> code) noexcept {
    if (code.use_count() != 1) return;
    auto& co = const_cast<CodeObject&>(*code);
    // Take the nested ones out before their constants go (they hold them).
    std::vector<std::shared_ptr<const CodeObject>> nested;
    try {
      for (const ObjectRef& constant : co.consts)
        if (constant.use_count() == 1)
          if (const auto* value = constant->as<CodeValue>()) nested.push_back(value->code);
    } catch (const std::bad_alloc&) {  // the nested ones are freed with their constants
    }
    co.consts.clear();
    for (auto& n : nested) give_back(std::move(n));
    if (free_.size() >= kKept || footprint(co) > kKeptBytes) return;
    try {
      free_.push_back(std::const_pointer_cast<CodeObject>(std::move(code)));
    } catch (const std::bad_alloc&) {  // not kept
    }
  }

 private:
  static constexpr std::size_t kKept = 32;
  static constexpr std::size_t kKeptBytes = 32 * 1024;

  // Roughly the memory a kept code object holds on to.
  static std::size_t footprint(const CodeObject& co) {
    std::size_t bytes = co.code.capacity() + co.linetable.capacity() +
                        co.exceptiontable.capacity() + co.localspluskinds.capacity() +
                        co.consts.capacity() * sizeof(ObjectRef);
    for (const auto* names :
         {&co.names, &co.varnames, &co.cellvars, &co.freevars, &co.localsplusnames})
      bytes += names->capacity() * sizeof(std::string_view);
    return bytes;
  }

  std::vector<std::shared_ptr<CodeObject>> free_;
};

// Gives a tree back to this thread's pool when the call is done with it
// (or fails).
class PoolReturn {
 public:
  explicit PoolReturn(std::shared_ptr<const CodeObject>& tree) : tree_(tree) {}
  ~PoolReturn() { per_thread<CodePool>().give_back(std::move(tree_)); }
  PoolReturn(const PoolReturn&) = delete;
  PoolReturn& operator=(const PoolReturn&) = delete;

 private:
  std::shared_ptr<const CodeObject>& tree_;
};

// Memory for the constants LiveReader makes. Each is one block of one size
// (a shared_ptr control block with its Object), and a call makes and drops
// them by the dozen: a per-thread list of freed blocks serves the next ones
// (malloc and free cost some 250 instructions a pair here, more than reading
// most constants). A block may be freed on any thread, or after its thread's
// list has gone: it is plain operator new memory.
class ObjectBlocks {
 public:
  ~ObjectBlocks() {
    gone_ = true;
    while (head_) ::operator delete(std::exchange(head_, head_->next), size_);
  }

  static void* take(std::size_t bytes) {
    if (!gone_) {
      ObjectBlocks& b = per_thread<ObjectBlocks>();
      if (b.head_ && bytes == b.size_) {
        --b.count_;
        return std::exchange(b.head_, b.head_->next);
      }
    }
    return ::operator new(bytes);
  }
  static void give(void* p, std::size_t bytes) noexcept {
    if (!gone_ && bytes >= sizeof(Block)) {
      ObjectBlocks& b = per_thread<ObjectBlocks>();
      if (b.size_ == 0) b.size_ = bytes;  // (one size: the one type allocate_shared makes)
      if (bytes == b.size_ && b.count_ < kKept) {
        b.head_ = ::new (p) Block{b.head_};
        ++b.count_;
        return;
      }
    }
    ::operator delete(p, bytes);
  }

 private:
  struct Block {
    Block* next;
  };
  static constexpr std::size_t kKept = 1024;
  // Read after the list itself is destroyed (a constant freed late in thread exit).
  static thread_local bool gone_ UNVEIL_FAST_TLS;
  Block* head_ = nullptr;
  std::size_t size_ = 0;
  std::size_t count_ = 0;
};
thread_local bool ObjectBlocks::gone_ UNVEIL_FAST_TLS = false;

template <class T>
struct ObjectAllocator {
  using value_type = T;
  ObjectAllocator() = default;
  template <class U>
  ObjectAllocator(const ObjectAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) { return static_cast<T*>(ObjectBlocks::take(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) noexcept { ObjectBlocks::give(p, n * sizeof(T)); }
  // An Object whose value is built in its place from the alternative's own
  // arguments (allocate_shared passes them here): no Object, and no variant,
  // to move in and destroy after.
  template <class U, class V, class... Args>
  void construct(U* p, std::in_place_type_t<V> type, Args&&... args) {
    ::new (const_cast<void*>(static_cast<const volatile void*>(p)))
        U{decltype(Object::value)(type, std::forward<Args>(args)...)};
  }
  template <class U>
  bool operator==(const ObjectAllocator<U>&) const noexcept {
    return true;
  }
};

// Text that becomes a std::string where it is to be stored: as an argument
// of pooled_object, the value's string is made in place (copy-initializing
// it from this calls the conversion and elides the move).
struct TextCopy {
  std::string_view text;
  operator std::string() const { return std::string(text); }
};

// make_object of a T made from `args`, with the block from ObjectBlocks.
template <class T, class... Args>
ObjectRef pooled_object(Args&&... args) {
  return std::allocate_shared<const Object>(ObjectAllocator<Object>{}, std::in_place_type<T>,
                                            std::forward<Args>(args)...);
}

// A live object in the core's object model, read from the interpreter's own
// fields instead of marshal bytes: what the marshal reader would build from
// marshal.dumps of it, for the values code objects hold. Anything this cannot
// build exactly like that throws NotConvertible and the caller marshals
// instead: ints beyond 64 bits, sets and frozensets (marshal writes 3.11+ sets
// in its own sorted order), strs with lone surrogates, deep nesting, and
// (unless placeholders are on) every value marshal would refuse.
//
// With placeholders on, a value marshal refuses (Dynamo's classes, dtypes,
// functions; a class in an annotation) becomes the PlaceholderValue that
// unveil._live's substitution gives it, named by unveil._live.describe, in
// the same order: that path marshals the whole code three times and walks it
// in Python, which cost Dynamo's code more than decompiling it.
struct NotConvertible {};

// `out` = `text`, keeping the buffer a pooled code object's string left.
// assign() takes the general replace path (aliasing checks: some 70
// instructions for a short text); emptying and appending costs a fraction.
void overwrite(std::string& out, std::string_view text) {
  out.clear();
  out.append(text.data(), text.size());
}

class LiveReader {
 public:
  // `placeholders`: make them, else throw NotConvertible for every value marshal refuses.
  LiveReader(const VersionTraits& version, bool placeholders)
      : version_(version), placeholders_(placeholders) {}

  ObjectRef object(PyObject* o) {
    // None, bools and small ints are the marshal reader's shared objects.
    if (o == Py_None) return none_object();
    if (PyUnicode_CheckExact(o)) return pooled_object<StrValue>(TextCopy{utf8(o)});
    if (PyLong_CheckExact(o)) {
      int overflow = 0;
      const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
      if (overflow || (v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        throw NotConvertible{};
      }
      if (v >= kSmallIntMin && v <= kSmallIntMax) return small_int_object(v);
      return pooled_object<IntValue>(v, std::vector<std::uint16_t>(), v < 0);
    }
    if (PyTuple_CheckExact(o)) return pooled_object<TupleValue>(items(o));
    if (PyCode_Check(o)) return pooled_object<CodeValue>(code(reinterpret_cast<PyCodeObject*>(o)));
    if (PyBytes_CheckExact(o)) return pooled_object<BytesValue>(TextCopy{bytes(o)});
    if (PyBool_Check(o)) return bool_object(o == Py_True);
    if (PyFloat_CheckExact(o)) return pooled_object<FloatValue>(PyFloat_AS_DOUBLE(o));
    if (PyComplex_CheckExact(o))
      return pooled_object<ComplexValue>(PyComplex_RealAsDouble(o), PyComplex_ImagAsDouble(o));
    if (o == Py_Ellipsis) return ellipsis_object();
    if (o == PyExc_StopIteration) return stop_iteration_object();
    // The substitution replaces a list or dict that marshal refuses whole,
    // never an item inside it (only tuples are walked into).
    if (PyList_CheckExact(o))
      return placeholders_ && !marshallable(o) ? placeholder(o) : pooled_object<ListValue>(items(o));
    if (PyDict_CheckExact(o)) return placeholders_ && !marshallable(o) ? placeholder(o) : dict(o);
    if (placeholders_ && !marshallable(o)) return placeholder(o);
    throw NotConvertible{};
  }

  // A dict whose values are substituted one by one (a function's keyword-only
  // defaults and annotations, as unveil._live.marshal_function does).
  ObjectRef dict(PyObject* o) {
    Nested nested(depth_);
    DictValue d;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(o, &pos, &key, &value)) d.items.emplace_back(object(key), object(value));
    return pooled_object<DictValue>(std::move(d));
  }

  // The fields marshal writes for this version, through the reader's own
  // checks; names and bytes go straight into the code object's strings.
  std::shared_ptr<const CodeObject> code(PyCodeObject* c) {
    Nested nested(depth_);
    detail::RawCounts raw;
    auto int_field = [](int v) { return detail::RawIntField{std::int32_t(v), 0}; };
    raw.argcount = int_field(c->co_argcount);
    raw.posonlyargcount = int_field(c->co_posonlyargcount);
    raw.kwonlyargcount = int_field(c->co_kwonlyargcount);
    raw.stacksize = int_field(c->co_stacksize);
    raw.flags = int_field(c->co_flags);
    raw.firstlineno = int_field(c->co_firstlineno);
    // A pooled code object's fields are all written over below (its
    // strings and vectors keep their buffers); a fresh one's are empty.
    std::shared_ptr<CodeObject> made = per_thread<CodePool>().take();
    CodeObject& co = *made;
    if (!PyTuple_CheckExact(c->co_consts)) throw NotConvertible{};
    read_items(co.consts, c->co_consts);
    assign_strs(co.names, c->co_names);
    overwrite(co.filename, text_view(c->co_filename));
    overwrite(co.name, text_view(c->co_name));
#if PY_VERSION_HEX >= 0x030B0000
    // co_code as marshal writes it: without the interpreter's specialisations.
    nb::object code_bytes = nb::steal(PyCode_GetCode(c));
    if (!code_bytes.is_valid()) throw nb::python_error();
    assign_bytes(co.code, code_bytes.ptr());
    assign_strs(co.localsplusnames, c->co_localsplusnames);
    if (!PyBytes_CheckExact(c->co_localspluskinds)) throw NotConvertible{};
    const auto* kinds = reinterpret_cast<const std::uint8_t*>(PyBytes_AS_STRING(c->co_localspluskinds));
    co.localspluskinds.assign(kinds, kinds + PyBytes_GET_SIZE(c->co_localspluskinds));
    overwrite(co.qualname, text_view(c->co_qualname));
    assign_bytes(co.linetable, c->co_linetable);
    assign_bytes(co.exceptiontable, c->co_exceptiontable);
#else
    assign_bytes(co.code, c->co_code);
    raw.nlocals = int_field(c->co_nlocals);
    assign_strs(co.varnames, c->co_varnames);
    assign_strs(co.freevars, c->co_freevars);
    assign_strs(co.cellvars, c->co_cellvars);
#if PY_VERSION_HEX >= 0x030A0000
    assign_bytes(co.linetable, c->co_linetable);
#else
    assign_bytes(co.linetable, c->co_lnotab);
#endif
    co.exceptiontable.clear();
#endif
    co.name_text.clear();  // (the live strs hold the names' text)
    detail::complete_code_object(co, raw, version_);
    return made;
  }

 private:
  // unveil._live._can_marshal, through the C API.
  static bool marshallable(PyObject* o) {
    PyObject* data = PyMarshal_WriteObjectToString(o, Py_MARSHAL_VERSION);
    if (data) {
      Py_DECREF(data);
      return true;
    }
    if (!PyErr_ExceptionMatches(PyExc_ValueError)) throw nb::python_error();
    PyErr_Clear();
    return false;
  }

  ObjectRef placeholder(PyObject* o) {
    nb::object name = nb::module_::import_("unveil._live").attr("describe")(nb::handle(o));
    return pooled_object<PlaceholderValue>(nb::cast<std::string>(name), placeholder_count_++);
  }

  // Keeps within the marshal reader's nesting limit (MarshalOptions::max_depth)
  // with room to spare: deeper values take the marshal path and its error.
  class Nested {
   public:
    explicit Nested(int& depth) : depth_(depth) {
      if (++depth_ > 200) {
        --depth_;
        throw NotConvertible{};
      }
    }
    ~Nested() { --depth_; }
    Nested(const Nested&) = delete;
    Nested& operator=(const Nested&) = delete;

   private:
    int& depth_;
  };

  // The UTF-8 of a str, borrowed from the str (which keeps what
  // PyUnicode_AsUTF8AndSize makes as long as it lives). A compact ASCII str
  // is its own UTF-8, right after its header (names almost always are): no
  // call for those, and one test of the header (PyUnicode_DATA tests again).
  static std::string_view utf8(PyObject* s) {
    const auto* head = reinterpret_cast<const PyASCIIObject*>(s);
    if (head->state.compact && head->state.ascii) [[likely]]
      return {reinterpret_cast<const char*>(head + 1), std::size_t(head->length)};
    Py_ssize_t size = 0;
    const char* data = PyUnicode_AsUTF8AndSize(s, &size);
    if (!data) {  // a lone surrogate: marshal's "surrogatepass" is the reader's business
      PyErr_Clear();
      throw NotConvertible{};
    }
    return {data, std::size_t(size)};
  }
  static std::string_view bytes(PyObject* b) {
    return {PyBytes_AS_STRING(b), std::size_t(PyBytes_GET_SIZE(b))};
  }
  // A code object's str and bytes fields; anything else (not seen in a real
  // code object) takes the marshal path. They are written over what a pooled
  // code object left, keeping its buffers.
  static void assign_bytes(std::string& out, PyObject* b) {
    if (!PyBytes_CheckExact(b)) throw NotConvertible{};
    overwrite(out, {PyBytes_AS_STRING(b), std::size_t(PyBytes_GET_SIZE(b))});
  }
  static std::string_view text_view(PyObject* s) {
    if (!PyUnicode_CheckExact(s)) throw NotConvertible{};
    return utf8(s);
  }
  // Views of a tuple of str, over what a pooled code object left. The strs
  // are the live code object's, which the caller holds for the whole call.
  static void assign_strs(NameList& out, PyObject* tuple) {
    if (!PyTuple_CheckExact(tuple)) throw NotConvertible{};
    const std::size_t n = std::size_t(PyTuple_GET_SIZE(tuple));
    out.resize(n);
    PyObject* const* items = reinterpret_cast<PyTupleObject*>(tuple)->ob_item;
    // (Through a pointer of its own: out[i] read the vector's data pointer
    // again at every name, as a store through it might have changed it.)
    std::string_view* names = out.data();
    // (Unrolled: the loop's own test and step were 3 of some 14 instructions a name.)
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 4
#endif
    for (std::size_t i = 0; i < n; ++i) names[i] = text_view(items[i]);
  }
  // The items of a tuple or list, into `out` (emptied first).
  void read_items(std::vector<ObjectRef>& out, PyObject* sequence) {
    Nested nested(depth_);
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(sequence);
    PyObject** items = PySequence_Fast_ITEMS(sequence);
    out.clear();
    out.reserve(std::size_t(n));
    for (Py_ssize_t i = 0; i < n; ++i) out.push_back(object(items[i]));
  }
  std::vector<ObjectRef> items(PyObject* sequence) {
    std::vector<ObjectRef> out;
    read_items(out, sequence);
    return out;
  }

  const VersionTraits& version_;
  const bool placeholders_;
  std::size_t placeholder_count_ = 0;  // the next placeholder's index
  int depth_ = 0;
};

// str.isidentifier(): for the all-ASCII names of nearly every code object
// checked here directly (its XID classes are, in ASCII, letters and `_` to
// start and also digits after), as the interpreter's per-character Unicode
// lookups cost more than the rest of the call's Python-side work.
int is_identifier(PyObject* s) {
#if PY_VERSION_HEX < 0x030C0000
  const bool ready = PyUnicode_Check(s) && PyUnicode_IS_READY(s);
#else
  const bool ready = PyUnicode_Check(s);  // (every str is, from 3.12 on)
#endif
  if (!ready || !PyUnicode_IS_ASCII(s)) return PyUnicode_IsIdentifier(s);
  const std::string_view name(reinterpret_cast<const char*>(PyUnicode_1BYTE_DATA(s)),
                              std::size_t(PyUnicode_GET_LENGTH(s)));
  auto start = [](char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_'; };
  if (name.empty() || !start(name.front())) return 0;
  return std::all_of(name.begin() + 1, name.end(),
                     [&](char ch) { return start(ch) || (ch >= '0' && ch <= '9'); });
}

// unveil.decompile of a live code object in one call: the same marshal bytes
// unveil._live writes (`code`, or `(code, defaults, kwdefaults, annotations)`
// for a def), made with the C API so that the common case spends no time in
// Python-level wrappers. Values marshal refuses (Dynamo's classes, dtypes...)
// become placeholders when `placeholders` is set; else, or when such a value
// sits beside one only marshal can write (a set, a big int), the result is
// None and the Python side substitutes them.
nb::object decompile_live(nb::handle code, nb::handle fn, bool placeholders) {
  if (!PyCode_Check(code.ptr())) throw nb::type_error("decompile_live: expected a code object");
  auto* c = reinterpret_cast<PyCodeObject*>(code.ptr());
  // unveil._live.is_function_code: CO_OPTIMIZED and an identifier for a name.
  const int identifier = is_identifier(c->co_name);
  if (identifier < 0) throw nb::python_error();
  const bool function = (c->co_flags & CO_OPTIMIZED) && identifier;

  // This interpreter's version, looked up once.
  static const VersionTraits& version = version_or_throw(PY_MINOR_VERSION);
  nb::object defaults = nb::none(), kwdefaults = nb::none(), annotations = nb::none();
  if (function) {
    // unveil._live.marshal_function: fn's defaults and annotations count
    // only when fn is the function of this very code object.
    if (PyFunction_Check(fn.ptr()) && PyFunction_GET_CODE(fn.ptr()) == code.ptr()) {
      if (PyObject* d = PyFunction_GET_DEFAULTS(fn.ptr())) defaults = nb::borrow(d);
      if (PyObject* k = PyFunction_GET_KW_DEFAULTS(fn.ptr())) kwdefaults = nb::borrow(k);
      // dict(fn.__annotations__) or None; a failing (3.14: lazily evaluated) one counts as none.
      PyObject* ann = PyObject_GetAttrString(fn.ptr(), "__annotations__");
      PyObject* dict_type = reinterpret_cast<PyObject*>(&PyDict_Type);
      PyObject* copy = ann ? PyObject_CallFunctionObjArgs(dict_type, ann, nullptr) : nullptr;
      Py_XDECREF(ann);
      if (!copy) {
        if (!PyErr_ExceptionMatches(PyExc_Exception)) throw nb::python_error();
        PyErr_Clear();
      } else if (PyDict_GET_SIZE(copy) > 0) {
        annotations = nb::steal(copy);
      } else {
        Py_DECREF(copy);
      }
    }
  }
  // Read straight from the objects when they hold nothing unusual...
  try {
    LiveReader reader(version, placeholders);
    std::shared_ptr<const CodeObject> tree = reader.code(c);
    const PoolReturn back(tree);
    if (!function) return source_str(decompile_to_source(tree, version));
    // In marshal_function's order: defaults (a tuple), then the two dicts item by item.
    // (A tuple or dict subclass is marshal's to refuse: the Python path then copies it.)
    if ((!defaults.is_none() && !PyTuple_CheckExact(defaults.ptr())) ||
        (!kwdefaults.is_none() && !PyDict_CheckExact(kwdefaults.ptr())))
      throw NotConvertible{};
    ObjectRef d = defaults.is_none() ? ObjectRef() : reader.object(defaults.ptr());
    ObjectRef k = kwdefaults.is_none() ? ObjectRef() : reader.dict(kwdefaults.ptr());
    ObjectRef a = annotations.is_none() ? ObjectRef() : reader.dict(annotations.ptr());
    return source_str(decompile_function(tree, d, k, a, version));
  } catch (const NotConvertible&) {
  }
  // ...else through marshal bytes, as unveil._live writes them.
  nb::object value = function ? nb::make_tuple(code, defaults, kwdefaults, annotations)
                              : nb::borrow(code);
  PyObject* raw = PyMarshal_WriteObjectToString(value.ptr(), Py_MARSHAL_VERSION);
  if (!raw) {
    if (!PyErr_ExceptionMatches(PyExc_ValueError)) throw nb::python_error();
    PyErr_Clear();
    return nb::none();
  }
  nb::bytes data = nb::steal<nb::bytes>(raw);
  static const std::string no_prefix;
  static const std::vector<std::string> no_names;
  std::string text =
      function ? decompile_function_marshal(as_span(data), PY_MINOR_VERSION, no_prefix, no_names)
               : decompile_marshal(as_span(data), PY_MINOR_VERSION, no_prefix, no_names);
  return source_str(text);
}

// unveil.errors.<Kind>Error(message, offset, detail)
void raise_typed(const Error& e) {
  const char* type_name = "UnveilError";
  switch (e.kind()) {
    case ErrorKind::Pyc: type_name = "PycError"; break;
    case ErrorKind::Marshal: type_name = "MarshalError"; break;
    case ErrorKind::CodeObject: type_name = "CodeObjectError"; break;
    case ErrorKind::Decode: type_name = "DecodeError"; break;
    case ErrorKind::Unsupported: type_name = "UnsupportedVersionError"; break;
    case ErrorKind::Limit: type_name = "LimitError"; break;
  }
  try {
    nb::object type = nb::module_::import_("unveil.errors").attr(type_name);
    nb::object offset = e.offset() ? nb::object(nb::int_(*e.offset())) : nb::none();
    nb::object exc = type(utf8_str(e.what()), offset, utf8_str(e.detail()));
    PyErr_SetObject(type.ptr(), exc.ptr());
  } catch (nb::python_error& pe) {
    pe.restore();
  }
}

}  // namespace

NB_MODULE(_core, m) {
  m.doc() = "unveil's C++ core: reading and decoding CPython 3.8–3.14 bytecode.";
  // The readers' shared constants, made at import rather than in the first call.
  (void)shared_objects();

  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const Error& e) {
      raise_typed(e);
    }
  });

  nb::class_<CodeRef>(m, "CodeRef", "A code constant: its name, qualname, file and first line.")
      .def_ro("name", &CodeRef::name)
      .def_ro("qualname", &CodeRef::qualname)
      .def_ro("filename", &CodeRef::filename)
      .def_ro("firstlineno", &CodeRef::firstlineno)
      .def("__repr__", [](const CodeRef& c) {
        return "<code object " + c.name + ", file \"" + c.filename + "\", line " +
               std::to_string(c.firstlineno) + ">";
      });
  nb::class_<PlaceholderRef>(m, "PlaceholderRef", "A constant marshal could not hold.")
      .def_ro("name", &PlaceholderRef::name)
      .def_ro("index", &PlaceholderRef::index)
      .def("__repr__", [](const PlaceholderRef& p) { return "<placeholder " + p.name + ">"; });

  m.attr("FALLBACK_MARK") = std::string(kFallbackMark);
  m.def("supported_versions", [] {
    std::vector<int> minors;
    for (const VersionTraits* v : all_versions()) minors.push_back(v->minor);
    return minors;
  });
  m.def(
      "disassemble_marshal",
      [](const nb::bytes& data, int minor, const std::string& prefix,
         const std::vector<std::string>& names, bool recursive, bool show_caches) {
        return disassemble_loaded(load_marshal(data, minor, prefix, names), recursive, show_caches);
      },
      nb::arg("data"), nb::arg("minor"), nb::arg("placeholder_prefix") = "",
      nb::arg("placeholder_names") = std::vector<std::string>{}, nb::arg("recursive") = true,
      nb::arg("show_caches") = false);
  m.def(
      "disassemble_pyc",
      [](const nb::bytes& data, bool recursive, bool show_caches) {
        return disassemble_loaded(load_pyc(data), recursive, show_caches);
      },
      nb::arg("data"), nb::arg("recursive") = true, nb::arg("show_caches") = false);
  m.def(
      "decode_marshal",
      [](const nb::bytes& data, int minor, const std::string& prefix,
         const std::vector<std::string>& names) {
        return decode_loaded(load_marshal(data, minor, prefix, names));
      },
      nb::arg("data"), nb::arg("minor"), nb::arg("placeholder_prefix") = "",
      nb::arg("placeholder_names") = std::vector<std::string>{},
      "Decode a marshalled code object and its nested ones: a list of dicts with path, name, "
      "instructions (offset, start_offset, opcode, opname, arg, argval), lines, positions and "
      "exception_table.");
  m.def(
      "decompile_marshal",
      [](const nb::bytes& data, int minor, const std::string& prefix,
         const std::vector<std::string>& names) {
        return decompile_marshal(as_span(data), minor, prefix, names);
      },
      nb::arg("data"), nb::arg("minor"), nb::arg("placeholder_prefix") = "",
      nb::arg("placeholder_names") = std::vector<std::string>{},
      "Decompile a marshalled module or function code object to Python source.");
  m.def(
      "decompile_function_marshal",
      [](const nb::bytes& data, int minor, const std::string& prefix,
         const std::vector<std::string>& names) {
        return decompile_function_marshal(as_span(data), minor, prefix, names);
      },
      nb::arg("data"), nb::arg("minor"), nb::arg("placeholder_prefix") = "",
      nb::arg("placeholder_names") = std::vector<std::string>{},
      "Decompile a marshalled (code, defaults, kwdefaults, annotations) tuple to a def.");
  m.def("decompile_live", &decompile_live, nb::arg("code"), nb::arg("function").none(),
        nb::arg("placeholders") = false,
        "unveil.decompile of a code object (and its function, or None); with placeholders, "
        "constants marshal refuses become named placeholders as unveil._live makes them. "
        "None when it cannot be read without unveil._live's substitution.");
  m.def(
      "decompile_pyc", [](const nb::bytes& data) { return decompile_pyc(as_span(data)); },
      nb::arg("data"), "Decompile a .pyc file (its bytes) to Python source.");
  m.def(
      "decode_pyc", [](const nb::bytes& data) { return decode_loaded(load_pyc(data)); },
      nb::arg("data"));
  m.def(
      "decode_stats",
      [](const nb::bytes& data, int minor) {
        std::size_t code_objects = 0, instructions = 0;
        LoadedCode loaded = load_marshal(data, minor, "", {});
        count_tree(loaded.code, *loaded.version, code_objects, instructions);
        return nb::make_tuple(code_objects, instructions);
      },
      nb::arg("data"), nb::arg("minor"),
      "Read and decode a marshalled code tree without building Python objects; returns "
      "(code objects, instructions).");
  m.def(
      "pyc_header",
      [](const nb::bytes& data) {
        PycHeader h = read_pyc_header(as_span(data));
        nb::dict d;
        d["magic"] = h.magic;
        d["python"] = "3." + std::to_string(h.version->minor);
        d["hash_based"] = h.hash_based();
        d["check_source"] = h.check_source();
        if (h.hash_based()) d["source_hash"] = h.source_hash;
        else {
          d["mtime"] = h.mtime;
          d["source_size"] = h.source_size;
        }
        return d;
      },
      nb::arg("data"));
}
