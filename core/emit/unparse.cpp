#include "emit/unparse.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "ast/arena.h"
#include "ast/identifier.h"
#include "ast/prefetch.h"
#include "emit/literal.h"
#include "support/error.h"

#include "emit/printable16.h"

namespace unveil {

namespace {

using ast::Expr;
using ast::ExprList;
using ast::ExprPtr;
using ast::Pattern;
using ast::PatternPtr;
using ast::Stmt;
using ast::StmtList;
using ast::StmtPtr;

// Printed where a required child is missing (a bug in an earlier stage): valid
// source that makes the gap easy to find, rather than a crash.
constexpr std::string_view kMissing = "__missing__";

// Deeper trees are refused rather than risking the stack; real code nests far
// less (CPython's own parser stops at a few hundred levels of parentheses).
constexpr int kMaxDepth = 1500;

// Binding strength, weakest first (the order of Lib/ast.py's _Precedence). A
// node is parenthesised when the context asks for more than the node binds.
enum class Prec : int {
  NamedExpr,
  Tuple,
  Yield,
  Test,  // if-else, lambda
  Or,
  And,
  Not,
  Cmp,
  BOr,
  BXor,
  BAnd,
  Shift,
  Arith,
  Term,
  Factor,  // unary + - ~
  Power,
  Await,
  Atom
};

constexpr Prec next(Prec p) { return p == Prec::Atom ? p : Prec(int(p) + 1); }
constexpr Prec nth_next(Prec p, std::size_t n) {
  return Prec(std::min<int>(int(p) + int(std::min<std::size_t>(n, 100)), int(Prec::Atom)));
}

Prec binop_prec(ast::Operator op) {
  switch (op) {
    case ast::Operator::Add:
    case ast::Operator::Sub:
      return Prec::Arith;
    case ast::Operator::Mult:
    case ast::Operator::MatMult:
    case ast::Operator::Div:
    case ast::Operator::Mod:
    case ast::Operator::FloorDiv:
      return Prec::Term;
    case ast::Operator::LShift:
    case ast::Operator::RShift:
      return Prec::Shift;
    case ast::Operator::BitOr:
      return Prec::BOr;
    case ast::Operator::BitXor:
      return Prec::BXor;
    case ast::Operator::BitAnd:
      return Prec::BAnd;
    case ast::Operator::Pow:
      return Prec::Power;
  }
  return Prec::Atom;
}

// --- string quoting ----------------------------------------------------------

// The four quotes, in the order ast.unparse tries them.
enum QuoteBits : unsigned { kSingle = 1, kDouble = 2, kTripleDouble = 4, kTripleSingle = 8 };
constexpr unsigned kAllQuotes = kSingle | kDouble | kTripleDouble | kTripleSingle;
struct QuoteInfo {
  unsigned bit;
  std::string_view text;
};
constexpr std::array<QuoteInfo, 4> kQuoteOrder = {
    {{kSingle, "'"}, {kDouble, "\""}, {kTripleDouble, "\"\"\""}, {kTripleSingle, "'''"}}};

// Quotes a string nested in a replacement field of a q-quoted f-string may use
// before 3.12: any that cannot end the f-string's token, i.e. those of the other
// character, plus the single quote of q's character when q is triple.
unsigned compatible_quotes(const QuoteInfo& q) {
  unsigned other = q.text[0] == '\'' ? (kDouble | kTripleDouble) : (kSingle | kTripleSingle);
  if (q.text.size() == 3) other |= q.text[0] == '\'' ? kSingle : kDouble;
  return other;
}

// How string literals may be written where they are being printed. Inside a
// replacement field of an f-string, before 3.12, they may use no backslash and
// only quotes that do not end the enclosing string.
struct StrContext {
  bool restricted = false;
  unsigned quotes = kAllQuotes;
};

// Length of the UTF-8 sequence starting with byte `lead` (1 for stray bytes).
std::size_t utf8_length(unsigned char lead) {
  if (lead >= 0xf0 && lead < 0xf8) return 4;
  if (lead >= 0xe0) return lead < 0xf0 ? 3 : 1;
  if (lead >= 0xc0) return 2;
  return 1;
}

// Splits UTF-8 text into characters, clamped to the end of the text.
template <class F>
void for_each_char(std::string_view text, F&& f) {
  for (std::size_t i = 0; i < text.size();) {
    std::size_t n = std::min(utf8_length(static_cast<unsigned char>(text[i])), text.size() - i);
    f(text.substr(i, n));
    i += n;
  }
}

// The escape repr() uses for one character, or "" when repr() prints it as is.
// Non-ASCII printability comes from str_repr, the one place that knows it.
std::string repr_escape(std::string_view ch) {
  if (ch.size() == 1) {
    unsigned char c = static_cast<unsigned char>(ch[0]);
    if (c >= 0x20 && c < 0x7f && c != '\\') return "";
  }
  std::string r = str_repr(ch);
  if (r.size() < 2) return "";
  std::string inner = r.substr(1, r.size() - 2);
  return inner == ch ? "" : inner;
}

// --- the default name mapping ------------------------------------------------

bool valid_name(std::string_view name, NameRole role) {
  return role == NameRole::Placeholder ? ast::is_dotted_name(name) : ast::is_identifier(name);
}

// Keeps valid names and renames invalid ones to fresh identifiers. Run twice:
// first collecting every valid name of the tree (so renames cannot collide with
// them), then assigning.
class DefaultNames {
 public:
  // The pass of the Unparser that uses this mapping: first Check (are all names
  // valid? almost always, and then that pass's text is the output), then only
  // if not Collect (every valid name) and Assign (the renames).
  enum class Pass { Check, Collect, Assign };

  void check(std::string_view name, NameRole role) {
    if (!saw_invalid_ && !valid_name(name, role)) saw_invalid_ = true;
  }

  void collect(std::string_view name, NameRole role) {
    if (valid_name(name, role)) taken_.emplace(name);
  }

  std::string assign(std::string_view name, NameRole role) {
    if (valid_name(name, role)) return std::string(name);
    std::string key(name);
    if (auto it = renamed_.find(key); it != renamed_.end()) return it->second;
    std::string base = ast::sanitize_identifier(name);
    std::string candidate = base;
    for (int n = 1; taken_.count(candidate); ++n) candidate = base + "_" + std::to_string(n);
    taken_.insert(candidate);
    renamed_.emplace(std::move(key), candidate);
    return candidate;
  }

  bool saw_invalid() const { return saw_invalid_; }

 private:
  std::unordered_set<std::string> taken_;
  std::unordered_map<std::string, std::string> renamed_;
  bool saw_invalid_ = false;
};

// --- the unparser ------------------------------------------------------------

// The text being printed. Most tokens are a few bytes (a bracket, a name),
// and std::string::append was a call and a memcpy call for each: the buffer
// is kept at its full size and written up to a length of its own instead.
class Output {
 public:
  Output() { buf_.resize(buf_.capacity()); }
  // (Sized as it fills, since a resize writes every byte it adds.)
  explicit Output(std::size_t reserve) {
    buf_.reserve(reserve);
    buf_.resize(64);
  }

  bool empty() const { return len_ == 0; }
  void push_back(char c) {
    if (len_ == buf_.size()) [[unlikely]] grow(1);
    buf_[len_++] = c;
  }
  void append(std::string_view text) {
    const std::size_t n = text.size();
    // (Kept a leaf, saving no registers: the calls are in append_long.)
    if (n > 16 || n > buf_.size() - len_) [[unlikely]] {
      append_long(text);
      return;
    }
    char* to = buf_.data() + len_;
    const char* from = text.data();
    // (Overlapping word copies: no call for the short tokens that most are.)
    if (n >= 8) {
      std::uint64_t a, b;
      std::memcpy(&a, from, 8);
      std::memcpy(&b, from + n - 8, 8);
      std::memcpy(to, &a, 8);
      std::memcpy(to + n - 8, &b, 8);
    } else if (n >= 4) {
      std::uint32_t a, b;
      std::memcpy(&a, from, 4);
      std::memcpy(&b, from + n - 4, 4);
      std::memcpy(to, &a, 4);
      std::memcpy(to + n - 4, &b, 4);
    } else {
      for (std::size_t k = 0; k < n; ++k) to[k] = from[k];
    }
    len_ += n;
  }
  void append(std::size_t n, char c) {
    if (n > buf_.size() - len_) [[unlikely]] grow(n);
    std::memset(buf_.data() + len_, c, n);
    len_ += n;
  }
  std::string take() {
    buf_.resize(len_);
    len_ = 0;
    return std::move(buf_);
  }

