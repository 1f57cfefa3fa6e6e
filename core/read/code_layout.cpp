#include "read/code_layout.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>

#include "support/error.h"

namespace unveil::detail {

namespace {

[[noreturn]] void fail(const std::string& message, std::size_t offset) {
  throw Error(ErrorKind::CodeObject, message, offset);
}

// "a list", "an int", "None", "bytes": the subject of "co_names is ...".
std::string describe(const Object& obj) {
  if (obj.is<NoneValue>()) return "None";
  std::string name = obj.type_name();
  if (name == "bytes") return name;
  bool vowel = std::string_view("aeiou").find(name[0]) != std::string_view::npos;
  return (vowel ? "an " : "a ") + name;
}

const Object& present(const RawObjectField& field, const char* name) {
  if (!field.value) fail(std::string(name) + " is missing", field.offset);
  return *field.value;
}

class FieldReader {
 public:
  explicit FieldReader(const std::string& placeholder_prefix) : prefix_(placeholder_prefix) {}

  std::string text(const RawObjectField& field, const char* name) const {
    const Object& obj = present(field, name);
    if (auto s = text_of(obj)) return *s;
    fail(std::string(name) + " is " + describe(obj) + ", expected a str", field.offset);
  }

  std::string bytes(const RawObjectField& field, const char* name) const {
    const Object& obj = present(field, name);
    if (auto b = obj.as<BytesValue>()) return b->data;
    fail(std::string(name) + " is " + describe(obj) + ", expected bytes", field.offset);
  }

  const std::vector<ObjectRef>& tuple(const RawObjectField& field, const char* name,
                                      const char* expected) const {
    const Object& obj = present(field, name);
    if (auto t = obj.as<TupleValue>()) return t->items;
    fail(std::string(name) + " is " + describe(obj) + ", expected " + expected, field.offset);
  }

  // Views of a tuple of str, whose text `owners` keeps (the tuple itself,
  // and a str made for each placeholder).
  NameList str_tuple(const RawObjectField& field, const char* name,
                     std::vector<ObjectRef>& owners) const {
    const auto& items = tuple(field, name, "a tuple of str");
    NameList out;
    out.reserve(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (auto s = items[i]->as<StrValue>()) {
        out.emplace_back(s->utf8);
      } else if (items[i]->is<PlaceholderValue>()) {
        ObjectRef made = make_object(StrValue{*text_of(*items[i])});
        out.emplace_back(made->as<StrValue>()->utf8);
        owners.push_back(std::move(made));
      } else {
        fail(std::string(name) + "[" + std::to_string(i) + "] is " + describe(*items[i]) +
                 ", expected a str",
             field.offset);
      }
    }
    owners.push_back(field.value);
    return out;
  }

 private:
  // A str the reader replaced by a placeholder still names something here
  // (an interned name shared with a constant): give its original text back.
  std::optional<std::string> text_of(const Object& obj) const {
    if (auto s = obj.as<StrValue>()) return s->utf8;
    if (auto p = obj.as<PlaceholderValue>()) return prefix_ + std::to_string(p->index);
    return std::nullopt;
  }

  const std::string& prefix_;
};

std::int32_t count(const RawIntField& field, const char* name) {
  if (field.value < 0)
    fail(std::string(name) + " is " + std::to_string(field.value) + ", expected a count >= 0",
         field.offset);
  return field.value;
}

// Membership in a list of names, asked `queries` times. Cells are few, so
// scanning is cheaper than hashing every local; a set takes over only when
// scans would cost more (generated code can have thousands of locals).
class NameSet {
 public:
  NameSet(const NameList& names, std::size_t queries) : names_(names) {
    if (names.size() * queries > kScanLimit) set_.emplace(names.begin(), names.end());
  }
  bool contains(std::string_view name) const {
    if (set_) return set_->count(name) != 0;
    return std::find(names_.begin(), names_.end(), name) != names_.end();
  }

