// A listing that matches `dis.dis(code)` of the code's own version line for
// line: 3.8–3.12 in the classic layout (line number, ">>" at jump targets,
// offset, opname, oparg, "(argrepr)"), 3.13+ in the layout of
// `dis.dis(code, show_offsets=True)` (labels "L1:" at jump targets and
// exception-table bounds, "to L2" argreprs). Each version's Lib/dis.py was
// followed for the column widths and for how each argument kind is shown.
#include "disasm/disassemble.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <vector>

#include "decode/argument.h"
#include "decode/decode.h"
#include "emit/literal.h"
#include "support/error.h"

namespace unveil {
namespace {

constexpr std::size_t kOpnameWidth = 20;  // dis._OPNAME_WIDTH
constexpr std::size_t kOpargWidth = 5;    // dis._OPARG_WIDTH
constexpr std::string_view kNoLineno = "  --";  // 3.13+ dis._NO_LINENO

// `L<n>`, a jump target's label as 3.13's dis names it. (Appended, not
// `"L" + ...`: GCC 12 warns falsely on that at -O3, -Wrestrict.)
std::string label_text(int n) {
  std::string text = "L";
  text += std::to_string(n);
  return text;
}

std::string rjust(std::string_view text, std::size_t width) {
  std::string out;
  if (text.size() < width) out.assign(width - text.size(), ' ');
  return out.append(text);
}

std::string ljust(std::string_view text, std::size_t width) {
  std::string out(text);
  if (out.size() < width) out.append(width - out.size(), ' ');
  return out;
}

// ' '.join(fields).rstrip(), as dis prints every line.
std::string join_fields(const std::vector<std::string>& fields) {
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) out += ' ';
    out += fields[i];
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// ------------------------------------------------------------------ caches

// Names of the inline-cache fields, shown with show_caches (3.12+; 3.11 dis
// names them only for quickened code, which co_code never is). Every 3.12+
// format starts with a one-unit "counter"; these are the fields after it.
struct CacheField {
  std::string_view name;
  unsigned size;
};
struct CacheTail {
  std::string_view op;
  std::array<CacheField, 3> fields;
};
constexpr CacheTail kCacheTails[] = {
    {"LOAD_GLOBAL", {{{"index", 1}, {"module_keys_version", 1}, {"builtin_keys_version", 1}}}},
    {"LOAD_ATTR", {{{"version", 2}, {"keys_version", 2}, {"descr", 4}}}},
    {"STORE_ATTR", {{{"version", 2}, {"index", 1}}}},
    {"CALL", {{{"func_version", 2}}}},
    {"CALL_KW", {{{"func_version", 2}}}},
    {"TO_BOOL", {{{"version", 2}}}},
    {"BINARY_OP", {{{"descr", 4}}}},  // 3.14
};

// The fields of `op`'s caches; empty names when the layout is not known.
std::vector<CacheField> cache_fields(std::string_view op, unsigned units, int minor) {
  std::vector<CacheField> fields;
  if (minor >= 12 && units > 0) {
    fields.push_back({"counter", 1});
    for (const CacheTail& tail : kCacheTails) {
      if (tail.op != op) continue;
      unsigned total = 1;
      for (const CacheField& f : tail.fields) total += f.size;
      if (total != units) continue;  // e.g. BINARY_OP has a descr only in 3.14
      for (const CacheField& f : tail.fields)
        if (f.size) fields.push_back(f);
    }
  }
  unsigned named = 0;
  for (const CacheField& f : fields) named += f.size;
  if (named != units) fields.assign(units, CacheField{"", 1});
  return fields;
}

std::uint64_t little_endian(std::string_view code, std::size_t at, std::size_t size) {
  std::uint64_t value = 0;
  for (std::size_t i = std::min(at + size, code.size()); i > at; --i)
    value = (value << 8) | static_cast<std::uint8_t>(code[i - 1]);
  return value;
}

// ------------------------------------------------------------------ layout

class Listing {
 public:
  Listing(const DecodedCode& code, const DisasmOptions& options)
      : code_(code),
        options_(options),
        minor_(code.traits->minor),
        labels_style_(minor_ >= 13) {
    collect_line_starts();
    collect_jump_targets();
    compute_widths();
  }