 private:
  [[gnu::noinline]] void append_long(std::string_view text) {
    if (text.size() > buf_.size() - len_) grow(text.size());
    std::memcpy(buf_.data() + len_, text.data(), text.size());
    len_ += text.size();
  }
  [[gnu::noinline]] void grow(std::size_t n) {
    buf_.resize(std::max(buf_.size() * 2, len_ + n));
  }
  std::string buf_;  // the text up to len_, then room
  std::size_t len_ = 0;
};

class Unparser {
 public:
  // `names` and `pass` give the default mapping, used unless options.name_mapper is set.
  Unparser(const UnparseOptions& options, DefaultNames* names = nullptr,
           DefaultNames::Pass pass = DefaultNames::Pass::Check)
      : options_(options), names_(names), pass_(pass) {}

  std::string take() { return out_.take(); }
  // The statements of `list` are let go once printed (see unparse_dropping).
  void drop_printed(const StmtList* list) { drop_ = list; }
  bool dropped_any() const { return dropped_any_; }

  void module(const StmtList& body) { statements(body, /*docstring=*/true); }
  void expr(const ExprPtr& e, Prec p);
  void pattern(const PatternPtr& pattern, Prec p);

 private:
  // --- output ---
  void write(std::string_view text) { out_.append(text); }
  // Starts a new line at the current indentation (no newline at the very start).
  void fill(std::string_view text = {}) {
    if (!out_.empty()) out_.push_back('\n');
    out_.append(std::size_t(indent_) * 4, ' ');
    out_.append(text);
  }
  void blank_line() {
    if (!out_.empty()) out_.push_back('\n');
  }
  void flush_line_comment() {
    if (pending_line_ > 0) out_.append("  # line " + std::to_string(pending_line_));
    pending_line_ = 0;
  }
  template <class F>
  std::string capture(F&& f) {
    Output saved;
    std::swap(saved, out_);
    f();
    std::string result = out_.take();
    out_ = std::move(saved);
    return result;
  }
  // Counts one level of nesting for as long as it lives.
  class Nested {
   public:
    explicit Nested(int& depth) : depth_(depth) {
      if (++depth_ > kMaxDepth) [[unlikely]]
        too_deep();
    }
    ~Nested() { --depth_; }
    Nested(const Nested&) = delete;
    Nested& operator=(const Nested&) = delete;

   private:
    // (Out of line: the check above is inlined into every node's visit.)
    [[noreturn, gnu::noinline, gnu::cold]] static void too_deep() {
      throw Error(ErrorKind::Limit,
                  "unparse: syntax tree nested deeper than " + std::to_string(kMaxDepth) + " levels");
    }
    int& depth_;
  };
  template <class F>
  void parens_if(bool condition, F&& f) {
    if (condition) write("(");
    f();
    if (condition) write(")");
  }
  template <class Seq, class F>
  void interleave(const Seq& items, std::string_view sep, F&& f) {
    bool first = true;
    for (const auto& item : items) {
      if (!first) write(sep);
      first = false;
      f(item);
    }
  }
  std::string map_name(std::string_view name, NameRole role) {
    if (options_.name_mapper) return options_.name_mapper(name, role);
    if (pass_ == DefaultNames::Pass::Assign) return names_->assign(name, role);
    if (pass_ == DefaultNames::Pass::Check) names_->check(name, role);
    else names_->collect(name, role);
    return std::string(name);
  }
  // Like write(map_name(...)), without a string per name in the common passes.
  void write_name(std::string_view name, NameRole role) {
    if (options_.name_mapper || pass_ == DefaultNames::Pass::Assign) {
      write(map_name(name, role));
      return;
    }
    if (pass_ == DefaultNames::Pass::Check) names_->check(name, role);
    else names_->collect(name, role);
    write(name);
  }
  // `name=value` or `**value`, in calls and class headers alike.
  void keyword(const ast::Keyword& k) {
    if (k.arg) {
      write_name(*k.arg, NameRole::Keyword);
      write("=");
    } else {
      write("**");
    }
    expr(k.value, Prec::Test);
  }
  void write_dotted(std::string_view dotted, NameRole role);

  // --- statements ---
  // Prints the statements; true when there were only comments (or none).
  bool statements(const StmtList& body, bool docstring);
  void block(const StmtList& body, bool docstring = false);
  void drop(const StmtPtr& s);
  void stmt(const Stmt& s, bool docstring);
  bool blank_lines_before(const StmtList& body, std::size_t i) const;
  void decorators(const ExprList& list);
  void function(const ast::FunctionDef& f, std::string_view keyword);
  void class_def(const ast::ClassDef& c);
  void type_params(const ast::TypeParamList& params);
  void arguments(const ast::Arguments& a, bool annotations);
  void write_arg(const ast::Arg& a, bool annotations);
  void for_loop(const ast::For& f, std::string_view keyword);
  void with_stmt(const ast::With& w, std::string_view keyword);
  void try_stmt(const ast::Try& t, bool star);
  void if_stmt(const ast::If& node);
  void match_stmt(const ast::Match& m);
  void import_from(const ast::ImportFrom& i);
  void alias(const ast::Alias& a, bool dotted);
  void comment(const ast::Comment& c);
  void docstring(const std::string& utf8);

  // --- expressions ---
  template <class T>
  void visit(const T& node, Prec p);
  void items_view(const ExprList& items);
  void comprehension_body(const ExprPtr& elt, const ExprPtr* value,
                          const std::vector<ast::Comprehension>& generators);
  void call(const ast::Call& c);
  void constant(const Object& value, Prec p, bool attribute_base = false);
  std::string constant_text(const Object& value);
  std::string float_text(double value);
  std::string string_text(std::string_view utf8, bool is_bytes);

  // --- f-strings ---
  void fstring(const ExprList& values, char prefix, Prec p, const void* memo_key);
  void fstring_search(const ExprList& values, char prefix, Prec p);
  std::optional<std::string> fstring_body(const ExprList& values, const QuoteInfo& quote,
                                          StrContext inner, bool escape_quotes,
                                          bool literal_backslashes, bool check_fields);
  std::optional<std::string> fstring_literal(std::string_view text, const QuoteInfo& quote,
                                             bool escape_quotes, bool literal_backslashes,
                                             bool in_spec);
  std::optional<std::string> fstring_field(const Expr& field, const QuoteInfo& quote,
                                           StrContext inner, bool escape_quotes,
                                           bool literal_backslashes, bool check_fields);
  void fstring_fallback(const ExprList& values, Prec p);

