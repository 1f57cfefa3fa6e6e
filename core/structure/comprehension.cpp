// Comprehension code objects (≤3.11 `<listcomp>` and friends; genexprs on
// every version) back to comprehension expressions.
#include <algorithm>
#include <optional>

#include "ast/build.h"
#include "structure/comprehension.h"
#include "lift/lifter.h"
#include "structure/simplify.h"

namespace unveil::structure {

using ast::ExprPtr;
using ast::StmtList;

namespace {

struct Element {
  ExprPtr elt, key;  // key set for a dict comprehension
};

bool is_marker_call(const ExprPtr& e, const char* marker, std::size_t nargs) {
  auto* c = e->as<ast::Call>();
  if (!c || c->args.size() != nargs) return false;
  auto* n = c->func->as<ast::Name>();
  return n && n->id == marker;
}

// When control runs through `stmts` (ifs whose arms only `continue` or go
// on) to what follows: a filter. std::nullopt when `stmts` does more. A condition that picks between two filters, as
// `if (x if c else y)` compiles, is that conditional expression.
struct Filter {
  bool always = false, never = false;
  ExprPtr expr;  // set when neither

  static Filter pass_all() { return {true, false, nullptr}; }
  static Filter pass_none() { return {false, true, nullptr}; }
  static Filter when(ExprPtr e) { return {false, false, std::move(e)}; }
};
std::optional<Filter> filter_of(const StmtList& stmts);

ExprPtr filter_value(const Filter& f) { return f.expr ? f.expr : ast::boolean(f.always); }

std::optional<Filter> filter_of_if(const ast::If& i) {
  auto then = filter_of(i.body), otherwise = filter_of(i.orelse);
  if (!then || !otherwise) return std::nullopt;
  if (then->always && otherwise->always) return Filter::pass_all();
  if (then->never && otherwise->never) return Filter::pass_none();
  if (then->always && otherwise->never) return Filter::when(i.test);
  if (then->never && otherwise->always) return Filter::when(negate(i.test));
  return Filter::when(ast::if_exp(i.test, filter_value(*then), filter_value(*otherwise)));
}

std::optional<Filter> filter_of(const StmtList& stmts) {
  std::optional<Filter> out = Filter::pass_all();
  for (const ast::StmtPtr& s : stmts) {
    if (s->is<ast::Pass>()) continue;
    if (s->is<ast::Continue>()) return Filter::pass_none();
    auto* i = s->as<ast::If>();
    if (!i || !out->always) return std::nullopt;  // (one if, then nothing but pass)
    out = filter_of_if(*i);
    if (!out) return std::nullopt;
  }
  return out;
}

bool has_continue(const StmtList& stmts) {
  for (const ast::StmtPtr& s : stmts) {
    if (s->is<ast::Continue>()) return true;
    if (auto* i = s->as<ast::If>(); i && (has_continue(i->body) || has_continue(i->orelse))) return true;
  }
  return false;
}

// One loop body: ifs, a nested for, or the element.
bool walk(const StmtList& body, std::vector<ast::Comprehension>& gens, Element& out) {
  StmtList stmts;
  StmtList work(body.rbegin(), body.rend());  // a stack: next statement at the back
  while (!work.empty()) {
    ast::StmtPtr s = work.back();
    work.pop_back();
    if (s->is<ast::Pass>() || s->is<ast::Continue>()) continue;
    // `if not c: continue` (else: the rest): a filter `if c`.
    if (auto* i = s->as<ast::If>(); i && stmts.empty() && i->body.size() == 1 &&
                                   i->body[0]->is<ast::Continue>()) {
      gens.back().ifs.push_back(negate(i->test));
      work.insert(work.end(), i->orelse.rbegin(), i->orelse.rend());
      continue;
    }
    // An if whose arms only continue or go on: one filter (a conditional
    // expression's jumps).
    if (auto* i = s->as<ast::If>(); i && stmts.empty() && (has_continue(i->body) || has_continue(i->orelse)))
      if (auto f = filter_of_if(*i); f && !f->always && !f->never) {
        gens.back().ifs.push_back(f->expr);
        continue;
      }
    stmts.push_back(s);
  }
  if (stmts.size() != 1) return false;
  const ast::StmtPtr& s = stmts[0];
  if (auto* i = s->as<ast::If>()) {
    for (const auto& o : i->orelse)
      if (!o->is<ast::Continue>() && !o->is<ast::Pass>()) return false;
    gens.back().ifs.push_back(i->test);
    return walk(i->body, gens, out);
  }
  bool is_async = false;
  if (const ast::For* f = loop_of(*s, &is_async)) {
    if (!f->orelse.empty()) return false;
    gens.push_back(ast::comprehension(f->target, f->iter, {}, is_async));
    return walk(f->body, gens, out);
  }
  auto* e = s->as<ast::ExprStmt>();
  if (!e) return false;
  if (is_marker_call(e->value, lift::kAppendMarker, 1)) {
    out.elt = e->value->as<ast::Call>()->args[0];
    return true;
  }
  if (is_marker_call(e->value, lift::kMapAddMarker, 2)) {
    out.key = e->value->as<ast::Call>()->args[0];
    out.elt = e->value->as<ast::Call>()->args[1];
    return true;
  }
  if (auto* y = e->value->as<ast::Yield>(); y && y->value) {
    out.elt = y->value;
    return true;
  }
  return false;
}

}  // namespace

const ast::For* loop_of(const ast::Stmt& s, bool* is_async) {
  if (auto* a = s.as<ast::AsyncFor>()) {
    if (is_async) *is_async = true;
    return a;
  }
  if (is_async) *is_async = false;
  return s.as<ast::For>();
}

ExprPtr rebuild_comprehension(ComprehensionKind kind, const ast::Stmt& stmt, const ExprPtr& iter,
                              bool ifs_on_own_line) {
  bool is_async = false;
  const ast::For* loop = loop_of(stmt, &is_async);
  if (!loop || !loop->orelse.empty()) return nullptr;
  std::vector<ast::Comprehension> gens{ast::comprehension(loop->target, iter ? iter : loop->iter, {}, is_async)};
  Element el;
  if (!walk(loop->body, gens, el) || !el.elt) return nullptr;
  for (ast::Comprehension& g : gens) g.ifs_on_own_line = ifs_on_own_line && !g.ifs.empty();
  switch (kind) {
    case ComprehensionKind::List: return ast::list_comp(el.elt, gens);
    case ComprehensionKind::Set: return ast::set_comp(el.elt, gens);
    case ComprehensionKind::Dict: return el.key ? ast::dict_comp(el.key, el.elt, gens) : nullptr;
    case ComprehensionKind::Generator: return ast::generator_exp(el.elt, gens);
  }
  return nullptr;
}

bool filter_on_own_line(const DecodedCode& code, std::uint32_t begin, std::uint32_t end) {
  auto line_at = [&](std::uint32_t offset) -> std::optional<int> {
    auto it = std::upper_bound(code.lines.begin(), code.lines.end(), offset,
                               [](std::uint32_t o, const LineRange& r) { return o < r.start; });
    if (it == code.lines.begin()) return std::nullopt;
    --it;
    return offset < it->end ? it->line : std::nullopt;
  };
  std::optional<int> element;
  std::vector<int> tests;
  for (const Instruction& i : code.instructions) {
    if (i.offset < begin || i.offset >= end || !i.info) continue;
    switch (i.op()) {
      case Op::LIST_APPEND: case Op::SET_ADD: case Op::MAP_ADD: case Op::YIELD_VALUE:
        element = line_at(i.offset);
        break;
      case Op::POP_JUMP_IF_FALSE: case Op::POP_JUMP_IF_TRUE: case Op::POP_JUMP_IF_NONE:
      case Op::POP_JUMP_IF_NOT_NONE:
        if (auto l = line_at(i.offset)) tests.push_back(*l);
        break;
      default:
        break;
    }
  }
  return element && std::any_of(tests.begin(), tests.end(), [&](int l) { return l != *element; });
}

bool has_comprehension_marker(const ast::StmtList& body) {
  for (const auto& s : body) {
    if (auto* e = s->as<ast::ExprStmt>())
      if (is_marker_call(e->value, lift::kAppendMarker, 1) || is_marker_call(e->value, lift::kMapAddMarker, 2))
        return true;
    if (auto* i = s->as<ast::If>())
      if (has_comprehension_marker(i->body) || has_comprehension_marker(i->orelse)) return true;
    if (const ast::For* f = loop_of(*s))
      if (has_comprehension_marker(f->body)) return true;
  }
  return false;
}

}  // namespace unveil::structure