  std::string render() {
    for (const Instruction& ins : code_.instructions) {
      instruction_line(ins);
      if (options_.show_caches) cache_lines(ins);
    }
    exception_table();
    return std::move(out_);
  }

 private:
  // dis.findlinestarts: ≤3.12 only real lines that differ from the previous
  // one; 3.13+ every change of line, None included.
  void collect_line_starts() {
    bool first = true;
    std::optional<int> last;
    for (const LineRange& range : code_.lines) {
      if (minor_ >= 13) {
        if (first || range.line != last) line_starts_[range.start] = range.line;
        last = range.line;
      } else if (range.line && range.line != last) {
        line_starts_[range.start] = range.line;
        last = range.line;
      }
      first = false;
    }
  }

  void collect_jump_targets() {
    std::set<std::uint32_t> targets;
    for (const Instruction& ins : code_.instructions)
      if (ins.jump_target) targets.insert(*ins.jump_target);
    for (const ExceptionTableEntry& entry : code_.exception_table) {
      targets.insert(entry.target);
      if (labels_style_) {
        targets.insert(entry.start);
        targets.insert(entry.end + 2);  // dis labels the exclusive end
      }
    }
    int number = 0;
    for (std::uint32_t offset : targets) labels_[offset] = ++number;
  }

  void compute_widths() {
    const std::size_t size = code_.code->code.size();
    const std::size_t max_offset = size >= 2 ? size - 2 : 0;
    if (labels_style_) {
      // _get_lineno_width: the largest true line (0 counts as none).
      std::optional<int> max_line;
      bool has_none = false;
      for (const auto& [offset, line] : line_starts_) {
        if (!line) has_none = true;
        if (line && *line != 0 && (!max_line || *line > *max_line)) max_line = line;
      }
      if (max_line && *max_line != -1) {
        lineno_width_ = std::max<std::size_t>(3, std::to_string(*max_line).size());
        if (lineno_width_ < kNoLineno.size() && has_none) lineno_width_ = kNoLineno.size();
      }
      offset_width_ = std::to_string(std::max<std::size_t>(max_offset, 9999)).size();
      label_width_ = 4 + std::to_string(labels_.size()).size();
    } else {
      if (!line_starts_.empty()) {
        int max_line = *line_starts_.begin()->second;
        for (const auto& [offset, line] : line_starts_) max_line = std::max(max_line, *line);
        lineno_width_ = max_line >= 1000 ? std::to_string(max_line).size() : 3;
      }
      offset_width_ = max_offset >= 10000 ? std::to_string(max_offset).size() : 4;
    }
  }

  // The columns before the opname.
  std::vector<std::string> leading_fields(std::uint32_t offset, bool may_start_line) {
    std::vector<std::string> fields;
    const auto start = may_start_line ? line_starts_.find(offset) : line_starts_.end();
    const bool starts_line = start != line_starts_.end();
    if (lineno_width_ > 0 && starts_line && offset > 0) out_ += '\n';
    if (lineno_width_ > 0) {
      if (!starts_line)
        fields.push_back(std::string(lineno_width_, ' '));
      else if (start->second)
        fields.push_back(rjust(std::to_string(*start->second), lineno_width_));
      else
        fields.push_back(rjust(kNoLineno, lineno_width_));
    }
    const auto label = may_start_line ? labels_.find(offset) : labels_.end();
    if (labels_style_) {
      fields.push_back(label != labels_.end()
                           ? rjust(label_text(label->second) + ":", label_width_)
                           : std::string(label_width_, ' '));
      fields.push_back(rjust(std::to_string(offset), offset_width_) + "  ");
      fields.push_back("   ");  // the "-->" current-instruction column
    } else {
      fields.push_back("   ");
      fields.push_back(label != labels_.end() ? ">>" : "  ");
      fields.push_back(rjust(std::to_string(offset), offset_width_));
    }
    return fields;
  }