  const UnparseOptions& options_;
  DefaultNames* names_;
  DefaultNames::Pass pass_;
  const StmtList* drop_ = nullptr;
  bool dropped_any_ = false;
  Output out_{512};  // most code objects print in fewer bytes: no regrowth on the way
  std::string scratch_;
  int indent_ = 0;
  int pending_line_ = 0;
  StrContext strings_;
  // Set when a string literal cannot be written under strings_ (f-string search).
  bool impossible_ = false;
  // Nesting depth of expressions/patterns/blocks being printed (see kMaxDepth).
  int depth_ = 0;
  // F-strings already printed under a given string context: the quote search
  // retries each level's fields, which would be exponential in nesting depth.
  struct FStringKey {
    const void* node;
    bool restricted;
    unsigned quotes;
    Prec prec;
    auto operator<=>(const FStringKey&) const = default;
  };
  std::map<FStringKey, std::pair<std::string, bool>> fstring_memo_;
};

// --- statements --------------------------------------------------------------

bool is_def(const StmtPtr& s) {
  return s &&
         (s->is<ast::FunctionDef>() || s->is<ast::AsyncFunctionDef>() || s->is<ast::ClassDef>());
}
bool is_comment(const StmtPtr& s) { return s && s->is<ast::Comment>(); }

// PEP 8: defs and classes are set apart from their neighbours; comments just
// above a def stay attached to it.
bool Unparser::blank_lines_before(const StmtList& body, std::size_t i) const {
  if (i == 0) return false;
  if (is_def(body[i - 1])) return true;
  if (is_comment(body[i - 1])) return false;
  std::size_t j = i;
  while (j < body.size() && is_comment(body[j])) ++j;
  return j < body.size() && is_def(body[j]);
}

bool Unparser::statements(const StmtList& body, bool docstring) {
  const bool dropping = &body == drop_;
  bool only_comments = true;
  for (std::size_t i = 0; i < body.size(); ++i) {
    ast::prefetch_next(body, i);
    if (options_.blank_lines == BlankLines::Pep8 && blank_lines_before(body, i)) {
      int count = indent_ == 0 ? 2 : 1;
      for (int k = 0; k < count; ++k) blank_line();
    }
    if (dropping && i > 0) drop(body[i - 1]);  // (blank_lines_before was its last reader)
    if (body[i]) {
      only_comments = only_comments && is_comment(body[i]);
      stmt(*body[i], docstring && i == 0);
    } else {
      only_comments = false;
      fill(kMissing);
    }
  }
  return only_comments;
}

void Unparser::block(const StmtList& body, bool docstring) {
  write(":");
  flush_line_comment();
  ++indent_;
  // A block needs a statement; comments alone are not one.
  if (statements(body, docstring)) fill("pass");
  --indent_;
}

void Unparser::drop(const StmtPtr& s) {
  // Only while this pass's text can still be the output: a name to rename
  // means two more passes over the whole tree.
  if (names_ && names_->saw_invalid()) return;
  // The list is in a node only unparse_dropping's caller holds, and nodes are
  // made non-const (ast::make_node): resetting its pointer is defined.
  const_cast<StmtPtr&>(s).reset();
  dropped_any_ = true;
}

void Unparser::decorators(const ExprList& list) {
  if (options_.blank_lines == BlankLines::AstUnparse) blank_line();
  for (const auto& d : list) {
    fill("@");
    expr(d, Prec::Test);
  }
}

void Unparser::function(const ast::FunctionDef& f, std::string_view keyword) {
  decorators(f.decorator_list);
  fill(keyword);
  write(" ");
  write_name(f.name, NameRole::Function);
  type_params(f.type_params);
  write("(");
  arguments(*f.args, /*annotations=*/true);
  write(")");
  if (f.returns) {
    write(" -> ");
    expr(f.returns, Prec::Test);
  }
  block(f.body, /*docstring=*/true);
}

void Unparser::class_def(const ast::ClassDef& c) {
  decorators(c.decorator_list);
  fill("class ");
  write_name(c.name, NameRole::Class);
  type_params(c.type_params);
  if (!c.bases.empty() || !c.keywords.empty()) {
    write("(");
    interleave(c.bases, ", ", [&](const ExprPtr& b) { expr(b, Prec::Test); });
    if (!c.bases.empty() && !c.keywords.empty()) write(", ");
    interleave(c.keywords, ", ", [&](const ast::Keyword& k) { keyword(k); });
    write(")");
  }
  block(c.body, /*docstring=*/true);
}

void Unparser::type_params(const ast::TypeParamList& params) {
  if (params.empty()) return;
  write("[");
  interleave(params, ", ", [&](const ast::TypeParam& tp) {
    std::visit(
        [&](const auto& t) {
          using T = std::decay_t<decltype(t)>;
          if constexpr (std::is_same_v<T, ast::TypeVarTuple>) write("*");
          if constexpr (std::is_same_v<T, ast::ParamSpec>) write("**");
          write_name(t.name, NameRole::Variable);
          if constexpr (std::is_same_v<T, ast::TypeVar>) {
            if (t.bound) {
              write(": ");
              expr(t.bound, Prec::Test);
            }
          }
          if (t.default_value) {
            write(" = ");
            expr(t.default_value, Prec::Test);
          }
        },
        tp.node);
  });
  write("]");
}

void Unparser::write_arg(const ast::Arg& a, bool annotations) {
  write_name(a.arg, NameRole::Argument);
  if (annotations && a.annotation) {
    write(": ");
    expr(a.annotation, Prec::Test);
  }
}

void Unparser::arguments(const ast::Arguments& a, bool annotations) {
  bool first = true;
  auto sep = [&] {
    if (!first) write(", ");
    first = false;
  };
  // PEP 8 spaces `=` only when the parameter is annotated; ast.unparse never does.
  auto write_default = [&](const ast::Arg& arg, const ExprPtr& d) {
    bool spaced = options_.blank_lines == BlankLines::Pep8 && annotations && arg.annotation;
    write(spaced ? " = " : "=");
    expr(d, Prec::Test);
  };
  std::size_t positional = a.posonlyargs.size() + a.args.size();
  // defaults belong to the last parameters; extra defaults (bad input) are dropped.
  std::size_t ndefaults = std::min(a.defaults.size(), positional);
  std::size_t first_default = positional - ndefaults;
  std::size_t skipped = a.defaults.size() - ndefaults;
  for (std::size_t i = 0; i < positional; ++i) {
    const ast::Arg& arg =
        i < a.posonlyargs.size() ? a.posonlyargs[i] : a.args[i - a.posonlyargs.size()];
    sep();
    write_arg(arg, annotations);
    if (i >= first_default && a.defaults[skipped + i - first_default])
      write_default(arg, a.defaults[skipped + i - first_default]);
    if (i + 1 == a.posonlyargs.size()) write(", /");
  }
  if (a.vararg || !a.kwonlyargs.empty()) {
    sep();
    write("*");
    if (a.vararg) write_arg(*a.vararg, annotations);
  }
  for (std::size_t i = 0; i < a.kwonlyargs.size(); ++i) {
    write(", ");
    write_arg(a.kwonlyargs[i], annotations);
    if (i < a.kw_defaults.size() && a.kw_defaults[i])
      write_default(a.kwonlyargs[i], a.kw_defaults[i]);
  }
  if (a.kwarg) {
    sep();
    write("**");
    write_arg(*a.kwarg, annotations);
  }
}

void Unparser::for_loop(const ast::For& f, std::string_view keyword) {
  fill(keyword);
  expr(f.target, Prec::Tuple);
  write(" in ");
  expr(f.iter, Prec::Test);
  block(f.body);
  if (!f.orelse.empty()) {
    fill("else");
    block(f.orelse);
  }
}

void Unparser::with_stmt(const ast::With& w, std::string_view keyword) {
  fill(keyword);
  interleave(w.items, ", ", [&](const ast::WithItem& item) {
    expr(item.context_expr, Prec::Test);
    if (item.optional_vars) {
      write(" as ");
      expr(item.optional_vars, Prec::Test);
    }
  });
  block(w.body);
}

void Unparser::try_stmt(const ast::Try& t, bool star) {
  fill("try");
  block(t.body);
  for (const auto& h : t.handlers) {
    if (options_.line_comments) pending_line_ = h.line;
    fill(star ? "except*" : "except");
    if (h.type) {
      write(" ");
      expr(h.type, Prec::Test);
    }
    if (h.name) {
      write(" as ");
      write_name(*h.name, NameRole::Variable);
    }
    block(h.body);
  }
  if (!t.orelse.empty()) {
    fill("else");
    block(t.orelse);
  }
  if (!t.finalbody.empty()) {
    fill("finally");
    block(t.finalbody);
  }
}

void Unparser::if_stmt(const ast::If& node) {
  fill("if ");
  expr(node.test, Prec::Test);
  block(node.body);
  const ast::If* current = &node;
  // An If alone in orelse is an elif.
  while (current->orelse.size() == 1 && current->orelse[0] && current->orelse[0]->is<ast::If>()) {
    const Stmt& inner = *current->orelse[0];
    current = inner.as<ast::If>();
    if (options_.line_comments) pending_line_ = inner.line;
    fill("elif ");
    expr(current->test, Prec::Test);
    block(current->body);
  }
  if (!current->orelse.empty()) {
    fill("else");
    block(current->orelse);
  }
}

void Unparser::match_stmt(const ast::Match& m) {
  fill("match ");
  expr(m.subject, Prec::Test);
  write(":");
  flush_line_comment();
  ++indent_;
  for (const auto& c : m.cases) {
    fill("case ");
    pattern(c.pattern, Prec::Test);
    if (c.guard) {
      write(" if ");
      expr(c.guard, Prec::Test);
    }
    block(c.body);
  }
  --indent_;
}

void Unparser::write_dotted(std::string_view dotted, NameRole role) {
  bool first = true;
  while (true) {
    auto dot = dotted.find('.');
    if (!first) write(".");
    first = false;
    write_name(dotted.substr(0, dot), role);
    if (dot == std::string_view::npos) break;
    dotted.remove_prefix(dot + 1);
  }
}

void Unparser::alias(const ast::Alias& a, bool dotted) {
  if (a.name == "*")
    write("*");
  else if (dotted)
    write_dotted(a.name, NameRole::Module);
  else
    write_name(a.name, NameRole::Variable);
  if (a.asname) {
    write(" as ");
    write_name(*a.asname, NameRole::Variable);
  }
}

void Unparser::import_from(const ast::ImportFrom& i) {
  fill("from ");
  // Clamped so a corrupt level cannot allocate gigabytes of dots.
  write(std::string(std::size_t(std::clamp(i.level, 0, 255)), '.'));
  if (!i.module.empty()) write_dotted(i.module, NameRole::Module);
  write(" import ");
  interleave(i.names, ", ", [&](const ast::Alias& a) { alias(a, /*dotted=*/false); });
}

void Unparser::comment(const ast::Comment& c) {
  std::string_view text = c.text;
  // One `#` line per line of text, so that no text can escape the comment.
  while (true) {
    auto end = text.find_first_of("\r\n");
    std::string_view line = text.substr(0, end);
    fill(line.empty() ? "#" : "# ");
    write(line);
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + (text.compare(end, 2, "\r\n") == 0 ? 2 : 1));
  }
}

// Printable ASCII, newlines and tabs print as themselves in a docstring.
// (A table: one load per character.)
constexpr auto kDocstringAsIs = [] {
  std::array<bool, 256> t{};
  for (unsigned c = 0; c < 256; ++c) t[c] = (c >= 0x20 && c < 0x7f && c != '\\') || c == '\n' || c == '\t';
  return t;
}();

// The end of the run of characters from `i` that print as themselves, a byte
// or a word at a time: eight bytes where none is a control character, a
// backslash or non-ASCII, a byte at a time elsewhere. (The portable scan; see
// docstring_run_end.)
std::size_t docstring_run_end_words(std::string_view text, std::size_t i) {
  constexpr std::uint64_t kOnes = 0x0101010101010101u, kHighs = 0x8080808080808080u;
  while (true) {
    for (; i + 8 <= text.size(); i += 8) {
      std::uint64_t w;
      std::memcpy(&w, text.data() + i, 8);
      const std::uint64_t below_space = (w - kOnes * 0x20) & ~w;      // high bit: a byte < 0x20 (or >= 0x80)
      const std::uint64_t above_tilde = (w + kOnes * (0x80 - 0x7f)) | w;  // high bit: a byte >= 0x7f
      const std::uint64_t backslash = w ^ (kOnes * '\\');
      const std::uint64_t is_backslash = (backslash - kOnes) & ~backslash;  // high bit: a zero byte
      if ((below_space | above_tilde | is_backslash) & kHighs) break;
    }
    // Byte by byte up to the next word: a newline or tab continues the run.
    const std::size_t word_end = std::min(text.size(), i + 8);
    for (; i < word_end; ++i)
      if (!kDocstringAsIs[static_cast<unsigned char>(text[i])]) return i;
    if (i == text.size()) return i;
  }
}

#if UNVEIL_SSE2
// The bytes of p[0..16) that do not print as themselves in a docstring, and
// tabs (rare: one compare fewer), as a vector of 0xff/0x00 lanes.
inline __m128i docstring_escapes16(const char* p) {
  const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i unprintable = not_printable_ascii16(c);
  const __m128i newline = _mm_cmpeq_epi8(c, _mm_set1_epi8('\n'));
  const __m128i backslash = _mm_cmpeq_epi8(c, _mm_set1_epi8('\\'));
  return _mm_or_si128(_mm_andnot_si128(newline, unprintable), backslash);
}
inline unsigned lane_mask(__m128i v) { return static_cast<unsigned>(_mm_movemask_epi8(v)); }
#endif

// The end of the run of characters from `i` that print as themselves, or an
// earlier tab (which prints as itself too). Most docstrings are nothing else,
// and some are kilobytes (Dynamo's code keeps the model's docstrings, many
// lines each): with SSE2, 64 bytes a step, and a newline does not stop it.
std::size_t docstring_run_end(std::string_view text, std::size_t i) {
#if UNVEIL_SSE2
  const char* p = text.data();
  const std::size_t n = text.size();
  if (n - i < 16) return docstring_run_end_words(text, i);
  for (; i + 64 <= n; i += 64) {
    const __m128i a = docstring_escapes16(p + i), b = docstring_escapes16(p + i + 16);
    const __m128i c = docstring_escapes16(p + i + 32), d = docstring_escapes16(p + i + 48);
    if (lane_mask(_mm_or_si128(_mm_or_si128(a, b), _mm_or_si128(c, d))) != 0) {
      const std::uint64_t m = lane_mask(a) | lane_mask(b) << 16 |
                              std::uint64_t(lane_mask(c)) << 32 | std::uint64_t(lane_mask(d)) << 48;
      return i + std::size_t(std::countr_zero(m));
    }
  }
  for (; i + 16 <= n; i += 16)
    if (const unsigned m = lane_mask(docstring_escapes16(p + i)))
      return i + std::size_t(std::countr_zero(m));
  if (i == n) return n;
  // The last 16 bytes, overlapping what was scanned: the lanes before i are dropped.
  const unsigned m = lane_mask(docstring_escapes16(p + n - 16)) >> (i - (n - 16));
  return m ? i + std::size_t(std::countr_zero(m)) : n;
#else
  return docstring_run_end_words(text, i);
#endif
}

// A docstring is written as ast.unparse writes it: triple-quoted, with real
// newlines and tabs, other escapes only where needed.
void Unparser::docstring(const std::string& utf8) {
  const std::string_view text = utf8;
  // Most docstrings need no escape: then the text is written as it is, not copied first.
  std::string escaped;
  std::string_view body = text;
  if (std::size_t run = docstring_run_end(text, 0); run != text.size()) {
    escaped.reserve(utf8.size());
    for (std::size_t i = 0; i < text.size();) {
      const std::size_t j = i == 0 ? run : docstring_run_end(text, i);
      escaped += text.substr(i, j - i);
      if (j == text.size()) break;
      const std::size_t n =
          std::min(utf8_length(static_cast<unsigned char>(text[j])), text.size() - j);
      const std::string_view ch = text.substr(j, n);
      if (ch == "\\")
        escaped += "\\\\";
      else if (ch == "\t")
        escaped += ch;
      else if (std::string e = repr_escape(ch); !e.empty())
        escaped += e;
      else
        escaped += ch;
      i = j + n;
    }
    body = escaped;
  }
  std::array<std::string_view, 2> quotes;
  std::size_t nquotes = 0;
  for (std::string_view q : {"\"\"\"", "'''"})
    if (body.find(q) == std::string_view::npos) quotes[nquotes++] = q;
  fill();
  if (nquotes == 0) {
    // Both triple quotes occur: fall back to repr's escaping inside triple quotes.
    std::string r = str_repr(utf8);
    std::string q(3, r.empty() ? '"' : r[0]);
    write(q);
    if (r.size() >= 2) write(std::string_view(r).substr(1, r.size() - 2));
    write(q);
    return;
  }
  // Prefer the quote whose character does not end the text; else escape the last character.
  // (The two quotes are of different characters.)
  std::string_view quote = quotes[0];
  if (nquotes == 2 && !body.empty() && quote[0] == body.back()) quote = quotes[1];
  write(quote);
  if (!body.empty() && quote[0] == body.back()) {
    write(body.substr(0, body.size() - 1));
    write("\\");
    write(body.substr(body.size() - 1));
  } else {
    write(body);
  }
  write(quote);
}

void Unparser::stmt(const Stmt& s, bool docstring_allowed) {
  Nested guard(depth_);
  pending_line_ = options_.line_comments ? s.line : 0;
  s.visit(
      [&](const auto& node) {
        using T = std::decay_t<decltype(node)>;
        if constexpr (std::is_same_v<T, ast::FunctionDef>) {
          function(node, "def");
        } else if constexpr (std::is_same_v<T, ast::AsyncFunctionDef>) {
          function(node, "async def");
        } else if constexpr (std::is_same_v<T, ast::ClassDef>) {
          class_def(node);
        } else if constexpr (std::is_same_v<T, ast::Return>) {
          fill("return");
          if (node.value) {
            write(" ");
            expr(node.value, Prec::Test);
          }
        } else if constexpr (std::is_same_v<T, ast::Delete>) {
          fill("del ");
          interleave(node.targets, ", ", [&](const ExprPtr& t) { expr(t, Prec::Test); });
        } else if constexpr (std::is_same_v<T, ast::Assign>) {
          fill();
          for (const auto& target : node.targets) {
            expr(target, Prec::Tuple);
            write(" = ");
          }
          expr(node.value, Prec::Test);
        } else if constexpr (std::is_same_v<T, ast::TypeAlias>) {
          fill("type ");
          expr(node.name, Prec::Test);
          type_params(node.type_params);
          write(" = ");
          expr(node.value, Prec::Test);
        } else if constexpr (std::is_same_v<T, ast::AugAssign>) {
          fill();
          expr(node.target, Prec::Test);
          write(" ");
          write(ast::symbol(node.op));
          write("= ");
          expr(node.value, Prec::Test);
        } else if constexpr (std::is_same_v<T, ast::AnnAssign>) {
          fill();
          bool parens = !node.simple && node.target && node.target->template is<ast::Name>();
          parens_if(parens, [&] { expr(node.target, Prec::Test); });
          write(": ");
          expr(node.annotation, Prec::Test);
          if (node.value) {
            write(" = ");
            expr(node.value, Prec::Test);
          }
        } else if constexpr (std::is_same_v<T, ast::AsyncFor>) {
          for_loop(node, "async for ");
        } else if constexpr (std::is_same_v<T, ast::For>) {
          for_loop(node, "for ");
        } else if constexpr (std::is_same_v<T, ast::While>) {
          fill("while ");
          expr(node.test, Prec::Test);
          block(node.body);
          if (!node.orelse.empty()) {
            fill("else");
            block(node.orelse);
          }
        } else if constexpr (std::is_same_v<T, ast::If>) {
          if_stmt(node);
        } else if constexpr (std::is_same_v<T, ast::AsyncWith>) {
          with_stmt(node, "async with ");
        } else if constexpr (std::is_same_v<T, ast::With>) {
          with_stmt(node, "with ");
        } else if constexpr (std::is_same_v<T, ast::Match>) {
          match_stmt(node);
        } else if constexpr (std::is_same_v<T, ast::Raise>) {
          fill("raise");
          if (node.exc) {
            write(" ");
            expr(node.exc, Prec::Test);
            if (node.cause) {
              write(" from ");
              expr(node.cause, Prec::Test);
            }
          }
        } else if constexpr (std::is_same_v<T, ast::TryStar>) {
          try_stmt(node, /*star=*/true);
        } else if constexpr (std::is_same_v<T, ast::Try>) {
          try_stmt(node, /*star=*/false);
        } else if constexpr (std::is_same_v<T, ast::Assert>) {
          fill("assert ");
          expr(node.test, Prec::Test);
          if (node.msg) {
            write(", ");
            expr(node.msg, Prec::Test);
          }
        } else if constexpr (std::is_same_v<T, ast::Import>) {
          fill("import ");
          interleave(node.names, ", ", [&](const ast::Alias& a) { alias(a, /*dotted=*/true); });
        } else if constexpr (std::is_same_v<T, ast::ImportFrom>) {
          import_from(node);
        } else if constexpr (std::is_same_v<T, ast::Global> || std::is_same_v<T, ast::Nonlocal>) {
          fill(std::is_same_v<T, ast::Global> ? "global " : "nonlocal ");
          interleave(node.names, ", ",
                     [&](const std::string& n) { write_name(n, NameRole::Variable); });
        } else if constexpr (std::is_same_v<T, ast::ExprStmt>) {
          const ast::Constant* c = node.value ? node.value->template as<ast::Constant>() : nullptr;
          const StrValue* str = c && c->value ? c->value->template as<StrValue>() : nullptr;
          if (docstring_allowed && str) {
            docstring(str->utf8);
          } else {
            fill();
            expr(node.value, Prec::Yield);
          }
        } else if constexpr (std::is_same_v<T, ast::Pass>) {
          fill("pass");
        } else if constexpr (std::is_same_v<T, ast::Break>) {
          fill("break");
        } else if constexpr (std::is_same_v<T, ast::Continue>) {
          fill("continue");
        } else if constexpr (std::is_same_v<T, ast::Comment>) {
          comment(node);
        } else {
          static_assert(!sizeof(T), "every statement needs a case");
        }
      });
  flush_line_comment();
}

// --- expressions -------------------------------------------------------------

void Unparser::items_view(const ExprList& items) {
  if (items.size() == 1) {
    expr(items[0], Prec::Test);
    write(",");
    return;
  }
  interleave(items, ", ", [&](const ExprPtr& e) { expr(e, Prec::Test); });
}

void Unparser::comprehension_body(const ExprPtr& elt, const ExprPtr* value,
                                  const std::vector<ast::Comprehension>& generators) {
  expr(elt, Prec::Test);
  if (value) {
    write(": ");
    expr(*value, Prec::Test);
  }
  for (const auto& g : generators) {
    write(g.is_async ? " async for " : " for ");
    expr(g.target, Prec::Tuple);
    write(" in ");
    expr(g.iter, next(Prec::Test));
    for (const auto& cond : g.ifs) {
      if (g.ifs_on_own_line) {
        // Inside brackets a line may break anywhere; one level deeper reads best.
        write("\n");
        for (int i = 0; i <= indent_; ++i) write("    ");
        write("if ");
      } else {
        write(" if ");
      }
      expr(cond, next(Prec::Test));
    }
  }
}

void Unparser::call(const ast::Call& c) {
  expr(c.func, Prec::Atom);
  write("(");
  // A generator that is the only argument needs no parentheses of its own.
  const ast::GeneratorExp* sole = c.args.size() == 1 && c.keywords.empty() && c.args[0]
                                      ? c.args[0]->as<ast::GeneratorExp>()
                                      : nullptr;
  if (sole) {
    comprehension_body(sole->elt, nullptr, sole->generators);
  } else {
    interleave(c.args, ", ", [&](const ExprPtr& a) { expr(a, Prec::Test); });
    if (!c.args.empty() && !c.keywords.empty()) write(", ");
    interleave(c.keywords, ", ", [&](const ast::Keyword& k) { keyword(k); });
  }
  write(")");
}

void Unparser::expr(const ExprPtr& e, Prec p) {
  if (!e) {
    write(kMissing);
    return;
  }
  Nested guard(depth_);
  std::visit([&](const auto& node) { visit(node, p); }, e->node);
}

template <class T>
void Unparser::visit(const T& node, Prec p) {
  if constexpr (std::is_same_v<T, ast::BoolOp>) {
    Prec op = node.op == ast::BoolOperator::And ? Prec::And : Prec::Or;
    parens_if(p > op, [&] {
      // As ast.unparse: each operand binds one level tighter than the one before.
      std::size_t i = 0;
      interleave(node.values, node.op == ast::BoolOperator::And ? " and " : " or ",
                 [&](const ExprPtr& v) { expr(v, nth_next(op, ++i)); });
    });
  } else if constexpr (std::is_same_v<T, ast::NamedExpr>) {
    parens_if(p > Prec::NamedExpr, [&] {
      expr(node.target, Prec::Atom);
      write(" := ");
      expr(node.value, Prec::Atom);
    });
  } else if constexpr (std::is_same_v<T, ast::BinOp>) {
    Prec op = binop_prec(node.op);
    bool right_assoc = node.op == ast::Operator::Pow;
    parens_if(p > op, [&] {
      expr(node.left, right_assoc ? next(op) : op);
      write(" ");
      write(ast::symbol(node.op));
      write(" ");
      expr(node.right, right_assoc ? op : next(op));
    });
  } else if constexpr (std::is_same_v<T, ast::UnaryOp>) {
    bool is_not = node.op == ast::UnaryOperator::Not;
    Prec op = is_not ? Prec::Not : Prec::Factor;
    parens_if(p > op, [&] {
      write(ast::symbol(node.op));
      if (is_not) write(" ");
      expr(node.operand, op);
    });
  } else if constexpr (std::is_same_v<T, ast::Lambda>) {
    parens_if(p > Prec::Test, [&] {
      write("lambda");
      std::string args = capture([&] { arguments(*node.args, /*annotations=*/false); });
      if (!args.empty()) {
        write(" ");
        write(args);
      }
      write(": ");
      expr(node.body, Prec::Test);
    });
  } else if constexpr (std::is_same_v<T, ast::IfExp>) {
    parens_if(p > Prec::Test, [&] {
      expr(node.body, next(Prec::Test));
      write(" if ");
      expr(node.test, next(Prec::Test));
      write(" else ");
      expr(node.orelse, Prec::Test);
    });
  } else if constexpr (std::is_same_v<T, ast::Dict>) {
    write("{");
    std::size_t n = std::min(node.keys.size(), node.values.size());
    for (std::size_t i = 0; i < n; ++i) {
      if (i) write(", ");
      if (node.keys[i]) {
        expr(node.keys[i], Prec::Test);
        write(": ");
        expr(node.values[i], Prec::Test);
      } else {
        write("**");
        expr(node.values[i], Prec::BOr);
      }
    }
    write("}");
  } else if constexpr (std::is_same_v<T, ast::Set>) {
    if (node.elts.empty()) {
      write("{*()}");  // `{}` is a dict, and `set` may be shadowed
    } else {
      write("{");
      interleave(node.elts, ", ", [&](const ExprPtr& e) { expr(e, Prec::Test); });
      write("}");
    }
  } else if constexpr (std::is_same_v<T, ast::ListComp>) {
    write("[");
    comprehension_body(node.elt, nullptr, node.generators);
    write("]");
  } else if constexpr (std::is_same_v<T, ast::SetComp>) {
    write("{");
    comprehension_body(node.elt, nullptr, node.generators);
    write("}");
  } else if constexpr (std::is_same_v<T, ast::DictComp>) {
    write("{");
    comprehension_body(node.key, &node.value, node.generators);
    write("}");
  } else if constexpr (std::is_same_v<T, ast::GeneratorExp>) {
    write("(");
    comprehension_body(node.elt, nullptr, node.generators);
    write(")");
  } else if constexpr (std::is_same_v<T, ast::Await>) {
    parens_if(p > Prec::Await, [&] {
      write("await ");
      expr(node.value, Prec::Atom);
    });
  } else if constexpr (std::is_same_v<T, ast::Yield>) {
    parens_if(p > Prec::Yield, [&] {
      write("yield");
      if (node.value) {
        write(" ");
        expr(node.value, Prec::Atom);
      }
    });
  } else if constexpr (std::is_same_v<T, ast::YieldFrom>) {
    parens_if(p > Prec::Yield, [&] {
      write("yield from ");
      expr(node.value, Prec::Atom);
    });
  } else if constexpr (std::is_same_v<T, ast::Compare>) {
    parens_if(p > Prec::Cmp, [&] {
      expr(node.left, next(Prec::Cmp));
      std::size_t n = std::min(node.ops.size(), node.comparators.size());
      for (std::size_t i = 0; i < n; ++i) {
        write(" ");
        write(ast::symbol(node.ops[i]));
        write(" ");
        expr(node.comparators[i], next(Prec::Cmp));
      }
    });
  } else if constexpr (std::is_same_v<T, ast::Call>) {
    call(node);
  } else if constexpr (std::is_same_v<T, ast::FormattedValue> ||
                       std::is_same_v<T, ast::Interpolation>) {
    // A lone field (outside any f-string) prints as an f-string of that field.
    ExprPtr self = ast::make_node<Expr>(Expr{node});
    fstring(ExprList{self}, std::is_same_v<T, ast::Interpolation> ? 't' : 'f', p, nullptr);
  } else if constexpr (std::is_same_v<T, ast::JoinedStr>) {
    fstring(node.values, 'f', p, &node);
  } else if constexpr (std::is_same_v<T, ast::TemplateStr>) {
    fstring(node.values, 't', p, &node);
  } else if constexpr (std::is_same_v<T, ast::Constant>) {
    if (node.value)
      constant(*node.value, p);
    else
      write(kMissing);
  } else if constexpr (std::is_same_v<T, ast::Attribute>) {
    const ast::Constant* base = node.value ? node.value->template as<ast::Constant>() : nullptr;
    if (base && base->value)
      constant(*base->value, Prec::Atom, /*attribute_base=*/true);
    else
      expr(node.value, Prec::Atom);
    write(".");
    write_name(node.attr, NameRole::Attribute);
  } else if constexpr (std::is_same_v<T, ast::Subscript>) {
    expr(node.value, Prec::Atom);
    write("[");
    const ast::Tuple* t = node.slice ? node.slice->template as<ast::Tuple>() : nullptr;
    // `x[a, b]` needs no parentheses, but `x[*a, b]` is 3.11+: `x[(*a, b)]` is the same tree.
    bool starred = t && std::any_of(t->elts.begin(), t->elts.end(),
                                    [](const ExprPtr& e) { return e && e->is<ast::Starred>(); });
    if (t && !t->elts.empty() && !starred)
      items_view(t->elts);
    else
      expr(node.slice, Prec::Test);
    write("]");
  } else if constexpr (std::is_same_v<T, ast::Starred>) {
    write("*");
    expr(node.value, Prec::BOr);
  } else if constexpr (std::is_same_v<T, ast::Name>) {
    if (node.source_text)
      parens_if(p > Prec::Test, [&] { write(node.id); });
    else
      write_name(node.id, NameRole::Variable);
  } else if constexpr (std::is_same_v<T, ast::List>) {
    write("[");
    interleave(node.elts, ", ", [&](const ExprPtr& e) { expr(e, Prec::Test); });
    write("]");
  } else if constexpr (std::is_same_v<T, ast::Tuple>) {
    parens_if(node.elts.empty() || p > Prec::Tuple, [&] { items_view(node.elts); });
  } else if constexpr (std::is_same_v<T, ast::Slice>) {
    if (node.lower) expr(node.lower, Prec::Test);
    write(":");
    if (node.upper) expr(node.upper, Prec::Test);
    if (node.step) {
      write(":");
      expr(node.step, Prec::Test);
    }
  } else {
    static_assert(!sizeof(T), "every expression needs a case");
  }
}

// --- constants ---------------------------------------------------------------

// inf and nan have no literal: ast.unparse's overflowing `1e309` stands for
// inf, and `1e309-1e309` for nan.
std::string Unparser::float_text(double value) {
  if (std::isnan(value)) return "(1e309-1e309)";
  if (std::isinf(value)) return value > 0 ? "1e309" : "-1e309";
  return float_repr(value);
}

// A str or bytes literal. Outside f-string fields this is repr(); inside, a
// quote and no backslash must do, or the literal is impossible there.
std::string Unparser::string_text(std::string_view data, bool is_bytes) {
  if (!strings_.restricted) return is_bytes ? bytes_repr(data) : str_repr(data);
  bool plain = true;
  if (is_bytes) {
    for (unsigned char c : data) plain = plain && c >= 0x20 && c < 0x7f && c != '\\';
  } else {
    for_each_char(
        data, [&](std::string_view ch) { plain = plain && ch != "\\" && repr_escape(ch).empty(); });
  }
  if (plain) {
    for (const QuoteInfo& q : kQuoteOrder) {
      if (!(strings_.quotes & q.bit)) continue;
      char c = q.text[0];
      bool fits = q.text.size() == 1 ? data.find(c) == std::string_view::npos
                                     : data.find(q.text) == std::string_view::npos &&
                                           (data.empty() || data.back() != c);
      if (fits)
        return std::string(is_bytes ? "b" : "") + std::string(q.text) + std::string(data) +
               std::string(q.text);
    }
  }
  impossible_ = true;
  return is_bytes ? bytes_repr(data) : str_repr(data);
}

std::string Unparser::constant_text(const Object& value) {
  auto items = [&](const std::vector<ObjectRef>& list, std::string_view open,
                   std::string_view close, bool trailing_comma_if_one) {
    std::string out(open);
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (i) out += ", ";
      out += list[i] ? constant_text(*list[i]) : std::string(kMissing);
    }
    if (trailing_comma_if_one && list.size() == 1) out += ",";
    out += close;
    return out;
  };
  auto part = [&](const ObjectRef& ref) { return ref ? constant_text(*ref) : std::string("None"); };
  return std::visit(
      [&](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, NoneValue>)
          return "None";
        else if constexpr (std::is_same_v<T, EllipsisValue>)
          return "...";
        else if constexpr (std::is_same_v<T, BoolValue>)
          return v.value ? "True" : "False";
        else if constexpr (std::is_same_v<T, IntValue>)
          return v.to_decimal();
        else if constexpr (std::is_same_v<T, FloatValue>)
          return float_text(v.value);
        else if constexpr (std::is_same_v<T, ComplexValue>) {
          if (std::isfinite(v.real) && std::isfinite(v.imag)) return literal_repr(value);
          return "complex(" + float_text(v.real) + ", " + float_text(v.imag) + ")";
        } else if constexpr (std::is_same_v<T, StrValue>)
          return string_text(v.utf8, false);
        else if constexpr (std::is_same_v<T, BytesValue>)
          return string_text(v.data, true);
        else if constexpr (std::is_same_v<T, TupleValue>)
          return items(v.items, "(", ")", true);
        else if constexpr (std::is_same_v<T, ListValue>)
          return items(v.items, "[", "]", false);
        else if constexpr (std::is_same_v<T, SetValue>)
          return v.items.empty() ? "set()" : items(v.items, "{", "}", false);
        else if constexpr (std::is_same_v<T, FrozenSetValue>)
          return v.items.empty() ? "frozenset()"
                                 : "frozenset(" + items(v.items, "{", "}", false) + ")";
        else if constexpr (std::is_same_v<T, DictValue>) {
          std::string out = "{";
          for (std::size_t i = 0; i < v.items.size(); ++i) {
            if (i) out += ", ";
            out += part(v.items[i].first) + ": " + part(v.items[i].second);
          }
          return out + "}";
        } else if constexpr (std::is_same_v<T, SliceValue>)
          return "slice(" + part(v.start) + ", " + part(v.stop) + ", " + part(v.step) + ")";
        else if constexpr (std::is_same_v<T, PlaceholderValue>)
          return map_name(v.name, NameRole::Placeholder);
        else if constexpr (std::is_same_v<T, CodeValue>)
          return v.code ? map_name(code_constant_name(*v.code), NameRole::Placeholder)
                        : literal_repr(value);
        else
          return literal_repr(value);  // StopIteration, NULL
      },
      value.value);
}