 private:
  static constexpr std::size_t kScanLimit = 256;
  const NameList& names_;
  std::optional<std::unordered_set<std::string_view>> set_;
};

// `out`[at...] = `names`, resized to end there, in one copy: a range insert
// copies a view at a time (a string_view is not a trivial type), and
// clearing first would have resize() zero the slots a recycled `out` has.
void write_at(NameList& out, std::size_t at, const NameList& names) {
  out.resize(at + names.size());
  if (!names.empty())
    std::memcpy(static_cast<void*>(out.data() + at), names.data(), names.size() * sizeof(std::string_view));
}

// ≤3.10 stores the split view; build the 3.11-style merged one from it. An
// argument that is also a cell appears once with kind LOCAL|CELL, as 3.11
// would store it; other cells follow, then frees. The ≤3.10 opcodes index
// the split lists, so this view is only for consumers that want one shape.
// (The view may be a recycled code object's: it is written over.)
void derive_localsplus(CodeObject& co) {
  const std::size_t total = co.varnames.size() + co.cellvars.size() + co.freevars.size();
  NameList& names = co.localsplusnames;
  names.reserve(total);
  write_at(names, 0, co.varnames);
  co.localspluskinds.clear();
  co.localspluskinds.reserve(total);
  if (co.cellvars.empty()) {  // the common case: no name can be both
    co.localspluskinds.assign(co.varnames.size(), kLocalPlain);
  } else {
    const NameSet cells(co.cellvars, co.varnames.size());
    for (const auto& n : co.varnames)
      co.localspluskinds.push_back(cells.contains(n) ? kLocalPlain | kLocalCell : kLocalPlain);
    const NameSet locals(co.varnames, co.cellvars.size());
    for (const auto& n : co.cellvars) {
      if (locals.contains(n)) continue;
      names.push_back(n);
      co.localspluskinds.push_back(kLocalCell);
    }
  }
  write_at(names, names.size(), co.freevars);
  co.localspluskinds.insert(co.localspluskinds.end(), co.freevars.size(), kLocalFree);
}

// 3.11+ stores the merged view; split it the way CPython computes
// co_varnames/co_cellvars/co_freevars/co_nlocals (by kind bit, so a name of
// kind LOCAL|CELL is in both varnames and cellvars, and hidden locals count).
void derive_split(CodeObject& co) {
  co.varnames.clear();
  co.cellvars.clear();
  co.freevars.clear();
  co.varnames.reserve(co.localsplusnames.size());
  std::int32_t plain = 0;
  for (std::size_t i = 0; i < co.localsplusnames.size(); ++i) {
    const std::string_view n = co.localsplusnames[i];
    std::uint8_t kind = co.localspluskinds[i];
    if (kind & kLocalPlain) {
      co.varnames.push_back(n);
      ++plain;
    }
    if (kind & kLocalCell) co.cellvars.push_back(n);
    if (kind & kLocalFree) co.freevars.push_back(n);
  }
  co.nlocals = plain;
}

void check_arguments(const CodeObject& co, const RawCounts& raw, std::size_t names_offset,
                     const char* names_field) {
  if (co.posonlyargcount > co.argcount)
    fail("co_posonlyargcount " + std::to_string(co.posonlyargcount) + " exceeds co_argcount " +
             std::to_string(co.argcount),
         raw.posonlyargcount.offset);
  std::int64_t total = std::int64_t(co.argcount) + co.kwonlyargcount +
                       ((co.flags & kCoVarargs) ? 1 : 0) + ((co.flags & kCoVarkeywords) ? 1 : 0);
  if (total > std::int64_t(co.varnames.size()))
    fail(std::string(names_field) + " holds " + std::to_string(co.varnames.size()) +
             " local name(s), fewer than the " + std::to_string(total) + " argument(s)",
         names_offset);
}

}  // namespace

// The counts and flags every code object has, whichever way it was read.
void copy_header(CodeObject& co, const RawCounts& raw, const VersionTraits& version) {
  co.version_minor = version.minor;
  co.argcount = count(raw.argcount, "co_argcount");
  co.posonlyargcount = count(raw.posonlyargcount, "co_posonlyargcount");
  co.kwonlyargcount = count(raw.kwonlyargcount, "co_kwonlyargcount");
  co.stacksize = count(raw.stacksize, "co_stacksize");
  co.flags = std::uint32_t(raw.flags.value);
  co.firstlineno = raw.firstlineno.value;
}

CodeObject build_code_object(const RawCode& raw, const VersionTraits& version,
                             const std::string& placeholder_prefix) {
  const FieldReader read(placeholder_prefix);
  CodeObject co;
  copy_header(co, raw, version);

  co.code = read.bytes(raw.code, "co_code");
  // Wordcode (3.6+): every instruction is a 2-byte unit.
  if (co.code.size() % 2 != 0)
    fail("co_code has odd length " + std::to_string(co.code.size()), raw.code.offset);
  co.consts = read.tuple(raw.consts, "co_consts", "a tuple");
  co.names = read.str_tuple(raw.names, "co_names", co.name_text);
  co.filename = read.text(raw.filename, "co_filename");
  co.name = read.text(raw.name, "co_name");

  if (version.locals_layout == LocalsLayout::Split) {
    co.nlocals = count(raw.nlocals, "co_nlocals");
    co.varnames = read.str_tuple(raw.varnames, "co_varnames", co.name_text);
    co.freevars = read.str_tuple(raw.freevars, "co_freevars", co.name_text);
    co.cellvars = read.str_tuple(raw.cellvars, "co_cellvars", co.name_text);
    co.qualname = co.name;
    co.linetable = read.bytes(raw.linetable,
                              version.line_table == LineTableFormat::Lnotab ? "co_lnotab"
                                                                            : "co_linetable");
    derive_localsplus(co);
    check_arguments(co, raw, raw.varnames.offset, "co_varnames");
  } else {
    co.localsplusnames = read.str_tuple(raw.localsplusnames, "co_localsplusnames", co.name_text);
    std::string kinds = read.bytes(raw.localspluskinds, "co_localspluskinds");
    if (kinds.size() != co.localsplusnames.size())
      fail("co_localspluskinds has " + std::to_string(kinds.size()) + " entries for " +
               std::to_string(co.localsplusnames.size()) + " names in co_localsplusnames",
           raw.localspluskinds.offset);
    co.localspluskinds.assign(kinds.begin(), kinds.end());
    co.qualname = read.text(raw.qualname, "co_qualname");
    co.linetable = read.bytes(raw.linetable, "co_linetable");
    co.exceptiontable = read.bytes(raw.exceptiontable, "co_exceptiontable");
    derive_split(co);
    check_arguments(co, raw, raw.localsplusnames.offset, "co_localsplusnames");
  }
  return co;
}

void complete_code_object(CodeObject& co, const RawCounts& counts, const VersionTraits& version) {
  copy_header(co, counts, version);
  if (co.code.size() % 2 != 0) fail("co_code has odd length " + std::to_string(co.code.size()), 0);
  if (version.locals_layout == LocalsLayout::Split) {
    co.nlocals = count(counts.nlocals, "co_nlocals");
    co.qualname = co.name;
    derive_localsplus(co);
    check_arguments(co, counts, 0, "co_varnames");
  } else {
    if (co.localspluskinds.size() != co.localsplusnames.size())
      fail("co_localspluskinds has " + std::to_string(co.localspluskinds.size()) + " entries for " +
               std::to_string(co.localsplusnames.size()) + " names in co_localsplusnames",
           0);
    derive_split(co);
    check_arguments(co, counts, 0, "co_localsplusnames");
  }
}

}  // namespace unveil::detail