  void emit(std::vector<std::string> fields, std::string_view opname,
            std::optional<std::int64_t> arg, const std::string& argrepr) {
    fields.push_back(ljust(opname, kOpnameWidth));
    if (arg) {
      // 3.13+: a long opname eats into the oparg column.
      std::size_t width = kOpargWidth;
      if (labels_style_ && opname.size() > kOpnameWidth)
        width -= std::min(width, opname.size() - kOpnameWidth);
      fields.push_back(rjust(std::to_string(*arg), width));
      if (!argrepr.empty()) fields.push_back("(" + argrepr + ")");
    }
    out_ += join_fields(fields);
    out_ += '\n';
  }

  void instruction_line(const Instruction& ins) {
    std::optional<std::int64_t> arg;
    std::string repr;
    if (ins.info->has_arg()) {
      arg = ins.arg;
      repr = describe_argument(ins);
    }
    emit(leading_fields(ins.offset, true), ins.name(), arg, repr);
  }

  void cache_lines(const Instruction& ins) {
    std::uint32_t offset = ins.offset;
    const std::string_view bytes = code_.code->code;
    for (const CacheField& field : cache_fields(ins.name(), ins.info->caches, minor_)) {
      // 3.13's dis reads every field's value from the first cache unit.
      const std::size_t data_at = minor_ == 13 ? ins.offset + 2 : offset + 2;
      for (unsigned i = 0; i < field.size; ++i) {
        offset += 2;
        std::string repr;
        if (i == 0 && !field.name.empty())
          repr = std::string(field.name) + ": " +
                 std::to_string(little_endian(bytes, data_at, 2 * field.size));
        emit(leading_fields(offset, false), "CACHE", 0, repr);
      }
    }
  }

  void exception_table() {
    if (code_.exception_table.empty()) return;
    out_ += "ExceptionTable:\n";
    for (const ExceptionTableEntry& e : code_.exception_table) {
      std::string line = "  ";
      if (labels_style_) {
        line += label_text(labels_.at(e.start)) + " to " + label_text(labels_.at(e.end + 2)) + " -> " +
                label_text(labels_.at(e.target));
      } else {
        line += std::to_string(e.start) + " to " + std::to_string(e.end) + " -> " +
                std::to_string(e.target);
      }
      line += " [" + std::to_string(e.depth) + "]";
      if (e.lasti) line += " lasti";
      out_ += line + '\n';
    }
  }

  std::string describe_argument(const Instruction& ins) const {
    try {
      return argument_text(ins, resolve_argument(code_, ins));
    } catch (const Error& error) {
      // dis would stop with an IndexError; a listing is more useful.
      return "<" + error.detail() + ">";
    }
  }

  std::string argument_text(const Instruction& ins, const ResolvedArg& arg) const {
    const std::string_view name = ins.name();
    switch (arg.kind) {
      case ArgKind::None:
        return {};
      case ArgKind::Plain:
        return plain_text(name, ins.arg);
      case ArgKind::Const:
        // 3.11's dis resolves only LOAD_CONST among the hasconst opcodes.
        if (minor_ == 11 && name != "LOAD_CONST") return {};
        return arg.constant ? literal_repr(*arg.constant) : std::string();
      case ArgKind::Name:
      case ArgKind::Local:
      case ArgKind::Free:
      case ArgKind::BinaryOp:
      case ArgKind::Intrinsic1:
      case ArgKind::Intrinsic2:
      case ArgKind::ConvertValue:
      case ArgKind::SpecialMethod:
        return std::string(arg.text);
      case ArgKind::NameShift1:
      case ArgKind::NameShift2:
        return name_with_null(name, std::string(arg.text), ins.arg & 1);
      case ArgKind::LocalPair:
        return std::string(arg.text) + ", " + std::string(arg.second);
      case ArgKind::Compare:
        if (minor_ >= 13 && (ins.arg & 16)) return "bool(" + std::string(arg.text) + ")";
        return std::string(arg.text);
      case ArgKind::Jump:
        return jump_text(ins);
      case ArgKind::FormatValue: {
        std::string text(arg.text);
        if (arg.has_format_spec) text += text.empty() ? "with format" : ", with format";
        return text;
      }
      case ArgKind::CommonConstant:
        // dis shows classes by name and the builtin functions by repr().
        if (arg.text == "all" || arg.text == "any") return "<built-in function " + std::string(arg.text) + ">";
        return std::string(arg.text);
      case ArgKind::SmallInt:
        return {};  // 3.14's dis shows the oparg only
    }
    return {};
  }