void Unparser::constant(const Object& value, Prec p, bool attribute_base) {
  // A str outside f-string fields is its repr, written in place (never in parentheses).
  if (const auto* s = value.as<StrValue>(); s && !strings_.restricted) {
    if (str_repr_is_quoted(s->utf8)) {  // (most are: written from the text, no repr built)
      out_.push_back('\'');
      out_.append(s->utf8);
      out_.push_back('\'');
      return;
    }
    scratch_.clear();  // (kept: its room serves the next string)
    append_escaped_str_repr(scratch_, s->utf8);  // (str_repr_is_quoted said no)
    out_.append(scratch_);
    return;
  }
  std::string text = constant_text(value);
  // A negative number is a unary minus to the grammar; `1.real` would lex as a float.
  bool parens = (!text.empty() && text[0] == '-' && p > Prec::Factor) ||
                (attribute_base && value.is<IntValue>());
  parens_if(parens, [&] { write(text); });
}

// --- f-strings ---------------------------------------------------------------

// A Constant part of an f-string (or of its format spec), escaped for `quote`.
std::optional<std::string> Unparser::fstring_literal(std::string_view text, const QuoteInfo& quote,
                                                     bool escape_quotes, bool literal_backslashes,
                                                     bool in_spec) {
  std::string out;
  bool ok = true;
  for_each_char(text, [&](std::string_view ch) {
    if (!ok) return;
    if (ch == "{" || ch == "}") {
      // A spec cannot hold a literal brace: `{{` there opens a nested field.
      if (in_spec) ok = false;
      out += ch;
      out += ch;
      return;
    }
    std::string escape = ch == "\\" ? "\\\\" : repr_escape(ch);
    if (escape.empty() && ch.size() == 1 && ch[0] == quote.text[0]) {
      if (!escape_quotes) {
        ok = false;
        return;
      }
      escape = std::string("\\") + ch[0];
    }
    if (escape.empty()) {
      out += ch;
    } else if (literal_backslashes) {
      out += escape;
    } else {
      ok = false;
    }
  });
  if (!ok) return std::nullopt;
  return out;
}

// One replacement field `{value!c:spec}`; nullopt when its text cannot live
// inside a `quote`-quoted f-string.
std::optional<std::string> Unparser::fstring_field(const Expr& field, const QuoteInfo& quote,
                                                   StrContext inner, bool escape_quotes,
                                                   bool literal_backslashes, bool check_fields) {
  // A FormattedValue/Interpolation, or (bad input) any other expression as a bare field.
  ExprPtr value;
  int conversion = -1;
  const Expr* spec = nullptr;
  if (const auto* fv = field.as<ast::FormattedValue>()) {
    value = fv->value;
    conversion = fv->conversion;
    spec = fv->format_spec.get();
  } else if (const auto* in = field.as<ast::Interpolation>()) {
    value = in->value;
    conversion = in->conversion;
    spec = in->format_spec.get();
  } else {
    value = ExprPtr(ExprPtr{}, &field);
  }
  StrContext saved_strings = strings_;
  bool saved_impossible = impossible_;
  strings_ = inner;
  impossible_ = false;
  std::string text = capture([&] { expr(value, next(Prec::Test)); });
  bool failed = impossible_;
  strings_ = saved_strings;
  impossible_ = saved_impossible;
  if (failed) return std::nullopt;
  if (check_fields) {
    // Before 3.12 the field is part of the string token: it may not end the
    // token (hold the quote, or for a triple quote the three characters), nor
    // hold a backslash or a newline.
    if (text.find(quote.text) != std::string::npos ||
        text.find_first_of("\\\n\r") != std::string::npos)
      return std::nullopt;
  }
  std::string out = "{";
  if (!text.empty() && text[0] == '{') out += " ";  // `{{` would be a literal brace
  out += text;
  if (conversion == 's' || conversion == 'r' || conversion == 'a') {
    out += "!";
    out += char(conversion);
  }
  if (spec) {
    out += ":";
    const ast::JoinedStr* parts = spec->as<ast::JoinedStr>();
    auto spec_part = [&](const Expr& part) -> std::optional<std::string> {
      const ast::Constant* c = part.as<ast::Constant>();
      const StrValue* s = c && c->value ? c->value->as<StrValue>() : nullptr;
      if (s) return fstring_literal(s->utf8, quote, escape_quotes, literal_backslashes, true);
      return fstring_field(part, quote, inner, escape_quotes, literal_backslashes, check_fields);
    };
    if (parts) {
      for (const auto& part : parts->values) {
        if (!part) return std::nullopt;
        auto piece = spec_part(*part);
        if (!piece) return std::nullopt;
        out += *piece;
      }
    } else {
      auto piece = spec_part(*spec);
      if (!piece) return std::nullopt;
      out += *piece;
    }
  }
  out += "}";
  return out;
}