  std::string plain_text(std::string_view name, std::uint32_t arg) const {
    if (name == "MAKE_FUNCTION" || name == "SET_FUNCTION_ATTRIBUTE") {
      static constexpr std::string_view kFlags[] = {"defaults", "kwdefaults", "annotations",
                                                    "closure", "annotate"};
      const std::size_t known = minor_ >= 14 ? 5 : 4;
      std::string text;
      for (std::size_t i = 0; i < known; ++i) {
        if (!(arg & (1u << i))) continue;
        if (!text.empty()) text += ", ";
        text += kFlags[i];
      }
      return text;
    }
    if (minor_ >= 14 && name == "IS_OP") return arg ? "is not" : "is";
    if (minor_ >= 14 && name == "CONTAINS_OP") return arg ? "not in" : "in";
    return {};
  }

  // LOAD_GLOBAL (3.11+) and LOAD_ATTR/LOAD_SUPER_ATTR (3.12+) with bit 0 set
  // also push NULL (or self); 3.13 moved the note after the name.
  std::string name_with_null(std::string_view op, const std::string& text, bool flag) const {
    if (!flag || (op != "LOAD_GLOBAL" && op != "LOAD_ATTR" && op != "LOAD_SUPER_ATTR")) return text;
    const std::string extra = op == "LOAD_GLOBAL" ? "NULL" : "NULL|self";
    return minor_ >= 13 ? text + " + " + extra : extra + " + " + text;
  }

  std::string jump_text(const Instruction& ins) const {
    if (!ins.jump_target) return {};
    const std::uint32_t target = *ins.jump_target;
    if (labels_style_) {
      const auto label = labels_.find(target);
      if (label == labels_.end()) return {};
      return std::string(ins.name() == "END_ASYNC_FOR" ? "from" : "to") + " L" +
             std::to_string(label->second);
    }
    // 3.8–3.9 name the target of relative jumps only.
    if (minor_ <= 9 && ins.info->jump == JumpKind::Absolute) return {};
    return "to " + std::to_string(target);
  }

  const DecodedCode& code_;
  const DisasmOptions& options_;
  int minor_;
  bool labels_style_;
  std::map<std::uint32_t, std::optional<int>> line_starts_;
  std::map<std::uint32_t, int> labels_;  // jump target → label number (≤3.12: just a mark)
  std::size_t lineno_width_ = 0;
  std::size_t offset_width_ = 4;
  std::size_t label_width_ = 0;
  std::string out_;
};

}  // namespace

std::string disassemble(const DecodedCode& code, const DisasmOptions& options) {
  if (!code.code || !code.traits) throw Error(ErrorKind::Decode, "nothing to disassemble");
  std::string out = Listing(code, options).render();
  if (!options.recursive) return out;
  // dis._disassemble_recursive: nested code objects, depth first, in co_consts order.
  for (const ObjectRef& constant : code.code->consts) {
    const auto* nested = constant ? constant->as<CodeValue>() : nullptr;
    if (!nested || !nested->code) continue;
    out += "\nDisassembly of " + literal_repr(*constant) + ":\n";
    out += disassemble(decode(nested->code, *code.traits), options);
  }
  return out;
}

}  // namespace unveil