std::optional<std::string> Unparser::fstring_body(const ExprList& values, const QuoteInfo& quote,
                                                  StrContext inner, bool escape_quotes,
                                                  bool literal_backslashes, bool check_fields) {
  std::string body;
  for (const auto& part : values) {
    if (!part) return std::nullopt;
    const ast::Constant* c = part->as<ast::Constant>();
    const StrValue* s = c && c->value ? c->value->as<StrValue>() : nullptr;
    auto piece =
        s ? fstring_literal(s->utf8, quote, escape_quotes, literal_backslashes, false)
          : fstring_field(*part, quote, inner, escape_quotes, literal_backslashes, check_fields);
    if (!piece) return std::nullopt;
    body += *piece;
  }
  return body;
}

// Picks the quotes of an f-string (or t-string). Before 3.12 a replacement
// field is part of the string token, so nested strings must use other quotes
// and no backslashes. Tried in turn, first with ' and ", then with triple
// quotes: fields printed as they like under a quote they leave free
// (f"{x['a']}"), then fields forced to the other quotes; last, escaping the
// quote in the literal text. When none works, PEP 701 rules are used if the
// output may need 3.12 (always for t-strings, which need 3.14), else the
// f-string is rewritten with format() calls.
void Unparser::fstring(const ExprList& values, char prefix, Prec p, const void* memo_key) {
  if (!memo_key) {
    fstring_search(values, prefix, p);
    return;
  }
  FStringKey key{memo_key, strings_.restricted, strings_.quotes, p};
  if (auto it = fstring_memo_.find(key); it != fstring_memo_.end()) {
    write(it->second.first);
    impossible_ = impossible_ || it->second.second;
    return;
  }
  bool saved_impossible = impossible_;
  impossible_ = false;
  std::string text = capture([&] { fstring_search(values, prefix, p); });
  fstring_memo_.emplace(key, std::make_pair(text, impossible_));
  impossible_ = impossible_ || saved_impossible;
  write(text);
}

void Unparser::fstring_search(const ExprList& values, char prefix, Prec p) {
  const StrContext outer = strings_;
  const bool literal_backslashes = !outer.restricted;
  struct Pass {
    bool forced;
    unsigned quotes;
    bool escape;
  };
  constexpr unsigned kSingles = kSingle | kDouble, kTriples = kTripleDouble | kTripleSingle;
  constexpr Pass kPasses[] = {{false, kSingles, false},
                              {true, kSingles, false},
                              {false, kTriples, false},
                              {true, kTriples, false},
                              {true, kAllQuotes, true}};
  std::optional<std::string> body;
  const QuoteInfo* chosen = nullptr;
  for (const Pass& pass : kPasses) {
    for (const QuoteInfo& q : kQuoteOrder) {
      if (!(outer.quotes & pass.quotes & q.bit)) continue;
      unsigned inner = pass.forced ? (outer.quotes & compatible_quotes(q)) : outer.quotes;
      body = fstring_body(values, q, StrContext{true, inner}, pass.escape, literal_backslashes,
                          /*check_fields=*/true);
      if (body) {
        chosen = &q;
        break;
      }
    }
    if (body) break;
  }
  bool pep701 = prefix == 't' || options_.min_python_minor >= 12;
  if (!body && pep701) {
    // Any quote may recur and fields may hold backslashes.
    chosen = &kQuoteOrder[0];
    body = fstring_body(values, *chosen, StrContext{}, /*escape_quotes=*/true,
                        /*literal_backslashes=*/true, /*check_fields=*/false);
  }
  if (!body) {
    if (prefix == 'f') {
      fstring_fallback(values, p);
      return;
    }
    // Only a literal brace in a format spec gets here; no t-string can spell it.
    impossible_ = true;
    write("t''");
    return;
  }
  write(std::string(1, prefix));
  write(chosen->text);
  write(*body);
  write(chosen->text);
}

// `'lit' + format(value, spec) + ...`: what an f-string computes, without one.
void Unparser::fstring_fallback(const ExprList& values, Prec p) {
  std::vector<std::string> parts;
  for (const auto& part : values) {
    if (!part) continue;
    const ast::Constant* c = part->as<ast::Constant>();
    if (c && c->value && c->value->is<StrValue>()) {
      parts.push_back(string_text(c->value->as<StrValue>()->utf8, false));
      continue;
    }
    ExprPtr value = part;
    int conversion = -1;
    ExprPtr spec;
    if (const auto* fv = part->as<ast::FormattedValue>()) {
      value = fv->value;
      conversion = fv->conversion;
      spec = fv->format_spec;
    }
    std::string text = "format(";
    const char* wrap = conversion == 'r'   ? "repr("
                       : conversion == 's' ? "str("
                       : conversion == 'a' ? "ascii("
                                           : nullptr;
    text += capture([&] {
      if (wrap) write(wrap);
      expr(value, Prec::Test);
      if (wrap) write(")");
      if (spec) {
        write(", ");
        const ast::JoinedStr* js = spec->as<ast::JoinedStr>();
        bool all_text =
            js && std::all_of(js->values.begin(), js->values.end(), [](const ExprPtr& v) {
              const ast::Constant* k = v ? v->as<ast::Constant>() : nullptr;
              return k && k->value && k->value->is<StrValue>();
            });
        if (all_text) {
          std::string joined;
          for (const auto& v : js->values)
            joined += v->as<ast::Constant>()->value->as<StrValue>()->utf8;
          write(string_text(joined, false));
        } else {
          expr(spec, Prec::Test);
        }
      }
    });
    text += ")";
    parts.push_back(std::move(text));
  }
  if (parts.empty()) {
    write(string_text("", false));
    return;
  }
  parens_if(parts.size() > 1 && p > Prec::Arith,
            [&] { interleave(parts, " + ", [&](const std::string& s) { write(s); }); });
}

// --- patterns ----------------------------------------------------------------

void Unparser::pattern(const PatternPtr& pat, Prec p) {
  if (!pat) {
    write(kMissing);
    return;
  }
  Nested guard(depth_);
  std::visit(
      [&](const auto& node) {
        using T = std::decay_t<decltype(node)>;
        if constexpr (std::is_same_v<T, ast::MatchValue>) {
          expr(node.value, Prec::Test);
        } else if constexpr (std::is_same_v<T, ast::MatchSingleton>) {
          if (node.value)
            write(constant_text(*node.value));
          else
            write("None");
        } else if constexpr (std::is_same_v<T, ast::MatchSequence>) {
          write("[");
          interleave(node.patterns, ", ", [&](const PatternPtr& q) { pattern(q, Prec::Test); });
          write("]");
        } else if constexpr (std::is_same_v<T, ast::MatchMapping>) {
          write("{");
          std::size_t n = std::min(node.keys.size(), node.patterns.size());
          for (std::size_t i = 0; i < n; ++i) {
            if (i) write(", ");
            expr(node.keys[i], Prec::Test);
            write(": ");
            pattern(node.patterns[i], Prec::Test);
          }
          if (node.rest) {
            if (n) write(", ");
            write("**");
            write_name(*node.rest, NameRole::Variable);
          }
          write("}");
        } else if constexpr (std::is_same_v<T, ast::MatchClass>) {
          expr(node.cls, Prec::Atom);
          write("(");
          interleave(node.patterns, ", ", [&](const PatternPtr& q) { pattern(q, Prec::Test); });
          std::size_t n = std::min(node.kwd_attrs.size(), node.kwd_patterns.size());
          for (std::size_t i = 0; i < n; ++i) {
            if (i || !node.patterns.empty()) write(", ");
            write_name(node.kwd_attrs[i], NameRole::Attribute);
            write("=");
            pattern(node.kwd_patterns[i], Prec::Test);
          }
          write(")");
        } else if constexpr (std::is_same_v<T, ast::MatchStar>) {
          write("*");
          if (node.name)
            write_name(*node.name, NameRole::Variable);
          else
            write("_");
        } else if constexpr (std::is_same_v<T, ast::MatchAs>) {
          if (!node.name) {
            write("_");
          } else if (!node.pattern) {
            write_name(*node.name, NameRole::Variable);
          } else {
            parens_if(p > Prec::Test, [&] {
              pattern(node.pattern, Prec::BOr);
              write(" as ");
              write_name(*node.name, NameRole::Variable);
            });
          }
        } else if constexpr (std::is_same_v<T, ast::MatchOr>) {
          parens_if(p > Prec::BOr, [&] {
            interleave(node.patterns, " | ",
                       [&](const PatternPtr& q) { pattern(q, next(Prec::BOr)); });
          });
        } else {
          static_assert(!sizeof(T), "every pattern needs a case");
        }
      },
      pat->node);
}

// Runs `emit` on an Unparser. With the default name mapping, a first pass
// checks the tree's names; only when some are invalid do two more passes
// collect the valid ones and rename the others, so that no rename collides.
// The first pass drops the statements of `drop` as it prints them; nullopt
// when it did and then met a name to rename.
template <class F>
std::optional<std::string> run(const UnparseOptions& options, F&& emit, const StmtList* drop = nullptr) {
  if (options.name_mapper) {
    Unparser u(options);
    u.drop_printed(drop);
    emit(u);
    return u.take();
  }
  DefaultNames names;
  Unparser first(options, &names, DefaultNames::Pass::Check);
  first.drop_printed(drop);
  emit(first);
  if (!names.saw_invalid()) return first.take();
  if (first.dropped_any()) return std::nullopt;
  Unparser collect(options, &names, DefaultNames::Pass::Collect);
  emit(collect);
  Unparser assign(options, &names, DefaultNames::Pass::Assign);
  emit(assign);
  return assign.take();
}

}  // namespace

std::string unparse(const ast::Module& module, const UnparseOptions& options) {
  return unparse(module.body, options);
}

std::string unparse(const ast::StmtList& body, const UnparseOptions& options) {
  return *run(options, [&](Unparser& u) { u.module(body); });
}

std::optional<std::string> unparse_dropping(ast::Module& module, const UnparseOptions& options) {
  // The module's statements, or a lone def's when the module holds just one
  // that nothing else holds (a decompiled function).
  const ast::StmtList* list = &module.body;
  if (module.body.size() == 1 && module.body[0] && module.body[0].use_count() == 1) {
    if (auto* f = module.body[0]->as<ast::FunctionDef>()) list = &f->body;
    else if (auto* a = module.body[0]->as<ast::AsyncFunctionDef>()) list = &a->body;
  }
  return run(options, [&](Unparser& u) { u.module(module.body); }, list);
}

std::string unparse_expr(const ast::Expr& expr, const UnparseOptions& options) {
  auto ptr = ast::ExprPtr(ast::ExprPtr{}, &expr);
  return *run(options, [&](Unparser& u) { u.expr(ptr, Prec::Test); });
}

std::string unparse_pattern(const ast::Pattern& pattern, const UnparseOptions& options) {
  auto ptr = ast::PatternPtr(ast::PatternPtr{}, &pattern);
  return *run(options, [&](Unparser& u) { u.pattern(ptr, Prec::Test); });
}

}  // namespace unveil
