// The opcode handlers of lifting, one small function per opname (or family),
// found through an opname-keyed table.
#include "lift/lifter.h"

#include <algorithm>
#include <tuple>
#include <functional>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "ast/build.h"
#include "ast/identifier.h"
#include "ast/rewrite.h"
#include "decode/argument.h"
#include "lift/operators.h"
#include "lift/sinks.h"
#include "support/error.h"
#include "support/spare.h"
#include "support/tls.h"

namespace unveil::lift {

using ast::ExprPtr;
using ast::ExprList;
using Kind = Item::Kind;

namespace {
// A lambda the lifter took for a decorated function (`f(lambda: x)`): the
// calls that took it as a decorator are calls again, innermost first.
ExprPtr called_by_decorators(ExprPtr e, const FunctionValue& f) {
  for (auto d = f.decorators.rbegin(); d != f.decorators.rend(); ++d) e = ast::call(*d, {e});
  return e;
}
}  // namespace

struct Lifter::State {
  Lifter& lifter;
  const DecodedCode& code;
  const VersionRow& row;
  std::span<const Instruction> ins;
  std::size_t pos = 0;
  Stack stack{};
  ast::StmtList stmts{};
  Terminator term{};
  std::optional<std::vector<std::string>> kw_names{};  // 3.11–3.12 KW_NAMES
  bool skip_pop_top = false;
  bool pop_except = false;
  std::size_t after_pop_except = 0, stmts_before_pop_except = 0;
  bool reraise = false;
  bool end_finally = false;
  bool with_cleanup = false;
  ExprPtr exc_match{};  // the type CHECK_EXC_MATCH tested last

  const Instruction& cur() const { return ins[pos]; }
  [[noreturn]] void fail(const std::string& what) const {
    throw Error(ErrorKind::Decode, "lift: " + what + " at " + std::string(cur().name()),
                cur().offset);
  }
  ResolvedArg arg() const { return resolve_argument(code, cur()); }
  Definer& definer() { return lifter.definer_; }

  Item pop() {
    if (stack.empty()) fail("stack underflow");
    Item i = std::move(stack.back());
    stack.pop_back();
    return i;
  }
  Item& peek(std::size_t depth = 1) {
    if (stack.size() < depth) fail("stack underflow");
    return stack[stack.size() - depth];
  }
  Item fresh(ExprPtr e) {  // a value computed now
    Item i = Item::value(std::move(e));
    i.seq = ++lifter.value_count_;
    return i;
  }
  void push(ExprPtr e) {  // fresh(e), built in place: pushes are most of lifting
    Item& i = stack.emplace_back();
    i.expr = std::move(e);
    i.seq = ++lifter.value_count_;
  }
  void push(Item i) { stack.push_back(std::move(i)); }
  ExprPtr value(Item i);
  ExprPtr bound_value(const Item& i);
  bool walrus_into_enclosing(std::string_view name) const;
  void spill_all();
  std::string free_name(const std::string& own);
  ExprPtr defined_function(const Item& i);
  ExprPtr defined_class(const Item& i);
  ExprPtr defined_alias(const TypeAliasSink& alias);
  ExprPtr unpacked_value(const Item& i, UnpackSink& sink);
  // value(std::move(i)), without moving a plain value's whole item (~100
  // bytes, four smart pointers) first: most items are one.
  ExprPtr take_value(Item& i) {
    if (i.kind == Kind::Value && i.bound_to.empty()) return std::move(i.expr);
    return value(std::move(i));
  }
  ExprPtr pop_value() {
    if (stack.empty()) fail("stack underflow");
    ExprPtr e = take_value(stack.back());
    stack.pop_back();
    return e;
  }
  ExprList pop_values(std::size_t n) {
    ExprList out(n);
    for (std::size_t k = n; k-- > 0;) out[k] = pop_value();
    return out;
  }
  // `room`: items the caller will add (a method call's self), so that adding
  // them does not grow the vector again. (In storage given back by earlier
  // calls' arguments: a call's list was an allocation.)
  RecycledVector<Item> pop_items(std::size_t n, std::size_t room = 0) {
    if (stack.size() < n) fail("stack underflow");
    RecycledVector<Item> out = SpareVectors<Item>::take();
    out.reserve(n + room);
    out.insert(out.end(), std::make_move_iterator(stack.end() - std::ptrdiff_t(n)),
               std::make_move_iterator(stack.end()));
    stack.resize(stack.size() - n);
    return out;
  }
  void emit(ast::StmtPtr s) {
    s = spill_for(std::move(s));
    // Room for a few statements at the first: growing one at a time was an
    // allocation per statement for most blocks (more room cost more than it saved).
    if (stmts.capacity() == 0) stmts.reserve(4);
    stmts.push_back(std::move(s));
  }
  // Values still on the stack were computed before `s` runs. Those `s` could
  // change (or whose computation has effects) are kept in temporaries first, so
  // the output computes them in the original order and only once.
  ast::StmtPtr spill_for(ast::StmtPtr s);
  void spill(std::size_t i);
  bool shared(std::size_t i) const;
  // Item `i` as a name or constant (spilling it, and older values first, if needed).
  ExprPtr atom(std::size_t i);
  std::size_t index_of_depth(std::size_t depth) {
    if (depth == 0 || stack.size() < depth) fail("stack underflow");
    return stack.size() - depth;
  }
  // A method call on a value that is not a display (generated code extends any list).
  void mutate(std::size_t i, const char* method, ExprPtr arg) {
    ExprPtr obj = atom(i);
    emit(ast::expr_stmt(ast::call(ast::attribute(obj, method), {std::move(arg)})));
  }
  void store(ExprPtr target, Item value);
  // The inplace BinOps this block built, for augmented assignment on store.
  // An inplace operator and its store are one statement, so always in one
  // block: a per-block list stays short (a table for the whole code object grew
  // with it and was looked up on every store).
  std::vector<std::pair<ExprPtr, ast::Operator>> inplace{};
  void note_inplace(const ExprPtr& e, ast::Operator op) { inplace.emplace_back(e, op); }
  void call(Item callable, RecycledVector<Item> args, std::vector<ast::Keyword> keywords);
};

namespace {

ExprPtr constant_of(const ResolvedArg& a) { return ast::constant(a.constant); }

const std::string* const_str(const ExprPtr& e) {
  auto* c = e ? e->as<ast::Constant>() : nullptr;
  if (!c || !c->value) return nullptr;
  auto* s = c->value->as<StrValue>();
  return s ? &s->utf8 : nullptr;
}

// Elements of a tuple display or a constant tuple; nullopt otherwise.
std::optional<ExprList> tuple_elements(const ExprPtr& e) {
  if (!e) return std::nullopt;
  if (auto* t = e->as<ast::Tuple>()) return t->elts;
  if (auto* l = e->as<ast::List>()) return l->elts;
  if (auto* c = e->as<ast::Constant>())
    if (auto* t = c->value->as<TupleValue>()) {
      ExprList out;
      for (const ObjectRef& o : t->items) out.push_back(ast::constant(o));
      return out;
    }
  return std::nullopt;
}

std::vector<std::string> string_tuple(const ExprPtr& e) {
  std::vector<std::string> out;
  if (auto items = tuple_elements(e))
    for (const ExprPtr& x : *items)
      if (const std::string* s = const_str(x)) out.push_back(*s);
  return out;
}

ExprPtr with_ctx(const ExprPtr& e, ast::ExprContext ctx) {
  if (auto* n = e->as<ast::Name>()) return n->ctx == ctx ? e : ast::name(n->id, ctx);  // (stores are made as such)
  if (auto* a = e->as<ast::Attribute>()) return a->ctx == ctx ? e : ast::attribute(a->value, a->attr, ctx);
  if (auto* s = e->as<ast::Subscript>()) return s->ctx == ctx ? e : ast::subscript(s->value, s->slice, ctx);
  if (auto* t = e->as<ast::Tuple>()) return ast::tuple(t->elts, ctx);
  if (auto* l = e->as<ast::List>()) return ast::list(l->elts, ctx);
  if (auto* st = e->as<ast::Starred>()) return ast::starred(st->value, ctx);
  return e;
}

// The expression an index is when used in a subscript: 3.14 constant slices.
ExprPtr subscript_index(const ExprPtr& e) {
  auto* c = e->as<ast::Constant>();
  if (!c) return e;
  auto* s = c->value->as<SliceValue>();
  if (!s) return e;
  auto part = [](const ObjectRef& o) -> ExprPtr {
    return (!o || o->is<NoneValue>()) ? nullptr : ast::constant(o);
  };
  return ast::slice(part(s->start), part(s->stop), part(s->step));
}


bool same_target(const ExprPtr& target, const ExprPtr& left) {
  if (!target || !left) return false;
  if (auto* a = target->as<ast::Name>()) {
    auto* b = left->as<ast::Name>();
    return b && a->id == b->id;
  }
  if (auto* a = target->as<ast::Attribute>()) {
    auto* b = left->as<ast::Attribute>();
    return b && a->attr == b->attr && a->value == b->value;
  }
  if (auto* a = target->as<ast::Subscript>()) {
    auto* b = left->as<ast::Subscript>();
    return b && a->value == b->value && a->slice == b->slice;
  }
  return false;
}

}  // namespace

namespace {

bool is_atom(const ExprPtr& e) { return e && (e->is<ast::Name>() || e->is<ast::Constant>()); }

// Computing `e` later than it was gives the same result and effects when it is
// built only from constants and names that `bound` does not touch.
bool deferrable(const ExprPtr& e, const ast::NameSet& bound) {
  if (!e) return true;
  if (e->is<ast::Constant>()) return true;
  if (auto* n = e->as<ast::Name>()) return !bound.count(n->id);
  auto all = [&](const ExprList& l) {
    for (const ExprPtr& x : l)
      if (x && !deferrable(x, bound)) return false;
    return true;
  };
  if (auto* t = e->as<ast::Tuple>()) return all(t->elts);
  if (auto* l = e->as<ast::List>()) return all(l->elts);
  if (auto* st = e->as<ast::Set>()) return all(st->elts);
  if (auto* d = e->as<ast::Dict>()) return all(d->keys) && all(d->values);
  return false;
}

}  // namespace

bool Lifter::State::shared(std::size_t i) const {
  for (std::size_t k = 0; k < stack.size(); ++k)
    if (k != i && stack[k].kind == Kind::Value && stack[k].expr == stack[i].expr) return true;
  return false;
}

namespace {
// Stack slots (other than `skip`) holding a value that occurs inside `e`, in
// the order they were computed.
std::vector<std::size_t> contained(const Stack& stack, const ExprPtr& e, std::size_t skip) {
  std::unordered_set<const ast::Expr*> parts;
  ast::visit_expr(e, [&](const ExprPtr& x) { parts.insert(x.get()); });
  std::vector<std::size_t> out;
  for (std::size_t k = 0; k < stack.size(); ++k)
    if (k != skip && stack[k].kind == Kind::Value && !is_atom(stack[k].expr) &&
        stack[k].bound_to.empty() && parts.count(stack[k].expr.get()))
      out.push_back(k);
  std::sort(out.begin(), out.end(), [&](std::size_t a, std::size_t b) { return stack[a].seq < stack[b].seq; });
  return out;
}
}  // namespace


void Lifter::State::spill(std::size_t i) {
  // A value computed inside this one that another slot also holds is named
  // first, so that it is computed once (this rewrites stack[i] to use the name).
  if (stack[i].bound_to.empty())
    for (std::size_t k : contained(stack, stack[i].expr, i))
      if (!is_atom(stack[k].expr) && stack[k].expr != stack[i].expr) spill(k);
  ExprPtr old = stack[i].expr;
  ExprPtr v = stack[i].bound_to.empty() ? old : ast::name(stack[i].bound_to);
  std::string t = lifter.new_temporary();
  stmts.push_back(ast::assign(ast::name(t, ast::ExprContext::Store), v));
  ExprPtr ref = ast::name(t);
  // Later values built on it read the name; one memo keeps shared subtrees shared.
  std::unordered_map<const ast::Expr*, ExprPtr> memo;
  auto swap_in = [&](const ExprPtr& x) { return x == old ? ref : nullptr; };
  for (Item& o : stack) {
    if (o.kind != Kind::Value || !o.expr) continue;
    if (o.expr == old) {
      o.expr = ref;
      o.bound_to.clear();
    } else if (!is_atom(o.expr)) {
      o.expr = ast::map_expr(o.expr, swap_in, memo);
    }
  }
}

ExprPtr Lifter::State::atom(std::size_t i) {
  if (stack[i].kind != Kind::Value) fail("a value was expected");
  if (!stack[i].bound_to.empty()) return ast::name(stack[i].bound_to);
  if (is_atom(stack[i].expr)) return stack[i].expr;
  std::vector<std::size_t> older;
  for (std::size_t k = 0; k < stack.size(); ++k)
    if (k != i && stack[k].kind == Kind::Value && stack[k].bound_to.empty() && stack[k].seq < stack[i].seq &&
        !deferrable(stack[k].expr, {}))
      older.push_back(k);
  std::sort(older.begin(), older.end(), [&](std::size_t a, std::size_t b) { return stack[a].seq < stack[b].seq; });
  for (std::size_t k : older)
    if (!is_atom(stack[k].expr)) spill(k);
  spill(i);
  return stack[i].expr;
}

ast::StmtPtr Lifter::State::spill_for(ast::StmtPtr s) {
  // Only values can need a temporary; a loop body's stack holds just the
  // iterator, and the name sets below cost more than the statement itself.
  if (std::none_of(stack.begin(), stack.end(),
                   [](const Item& it) { return it.kind == Kind::Value && it.expr; }))
    return s;
  ast::NameSet bound = ast::bound_names(*s);
  std::unordered_set<const ast::Expr*> parts;
  ast::visit_stmt(s, [&](const ExprPtr& e) { parts.insert(e.get()); }, false);
  const auto* assign = s->as<ast::Assign>();
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < stack.size(); ++i) {
    const Item& it = stack[i];
    if (it.kind != Kind::Value || !it.expr) continue;
    if (!it.bound_to.empty()) {
      if (bound.count(static_cast<const std::string&>(it.bound_to))) todo.push_back(i);
      continue;
    }
    if (is_atom(it.expr) && !(it.expr->is<ast::Name>() && bound.count(it.expr->as<ast::Name>()->id))) continue;
    // `a = b = v` keeps v (the next store joins the assignment); any other use
    // by `s` of a value that stays on the stack needs a name, so that both
    // uses see one object; values `s` does not use are kept if `s` cannot change them.
    if (parts.count(it.expr.get())) {
      if (!(assign && assign->value == it.expr)) todo.push_back(i);
    } else if (!deferrable(it.expr, bound)) {
      todo.push_back(i);
    }
  }
  std::sort(todo.begin(), todo.end(), [&](std::size_t a, std::size_t b) { return stack[a].seq < stack[b].seq; });
  for (std::size_t i : todo) {
    ExprPtr old = stack[i].expr;
    if (is_atom(old) && !(old->is<ast::Name>() && bound.count(old->as<ast::Name>()->id)) &&
        stack[i].bound_to.empty())
      continue;  // already named by an earlier spill
    spill(i);
    if (parts.count(old.get())) {
      ExprPtr ref = stack[i].expr;
      s = ast::map_stmt(s, [&](const ExprPtr& e) { return e == old ? ref : nullptr; }, false);
    }
  }
  return s;
}

// Spills every value on the stack that a statement emitted now could reorder.
void Lifter::State::spill_all() {
  std::vector<std::size_t> todo;
  for (std::size_t k = 0; k < stack.size(); ++k)
    if (stack[k].kind == Kind::Value && stack[k].bound_to.empty() && !deferrable(stack[k].expr, {}))
      todo.push_back(k);
  std::sort(todo.begin(), todo.end(), [&](std::size_t a, std::size_t b) { return stack[a].seq < stack[b].seq; });
  for (std::size_t k : todo)
    if (!is_atom(stack[k].expr)) spill(k);
}

// A free name for a definition used as a value: its own, unless the code uses that.
std::string Lifter::State::free_name(const std::string& own) {
  std::string n = ast::is_identifier(own) && !lifter.taken(own) ? own : lifter.new_temporary();
  lifter.taken_.insert(n);
  return n;
}

// A function that is called or passed on instead of stored (generated code):
// `def` it under a free name first.
ExprPtr Lifter::State::defined_function(const Item& i) {
  spill_all();
  std::string n = free_name(i.function()->name());
  stmts.push_back(lifter.definer_.define_function(*i.function(), n));
  return ast::name(n);
}

// A class returned instead of stored (a generic class's `<generic parameters
// of C>` returns it): `class` it under a free name first.
ExprPtr Lifter::State::defined_class(const Item& i) {
  spill_all();
  std::string n = free_name(i.cls()->name);
  stmts.push_back(lifter.definer_.define_class(*i.cls(), n));
  return ast::name(n);
}

// A type alias returned instead of stored (a generic alias's wrapper returns it).
ExprPtr Lifter::State::defined_alias(const TypeAliasSink& alias) {
  spill_all();
  std::string n = free_name(alias.name());
  stmts.push_back(alias.statement(ast::name(n, ast::ExprContext::Store)));
  return ast::name(n);
}

// A slot of an unpacking used directly (generated code returns or passes it):
// the unpacking is completed now into temporaries for the slots not yet stored.
ExprPtr Lifter::State::unpacked_value(const Item& i, UnpackSink& sink) {
  spill_all();
  std::map<std::size_t, ExprPtr> temps;
  for (std::size_t k : sink.unfilled()) temps[k] = ast::name(lifter.new_temporary());
  auto it = temps.find(i.index);
  if (it == temps.end()) fail("unpacking slot used twice");
  ExprPtr mine = it->second;
  for (Item& o : stack)
    if (o.kind == Kind::Slot && o.sink == i.sink) {
      Item v = Item::value(temps.at(o.index));
      v.seq = ++lifter.value_count_;
      o = std::move(v);
    }
  for (auto& [k, t] : temps) put_target(sink, k, with_ctx(t, ast::ExprContext::Store), stmts);
  return mine;
}

// A store into a free variable from a comprehension's own code object
// (≤3.11 every comprehension, 3.12+ generator expressions): only a walrus
// in the comprehension writes that.
bool Lifter::State::walrus_into_enclosing(std::string_view name) const {
  const CodeObject& c = *lifter.code_.code;
  const bool comprehension = c.name == "<genexpr>" || c.name == "<listcomp>" || c.name == "<setcomp>" ||
                             c.name == "<dictcomp>";
  return comprehension && std::find(c.freevars.begin(), c.freevars.end(), name) != c.freevars.end();
}

// A value stored by DUP + STORE and now used: `(x := v)` right after the store, else `x`.
ExprPtr Lifter::State::bound_value(const Item& i) {
  if (!stmts.empty())
    if (auto* a = stmts.back()->as<ast::Assign>(); a && a->value == i.expr && a->targets.size() == 1) {
      auto* n = a->targets[0]->as<ast::Name>();
      bool other_copy = false;
      for (const Item& o : stack) other_copy = other_copy || (o.kind == Kind::Value && o.expr == i.expr);
      if (n && n->id == static_cast<const std::string&>(i.bound_to) && !other_copy) {
        stmts.pop_back();
        return ast::named_expr(ast::name(i.bound_to, ast::ExprContext::Store), i.expr);
      }
    }
  return ast::name(i.bound_to);
}

ExprPtr Lifter::State::value(Item i) {
  switch (i.kind) {
    case Kind::Value:
      if (!i.bound_to.empty()) return bound_value(i);
      return i.expr;
    case Kind::Import:
      return i.expr;
    case Kind::Iter:
      return ast::call(ast::name("iter"), {i.expr});
    case Kind::AsyncIter:
      return ast::call(ast::name("aiter"), {i.expr});
    case Kind::Function:
      // A lambda passed to a call (`f(lambda: x)`): the calls that took it
      // as a decorator are calls again.
      if (auto e = lifter.definer_.function_expr(*i.function(), nullptr)) {
        return called_by_decorators(std::move(e), *i.function());
      }
      return defined_function(i);
    case Kind::Slot:
      if (auto* u = dynamic_cast<UnpackSink*>(i.sink.get()); u && !u->nested()) return unpacked_value(i, *u);
      fail("value without a source form used as an expression");
    default:
      fail("value without a source form used as an expression");
  }
}

void Lifter::State::store(ExprPtr target, Item item) {
  target = with_ctx(target, ast::ExprContext::Store);
  if (item.kind == Kind::Exception && item.sink) {  // `except E as name`
    put_target(*item.sink, 0, target, stmts);
    return;
  }
  if (item.kind == Kind::Marker) return;  // restoring a variable an inlined comprehension shadowed
  if (item.kind == Kind::TypeParam || item.kind == Kind::TypeParams || item.kind == Kind::GenericBase) {
    // A generic wrapper keeps each type parameter in a variable of its name
    // and their tuple in `.type_params`: the source says nothing of these.
    auto* n = target->as<ast::Name>();
    if (!n) fail("type parameters stored into a target that is not a name");
    lifter.bind_hidden(n->id, std::move(item));
    return;
  }
  if (item.kind == Kind::Slot) {
    put_target(*item.sink, item.index, target, stmts);
    return;
  }
  auto* name = target->as<ast::Name>();
  if (item.kind == Kind::Function && name) {
    if (item.function()->name() == name->id || lifter.definer_.stored_name(item.function()->name()) == name->id) {
      emit(lifter.definer_.define_function(*item.function(), name->id.str()));
      return;
    }
  }
  if (item.kind == Kind::Class && name &&
      (item.cls()->name == name->id || lifter.definer_.stored_name(item.cls()->name) == name->id)) {
    emit(lifter.definer_.define_class(*item.cls(), name->id.str()));
    return;
  }
  if (item.kind == Kind::Import && name) {
    const std::string& full = item.import()->module;
    std::string first = full.substr(0, full.find('.'));
    if (!item.import()->attr_path.empty() || name->id != first) {
      emit(ast::import_({ast::alias(full, name->id.str())}));
    } else if (name->id == first) {
      emit(ast::import_({ast::alias(full)}));
    }
    return;
  }
  // `a = b = v`: the value was duplicated and its first store is the last statement.
  if (item.kind == Kind::Value && !stmts.empty())
    if (auto* last = stmts.back()->as<ast::Assign>(); last && last->value == item.expr) {
      ExprList targets = last->targets;
      targets.push_back(target);
      stmts.back() = ast::assign_multi(std::move(targets), item.expr);
      return;
    }
  ExprPtr v = value(std::move(item));
  for (const auto& [e, op] : inplace)
    if (e == v) {
      auto* bin = v->as<ast::BinOp>();
      if (same_target(target, bin->left)) {
        emit(ast::aug_assign(target, op, bin->right));
        return;
      }
      break;
    }
  emit(ast::assign(target, v));
  // Copies of the value still on the stack are now that variable. (A name
  // or constant stays itself, unless the store is a comprehension's walrus
  // into the enclosing function, which no statement could write.)
  if (name && (!is_atom(v) || walrus_into_enclosing(name->id)))
    for (Item& o : stack)
      if (o.kind == Kind::Value && o.expr == v && o.bound_to.empty()) o.bound_to = name->id.str();
}

// The callable and its arguments, with decorators, classes and comprehensions.
void Lifter::State::call(Item callable, RecycledVector<Item> args, std::vector<ast::Keyword> keywords) {
  if (callable.kind == Kind::Marker) {  // a with statement's __exit__(None, None, None)
    push(Item::of(Kind::Marker));
    return;
  }
  if (callable.kind == Kind::BuildClass) {
    // `class C(*bases)`: the body's function went into the argument list (hide_class_body).
    if (!args.empty() && args[0].kind == Kind::Value)
      if (auto* n = args[0].expr->as<ast::Name>(); n && n->id.starts_with(".class_body"))
        if (const Item* body = lifter.hidden(n->id); body && body->kind == Kind::Function) args[0] = *body;
    if (args.size() < 2 || args[0].kind != Kind::Function) fail("__build_class__ without a body");
    auto cls = std::make_shared<ClassValue>();
    cls->body = args[0].function();
    const std::string* n = const_str(value(args[1]));
    cls->name = n ? *n : cls->body->code->name;
    for (std::size_t k = 2; k < args.size(); ++k) {
      ExprPtr base = value(std::move(args[k]));
      // 3.12+ a generic class: Generic[T...] is the last positional base.
      auto* n = base->as<ast::Name>();
      const Item* hidden = n && !n->id.empty() && n->id[0] == '.' ? lifter.hidden(n->id) : nullptr;
      if (hidden && hidden->kind == Kind::GenericBase) {
        if (k + 1 != args.size()) fail("a generic class's implicit base is not its last base");
        cls->type_params = *hidden->type_params();
        continue;
      }
      cls->bases.push_back(std::move(base));
    }
    cls->keywords = std::move(keywords);
    Item out = Item::of(Kind::Class);
    out.set(std::move(cls));
    push(std::move(out));
    return;
  }
  if (callable.kind == Kind::Value && args.size() == 1 && keywords.empty()) {
    if (args[0].kind == Kind::Function) {
      args[0].function()->decorators.insert(args[0].function()->decorators.begin(), callable.expr);
      push(std::move(args[0]));
      return;
    }
    if (args[0].kind == Kind::Class) {
      args[0].cls()->decorators.insert(args[0].cls()->decorators.begin(), callable.expr);
      push(std::move(args[0]));
      return;
    }
  }
  // 3.12+ a generic def, class or type alias: its wrapper is called (with the
  // def's defaults) and what it returns is stored under the name.
  if (callable.kind == Kind::Function && is_generic_wrapper(*callable.function()->code)) {
    if (!keywords.empty()) fail("a generic def's wrapper called with keywords");
    ExprList values;
    for (Item& a : args) values.push_back(value(std::move(a)));
    if (auto made = lifter.definer_.generic(*callable.function(), values)) {
      push(std::move(*made));
      return;
    }
    ExprPtr func = value(std::move(callable));
    push(ast::call(func, std::move(values)));
    return;
  }
  if (callable.kind == Kind::Function && args.size() == 1 &&
      (args[0].kind == Kind::Iter || args[0].kind == Kind::AsyncIter)) {
    if (auto e = lifter.definer_.function_expr(*callable.function(), args[0].expr)) {
      push(e);
      return;
    }
  }
  ExprPtr func = value(std::move(callable));
  ExprList values;
  values.reserve(args.size());
  for (Item& a : args) values.push_back(take_value(a));
  push(ast::call(func, std::move(values), std::move(keywords)));
}

namespace {

using State = Lifter::State;
using Handler = void (*)(State&);


// Pops n arguments and the callable (with its NULL/self slot, per version).
void do_call(State& s, std::size_t n, const std::vector<std::string>& kwnames, bool method_slot) {
  RecycledVector<Item> args = s.pop_items(n, method_slot ? 1 : 0);
  std::vector<ast::Keyword> kws;
  if (!kwnames.empty()) {
    if (kwnames.size() > args.size()) s.fail("more keyword names than arguments");
    std::size_t first = args.size() - kwnames.size();
    kws.reserve(kwnames.size());
    for (std::size_t k = 0; k < kwnames.size(); ++k)
      kws.push_back(ast::keyword(kwnames[k], s.value(std::move(args[first + k]))));
    args.resize(first);
  }
  Item callable;
  if (method_slot) {
    // (Taken from the stack in place: popping them first moved each twice.)
    Item& a = s.peek(2);
    Item& b = s.peek(1);
    bool below = s.row.null_slot != NullSlot::Above;
    // Below: [NULL|callable, callable|self]; Above: [callable, NULL|self].
    if (below) {
      if (a.kind == Kind::Null) callable = std::move(b);
      else callable = std::move(a), args.insert(args.begin(), std::move(b));
    } else {
      callable = std::move(a);
      if (b.kind != Kind::Null) args.insert(args.begin(), std::move(b));
    }
    s.stack.pop_back();
    s.stack.pop_back();
  } else {
    callable = s.pop();
  }
  s.call(std::move(callable), std::move(args), std::move(kws));
}

void op_call_function(State& s) { do_call(s, s.cur().arg, {}, false); }
void op_call_method(State& s) { do_call(s, s.cur().arg, {}, true); }
void op_call_function_kw(State& s) {
  auto names = string_tuple(s.pop_value());
  do_call(s, s.cur().arg, names, false);
}
void op_call(State& s) {
  std::vector<std::string> names;
  if (s.kw_names) names = std::move(*s.kw_names), s.kw_names.reset();
  do_call(s, s.cur().arg, names, true);
}
void op_call_kw(State& s) {
  auto names = string_tuple(s.pop_value());
  do_call(s, s.cur().arg, names, true);
}
// The names read from the constant itself: through string_tuple, an expression
// node was made for the tuple and each name, and dropped.
void op_kw_names(State& s) {
  std::vector<std::string> names;
  const ObjectRef tuple = s.arg().constant;
  if (auto* t = tuple ? tuple->as<TupleValue>() : nullptr) {
    names.reserve(t->items.size());
    for (const ObjectRef& o : t->items)
      if (auto* str = o ? o->as<StrValue>() : nullptr) names.push_back(str->utf8);
  }
  s.kw_names = std::move(names);
}

void op_call_function_ex(State& s) {
  bool has_kwargs = s.row.minor >= 14 || (s.cur().arg & 1);
  ExprPtr kwargs;
  if (has_kwargs) {
    Item k = s.pop();
    if (k.kind != Kind::Null) kwargs = s.value(std::move(k));
  }
  ExprPtr args = s.pop_value();
  std::vector<Item> items;
  if (auto* t = args->as<ast::Tuple>()) {
    for (const ExprPtr& e : t->elts) items.push_back(Item::value(e));
  } else if (auto elts = tuple_elements(args); elts && args->is<ast::Constant>()) {
    for (const ExprPtr& e : *elts) items.push_back(Item::value(e));
  } else {
    items.push_back(Item::value(ast::starred(args)));
  }
  std::vector<ast::Keyword> kws;
  if (kwargs) {
    // A key that is no identifier (`**{'a-b': 1}`, `**{k: v}`) keeps the dict as written.
    auto* d = kwargs->as<ast::Dict>();
    bool as_keywords = d != nullptr && !d->keys.empty();  // (`**{}` stays)
    for (std::size_t k = 0; as_keywords && k < d->keys.size(); ++k) {
      if (!d->keys[k]) continue;  // a `**x` inside the display
      const std::string* key = const_str(d->keys[k]);
      as_keywords = key && ast::is_identifier(*key);
    }
    if (as_keywords) {
      for (std::size_t k = 0; k < d->keys.size(); ++k) {
        const std::string* key = const_str(d->keys[k]);
        if (d->keys[k] && key) kws.push_back(ast::keyword(*key, d->values[k]));
        else kws.push_back(ast::double_star(d->values[k]));
      }
    } else {
      kws.push_back(ast::double_star(kwargs));
    }
  }
  bool slot = s.row.null_slot != NullSlot::None;
  Item callable;
  if (slot) {
    Item b = s.pop();
    Item a = s.pop();
    if (s.row.null_slot == NullSlot::Below) callable = a.kind == Kind::Null ? std::move(b) : std::move(a);
    else callable = std::move(a);
  } else {
    callable = s.pop();
  }
  s.call(std::move(callable), std::move(items), std::move(kws));
}

// --- loads ----------------------------------------------------------------------

void op_load_const(State& s) { s.push(constant_of(s.arg())); }
void op_load_small_int(State& s) { s.push(ast::integer(s.arg().number)); }
// A name as loaded: a generic wrapper's `.defaults` / `.kwdefaults` are the
// values its caller passed (names starting with a dot are the compiler's own).
ExprPtr loaded_name(State& s, std::string_view n) {
  if (!n.empty() && n[0] == '.' && s.code.code)
    if (ExprPtr v = s.definer().argument(*s.code.code, std::string(n))) return v;
  return ast::borrowed_name(n);
}
void op_load_name(State& s) { s.push(loaded_name(s, s.arg().text)); }
// 3.12+ class bodies: a free variable is looked up in the class namespace
// first (LOAD_LOCALS; LOAD_FROM_DICT_OR_DEREF name) — in source, just `name`.
void op_load_locals(State& s) { s.push(Item::of(Kind::Marker)); }
void op_load_from_dict(State& s) {
  s.pop();
  s.push(ast::borrowed_name(s.arg().text));
}

// 3.12+ inlined comprehensions save the variables they shadow.
void op_load_saved(State& s) { s.push(Item::of(Kind::Marker, ast::borrowed_name(s.arg().text))); }
void op_load_global(State& s) {
  ResolvedArg a = s.arg();
  bool with_null = a.kind == ArgKind::NameShift1 && (a.number & 1);
  if (with_null && s.row.null_slot == NullSlot::Below) s.push(Item::of(Kind::Null));
  s.push(ast::borrowed_name(a.text));
  if (with_null && s.row.null_slot == NullSlot::Above) s.push(Item::of(Kind::Null));
}
void op_load_fast_pair(State& s) {
  ResolvedArg a = s.arg();
  s.push(loaded_name(s, std::move(a.text)));
  s.push(loaded_name(s, std::move(a.second)));
}
// The cell itself, not its value: `(lambda: x).__closure__[0]` is the cell of x.
// MAKE_FUNCTION ignores closure tuples (source captures implicitly); generated
// code can hand cells to other calls (Dynamo's _create_nested_fn).
void op_load_closure(State& s) {
  ExprPtr fn = ast::lambda(ast::Arguments{}, ast::borrowed_name(s.arg().text));
  s.push(ast::subscript(ast::attribute(fn, "__closure__"), ast::integer(0)));
}
void op_load_assertion_error(State& s) { s.push(Lifter::assertion_error()); }
void op_load_build_class(State& s) { s.push(Item::of(Kind::BuildClass)); }
// 3.14: a builtin loaded without a lookup (`assert`'s AssertionError, an
// annotation scope's NotImplementedError...).
void op_load_common_constant(State& s) {
  std::string_view n = s.arg().text;
  if (n == "AssertionError") s.push(Lifter::assertion_error());
  else s.push(ast::name(n));
}
void op_push_null(State& s) { s.push(Item::of(Kind::Null)); }

void push_method(State& s, ExprPtr attr) {
  if (s.row.null_slot == NullSlot::Above) {
    s.push(std::move(attr));
    s.push(Item::of(Kind::Null));
  } else {
    s.push(Item::of(Kind::Null));
    s.push(std::move(attr));
  }
}

void op_load_attr(State& s) {
  ResolvedArg a = s.arg();
  Item obj = s.pop();
  bool method = a.kind == ArgKind::NameShift1 && (a.number & 1);
  if (obj.kind == Kind::Import && !obj.import()->from_import) {
    // `import a.b.c as d` on 3.8-3.10 may use LOAD_ATTR after IMPORT_NAME.
    auto longer = std::make_shared<ImportValue>(*obj.import());
    longer->attr_path.append(".").append(a.text);
    obj.set(std::shared_ptr<const ImportValue>(std::move(longer)));
    s.push(std::move(obj));
    return;
  }
  ExprPtr attr = ast::borrowed_attribute(s.value(std::move(obj)), a.text);
  if (method) push_method(s, attr);
  else s.push(attr);
}
void op_load_method(State& s) {
  ExprPtr obj = s.pop_value();
  push_method(s, ast::borrowed_attribute(obj, s.arg().text));
}
void op_load_super_attr(State& s) {
  ResolvedArg a = s.arg();
  ExprPtr self = s.pop_value();
  ExprPtr cls = s.pop_value();
  ExprPtr sup = s.pop_value();
  // Bit 1 set: an explicit `super(cls, self)`; clear: the zero-argument form.
  ExprPtr call = (a.number & 2) ? ast::call(sup, {cls, self}) : ast::call(sup);
  ExprPtr attr = ast::borrowed_attribute(call, a.text);
  if (a.number & 1) push_method(s, attr);
  else s.push(attr);
}

// --- stores and deletes ---------------------------------------------------------------

// (Names stored are made as such: store() would otherwise make each again.)
void op_store_name(State& s) { s.store(ast::borrowed_name(s.arg().text, ast::ExprContext::Store), s.pop()); }
void op_store_global(State& s) {
  std::string n(s.arg().text);
  s.lifter.note_global(n);
  s.store(ast::name(std::move(n), ast::ExprContext::Store), s.pop());
}
void op_store_deref(State& s) {
  std::string n(s.arg().text);
  const auto& fv = s.code.code->freevars;
  if (std::find(fv.begin(), fv.end(), n) != fv.end()) s.lifter.note_nonlocal(n);
  s.store(ast::name(std::move(n), ast::ExprContext::Store), s.pop());
}
void op_store_fast_pair(State& s) {  // STORE_FAST_STORE_FAST
  ResolvedArg a = s.arg();
  s.store(ast::borrowed_name(a.text, ast::ExprContext::Store), s.pop());
  s.store(ast::borrowed_name(a.second, ast::ExprContext::Store), s.pop());
}
void op_store_fast_load_fast(State& s) {
  ResolvedArg a = s.arg();
  s.store(ast::borrowed_name(a.text, ast::ExprContext::Store), s.pop());
  s.push(ast::borrowed_name(a.second));
}
void op_store_attr(State& s) {
  ExprPtr obj = s.pop_value();
  Item v = s.pop();
  s.store(ast::borrowed_attribute(obj, s.arg().text, ast::ExprContext::Store), std::move(v));
}
void op_store_subscr(State& s) {
  ExprPtr index = s.pop_value();
  ExprPtr obj = s.pop_value();
  Item v = s.pop();
  s.store(ast::subscript(obj, subscript_index(index), ast::ExprContext::Store), std::move(v));
}
void op_store_slice(State& s) {
  ExprPtr stop = s.pop_value();
  ExprPtr start = s.pop_value();
  ExprPtr obj = s.pop_value();
  Item v = s.pop();
  auto part = [](ExprPtr e) { return ast::is_none(e) ? nullptr : e; };
  s.store(ast::subscript(obj, ast::slice(part(start), part(stop)), ast::ExprContext::Store), std::move(v));
}
void op_delete_name(State& s) {
  if (s.cur().name() == "DELETE_GLOBAL") s.lifter.note_global(std::string(s.arg().text));
  s.emit(ast::delete_({ast::borrowed_name(s.arg().text, ast::ExprContext::Del)}));
}
void op_delete_attr(State& s) {
  ExprPtr obj = s.pop_value();
  s.emit(ast::delete_({ast::borrowed_attribute(obj, s.arg().text, ast::ExprContext::Del)}));
}
void op_delete_subscr(State& s) {
  ExprPtr index = s.pop_value();
  ExprPtr obj = s.pop_value();
  s.emit(ast::delete_({ast::subscript(obj, subscript_index(index), ast::ExprContext::Del)}));
}

// --- stack manipulation -----------------------------------------------------------

void op_nop(State&) {}
void op_pop_top(State& s) {
  if (s.skip_pop_top) {
    s.skip_pop_top = false;
    return;
  }
  Item i = s.pop();
  switch (i.kind) {
    case Kind::Value: {
      // Another slot still holds the value, or a value built on it (a chained
      // comparison's shared middle operand): it is computed there.
      bool kept = false;
      for (const Item& o : s.stack) {
        if (kept || o.kind != Kind::Value || !o.expr) continue;
        ast::visit_expr(o.expr, [&](const ExprPtr& x) { kept = kept || x == i.expr; });
      }
      if (kept || s.lifter.computes_nothing(i.expr)) return;
      if (!i.bound_to.empty()) {
        ExprPtr v = s.value(std::move(i));
        if (!v->is<ast::Name>()) s.emit(ast::expr_stmt(v));
        return;
      }
      s.emit(ast::expr_stmt(i.expr));
      return;
    }
    case Kind::Import:
      if (i.import()->from_import && i.sink) {
        if (auto* f = dynamic_cast<ImportFromSink*>(i.sink.get())) s.emit(f->statement());
      }
      return;
    case Kind::Slot: {
      // 3.13 drops the first of two stores to one local in a row (`_, _, x = v`
      // stores `_` twice): the popped slot is a target the next store names.
      if (!dynamic_cast<UnpackSink*>(i.sink.get())) return;  // `with x:` has no target
      std::string target;
      if (s.pos + 1 < s.ins.size()) {
        const Instruction& next = s.ins[s.pos + 1];
        const Op op = next.op();
        if (op == Op::STORE_FAST || op == Op::STORE_FAST_STORE_FAST || op == Op::STORE_FAST_LOAD_FAST)
          target = resolve_argument(s.code, next).text;
      }
      if (target.empty()) target = s.lifter.new_temporary();
      s.store(ast::name(std::move(target), ast::ExprContext::Store), std::move(i));
      return;
    }
    case Kind::Function:
      // `f(lambda: x)` as a statement: the call took the lambda as a decorator.
      if (auto e = s.lifter.expression_of(i)) s.emit(ast::expr_stmt(e));
      return;
    default:
      return;
  }
}
void op_end_for(State& s) {
  if (s.row.end_for_then_pop_top) s.skip_pop_top = true;
}
void op_pop_iter(State& s) {
  if (!s.stack.empty() && s.peek().kind == Kind::Iter) s.pop();
}

// `a, b = b, a`: a rotation followed only by plain stores is a tuple assignment.
bool rotation_is_swap(State& s, std::size_t n) {
  std::size_t stores = 0;
  std::size_t loaded = 0;  // an attribute or subscript target loads its object (and index) just before its store
  for (std::size_t k = s.pos + 1; k < s.ins.size() && stores < n; ++k) {
    std::string_view name = s.ins[k].name();
    if (name == "ROT_TWO" || name == "ROT_THREE" || name == "SWAP" || name == "EXTENDED_ARG") {
      if (loaded) return false;
      continue;
    }
    if (name == "LOAD_FAST" || name == "LOAD_NAME" || name == "LOAD_GLOBAL" || name == "LOAD_DEREF" ||
        name == "LOAD_CONST" || name == "LOAD_SMALL_INT" || name == "LOAD_FAST_BORROW") {
      ++loaded;
      continue;
    }
    if (name == "LOAD_FAST_LOAD_FAST") {
      loaded += 2;
      continue;
    }
    // (3.13: a store, then the load of the next target's object.)
    if (name == "STORE_FAST_LOAD_FAST") {
      if (loaded != 0) return false;
      ++stores;
      loaded = 1;
      continue;
    }
    // A target's index may be computed (`a[n - 1]`): a binary operation makes
    // two loaded values one, a unary one keeps one.
    if (name.starts_with("BINARY_") && name != "BINARY_SLICE") {
      if (loaded < 2) return false;
      --loaded;
      continue;
    }
    if (name.starts_with("UNARY_")) {
      if (loaded < 1) return false;
      continue;
    }
    if (name == "LOAD_ATTR") {  // not a method load (3.12+: flag bit 0)
      ResolvedArg a = resolve_argument(s.code, s.ins[k]);
      if (loaded == 0 || (a.kind == ArgKind::NameShift1 && (a.number & 1))) return false;
      continue;
    }
    std::size_t needs = name == "STORE_ATTR" ? 1 : name == "STORE_SUBSCR" ? 2 : 0;
    if (loaded != needs) return false;
    loaded = 0;
    if (name == "STORE_FAST_STORE_FAST") stores += 2;
    else if (name == "STORE_NAME" || name == "STORE_FAST" || name == "STORE_GLOBAL" ||
             name == "STORE_DEREF" || name == "STORE_ATTR" || name == "STORE_SUBSCR")
      stores += 1;
    else return false;
  }
  if (stores != n || s.stack.size() < n) return false;
  for (std::size_t k = 1; k <= n; ++k)
    if (s.peek(k).kind != Kind::Value) return false;
  return true;
}

// Replaces the top n values by slots of one tuple assignment (slot 0 on top).
void make_swap(State& s, std::size_t n) {
  ExprList values = s.pop_values(n);
  auto sink = std::make_shared<UnpackSink>(n, std::nullopt, ast::tuple(values), nullptr, 0);
  for (std::size_t k = n; k-- > 0;) {
    Item slot = Item::of(Kind::Slot);
    slot.sink = sink;
    slot.index = k;
    s.push(std::move(slot));
  }
}

void rotate(State& s, std::size_t n) {
  // Top goes down to position n (ROT_N 0 is no rotation CPython emits).
  if (n == 0) s.fail("rotation of no values");
  if (s.stack.size() < n) s.fail("stack underflow");
  Item top = s.pop();
  s.stack.insert(s.stack.end() - std::ptrdiff_t(n - 1), std::move(top));
}
void do_rot(State& s, std::size_t n) {
  if ((n == 2 || n == 3) && rotation_is_swap(s, n)) {
    make_swap(s, n);
    // Skip the rest of the rotation instructions: the slots already are in store order.
    while (s.pos + 1 < s.ins.size()) {
      std::string_view next = s.ins[s.pos + 1].name();
      if (next != "ROT_TWO" && next != "ROT_THREE" && next != "SWAP" && next != "EXTENDED_ARG") break;
      ++s.pos;
    }
    return;
  }
  rotate(s, n);
}
void op_rot_two(State& s) { do_rot(s, 2); }
void op_rot_three(State& s) { do_rot(s, 3); }
void op_rot_four(State& s) { rotate(s, 4); }
void op_rot_n(State& s) { rotate(s, s.cur().arg); }
void op_swap(State& s) {
  std::size_t n = s.cur().arg;
  if ((n == 2 || n == 3) && rotation_is_swap(s, n)) {
    do_rot(s, n);
    return;
  }
  if (s.stack.size() < n || n == 0) s.fail("stack underflow");
  std::swap(s.stack.back(), s.stack[s.stack.size() - n]);
}
void op_dup_top(State& s) { s.push(s.peek()); }
void op_dup_top_two(State& s) {
  Item a = s.peek(2), b = s.peek(1);
  s.push(std::move(a));
  s.push(std::move(b));
}
void op_copy(State& s) {
  std::size_t n = s.cur().arg;
  if (n == 0) s.fail("COPY 0");
  s.push(s.peek(n));
}

// --- operators -----------------------------------------------------------------------

void push_binary(State& s, BinaryOperator op) {
  ExprPtr right = s.pop_value();
  ExprPtr left = s.pop_value();
  ExprPtr e = ast::binop(left, op.op, right);
  if (op.inplace) s.note_inplace(e, op.op);
  s.push(e);
}
void op_binary_named(State& s) {
  auto op = binary_by_opname(s.cur().name());
  if (!op) s.fail("unknown binary operator");
  push_binary(s, *op);
}
// The compiler folds a set display of constants into a frozenset constant
// where only membership or iteration can see it (`x in {1, 2}`, `for x in
// {1, 2}`): the display compiles back to the same constant.
ExprPtr as_set_display(ExprPtr e) {
  auto* c = e->as<ast::Constant>();
  if (!c || !c->value) return e;
  auto* f = c->value->as<FrozenSetValue>();
  if (!f || f->items.empty()) return e;
  ExprList elts;
  for (const ObjectRef& item : f->items) elts.push_back(ast::constant(item));
  return ast::set(std::move(elts));
}
void op_binary_op(State& s) {
  ResolvedArg a = s.arg();
  if (a.text == "[]") {
    ExprPtr index = s.pop_value();
    ExprPtr obj = s.pop_value();
    s.push(ast::subscript(obj, subscript_index(index)));
    return;
  }
  auto op = binary_by_symbol(a.text);
  if (!op) s.fail("unknown binary operator " + std::string(a.text));
  push_binary(s, *op);
}
void op_unary(State& s) {
  auto op = unary_by_opname(s.cur().name());
  s.push(ast::unaryop(*op, s.pop_value()));
}
void op_compare(State& s) {
  std::string_view text = s.arg().text;
  if (text == "exception match") {  // 3.8 `except E`: [exc, E] -> match
    ExprPtr type = s.pop_value();
    s.pop();
    s.exc_match = type;
    s.push(type);
    return;
  }
  auto op = compare_by_text(text);
  if (!op) s.fail("comparison '" + std::string(text) + "' has no source form");
  ExprPtr right = s.pop_value();
  if (*op == ast::CmpOperator::In || *op == ast::CmpOperator::NotIn) right = as_set_display(right);
  ExprPtr left = s.pop_value();
  s.push(ast::compare(left, *op, right));
}
void op_is_op(State& s) {
  ExprPtr right = s.pop_value();
  ExprPtr left = s.pop_value();
  s.push(ast::compare(left, s.cur().arg ? ast::CmpOperator::IsNot : ast::CmpOperator::Is, right));
}
void op_contains_op(State& s) {
  ExprPtr right = as_set_display(s.pop_value());
  ExprPtr left = s.pop_value();
  s.push(ast::compare(left, s.cur().arg ? ast::CmpOperator::NotIn : ast::CmpOperator::In, right));
}
void op_binary_subscr(State& s) {
  ExprPtr index = s.pop_value();
  ExprPtr obj = s.pop_value();
  s.push(ast::subscript(obj, subscript_index(index)));
}
void op_build_slice(State& s) {
  std::size_t n = s.cur().arg;
  ExprPtr step = n == 3 ? s.pop_value() : nullptr;
  ExprPtr stop = s.pop_value();
  ExprPtr start = s.pop_value();
  auto part = [](ExprPtr e) { return ast::is_none(e) ? nullptr : e; };
  s.push(ast::slice(part(start), part(stop), part(step)));
}
void op_binary_slice(State& s) {
  ExprPtr stop = s.pop_value();
  ExprPtr start = s.pop_value();
  ExprPtr obj = s.pop_value();
  auto part = [](ExprPtr e) { return ast::is_none(e) ? nullptr : e; };
  s.push(ast::subscript(obj, ast::slice(part(start), part(stop))));
}

// --- containers --------------------------------------------------------------------

// 3.12+ `type X = value`: (name, type parameters, the function that computes
// value lazily) for INTRINSIC_TYPEALIAS; its result is stored as X.
bool builds_type_alias(State& s) {
  if (s.cur().arg != 3 || s.pos + 1 >= s.ins.size() || s.ins[s.pos + 1].name() != "CALL_INTRINSIC_1") return false;
  return resolve_argument(s.code, s.ins[s.pos + 1]).text == "INTRINSIC_TYPEALIAS";
}
void op_type_alias(State& s) {
  Item compute = s.pop();
  Item params = s.pop();
  const std::string* name = const_str(s.pop_value());
  if (!name || !ast::is_identifier(*name)) s.fail("a type alias's name is not an identifier");
  ast::TypeParamList type_params;
  if (params.kind == Kind::TypeParams) type_params = *params.type_params();
  else if (params.kind != Kind::Value || !ast::is_none(params.expr)) s.fail("a type alias's type parameters are not a tuple of them");
  ExprPtr value = compute.kind == Kind::Function ? s.definer().lazy_value(*compute.function()) : nullptr;
  if (!value || value->is<ast::Starred>()) s.fail("type alias without a lazily computed value");
  Item alias = Item::of(Kind::Slot);
  alias.sink = std::make_shared<TypeAliasSink>(*name, std::move(type_params), value);
  s.push(std::move(alias));  // (the CALL_INTRINSIC_1 that follows leaves it)
}
// 3.12+: the tuple of a generic's type parameters (each made by an intrinsic).
bool builds_type_params(State& s) {
  std::size_t n = s.cur().arg;
  if (n == 0 || s.stack.size() < n) return false;
  for (std::size_t k = 1; k <= n; ++k)
    if (s.peek(k).kind != Kind::TypeParam) return false;
  return true;
}
// 3.11+ `*args: *Ts`: the annotation is unpacked into one value (UNPACK_SEQUENCE
// 1) right after its parameter's name, in the annotations tuple.
void starred_annotations(State& s, std::size_t n) {
  for (std::size_t k = s.stack.size() - n + 1; k < s.stack.size(); ++k) {
    Item& i = s.stack[k];
    auto* u = i.kind == Kind::Slot ? dynamic_cast<UnpackSink*>(i.sink.get()) : nullptr;
    const Item& name = s.stack[k - 1];
    if (!u || !u->single_unstarred() || name.kind != Kind::Value || !const_str(name.expr)) continue;
    i = s.fresh(ast::starred(u->value()));
  }
}
// `class C(*bases)`: __build_class__'s arguments are a list (3.8: a tuple) of
// the body's function, the name and the bases, unpacked by CALL_FUNCTION_EX.
// The function is kept aside under a hidden name until that call.
void hide_class_body(State& s, std::size_t n) {
  if (n < 2 || s.stack.size() < n + 1 || s.peek(n).kind != Kind::Function) return;
  const Item& below = s.peek(n + 1);
  const bool build_class = below.kind == Kind::BuildClass ||
                           (below.kind == Kind::Null && s.stack.size() >= n + 2 && s.peek(n + 2).kind == Kind::BuildClass);
  if (!build_class) return;
  Item& body = s.peek(n);
  std::string hidden = ".class_body" + std::to_string(s.lifter.hidden_count());
  s.lifter.bind_hidden(hidden, std::move(body));
  body = s.fresh(ast::name(hidden));
}
void op_build_tuple(State& s) {
  if (builds_type_alias(s)) return op_type_alias(s);
  hide_class_body(s, s.cur().arg);
  if (s.cur().arg >= 2 && s.stack.size() >= s.cur().arg) starred_annotations(s, s.cur().arg);
  if (builds_type_params(s)) {
    auto params = std::make_shared<ast::TypeParamList>();
    for (Item& i : s.pop_items(s.cur().arg)) params->push_back(i.type_params()->front());
    Item out = Item::of(Kind::TypeParams);
    out.set(std::shared_ptr<const ast::TypeParamList>(std::move(params)));
    s.push(std::move(out));
    return;
  }
  s.push(ast::tuple(s.pop_values(s.cur().arg)));
}
void op_build_list(State& s) {
  hide_class_body(s, s.cur().arg);
  s.push(ast::list(s.pop_values(s.cur().arg)));
}
void op_build_set(State& s) { s.push(ast::set(s.pop_values(s.cur().arg))); }
void op_build_map(State& s) {
  ExprList items = s.pop_values(2 * std::size_t(s.cur().arg));
  ExprList keys, values;
  for (std::size_t k = 0; k < items.size(); k += 2) keys.push_back(items[k]), values.push_back(items[k + 1]);
  s.push(ast::dict(keys, values));
}
void op_build_const_key_map(State& s) {
  ExprPtr keys = s.pop_value();
  ExprList values = s.pop_values(s.cur().arg);
  auto k = tuple_elements(keys);
  if (!k || k->size() != values.size()) s.fail("BUILD_CONST_KEY_MAP keys do not match");
  s.push(ast::dict(*k, values));
}

// Appends an iterable to a display under construction: a constant tuple is
// folded literal elements, anything else is `*x` (`**x` for dicts).
ExprList extended(const ExprList& elts, const ExprPtr& x) {
  ExprList out = elts;
  if (x->is<ast::Constant>()) {
    // (Literal runs are folded into a constant of 3+ items: an empty one was `*()`.)
    if (auto items = tuple_elements(x); items && !items->empty()) {
      out.insert(out.end(), items->begin(), items->end());
      return out;
    }
    if (auto* fs = x->as<ast::Constant>()->value->as<FrozenSetValue>()) {
      for (const ObjectRef& o : fs->items) out.push_back(ast::constant(o));
      return out;
    }
  }
  out.push_back(ast::starred(x));
  return out;
}
// A display under construction grows in place; any other target (generated
// code extends lists it sliced or shares) becomes a method call on a name.
template <class Display>
const Display* growing_display(State& s, std::size_t i) {
  const Item& target = s.stack[i];
  if (target.kind != Kind::Value || !target.expr || !target.bound_to.empty() || s.shared(i)) return nullptr;
  return target.expr->as<Display>();
}
void op_list_extend(State& s) {
  ExprPtr x = s.pop_value();
  std::size_t i = s.index_of_depth(s.cur().arg);
  if (auto* l = growing_display<ast::List>(s, i)) s.stack[i].expr = ast::list(extended(l->elts, x));
  else s.mutate(i, "extend", x);
}
void op_set_update(State& s) {
  ExprPtr x = s.pop_value();
  std::size_t i = s.index_of_depth(s.cur().arg);
  if (auto* st = growing_display<ast::Set>(s, i)) s.stack[i].expr = ast::set(extended(st->elts, x));
  else s.mutate(i, "update", x);
}
void op_dict_update(State& s) {
  ExprPtr x = s.pop_value();
  std::size_t i = s.index_of_depth(s.cur().arg);
  auto* d = growing_display<ast::Dict>(s, i);
  if (!d) {
    s.mutate(i, "update", x);
    return;
  }
  Item& target = s.stack[i];
  ExprList keys = d->keys, values = d->values;
  keys.push_back(nullptr);
  values.push_back(x);
  target.expr = ast::dict(keys, values);
}
void op_list_to_tuple(State& s) {
  ExprPtr x = s.pop_value();
  auto* l = x->as<ast::List>();
  s.push(l ? ast::tuple(l->elts) : ast::call(ast::name("tuple"), {x}));
}
// 3.8 BUILD_*_UNPACK: n iterables joined; displays and constant tuples are spliced.
ExprList unpack_join(State& s, std::size_t n) {
  ExprList parts = s.pop_values(n), out;
  for (const ExprPtr& p : parts) {
    if (auto* t = p->as<ast::Tuple>()) out.insert(out.end(), t->elts.begin(), t->elts.end());
    else if (auto* l = p->as<ast::List>()) out.insert(out.end(), l->elts.begin(), l->elts.end());
    else if (auto items = tuple_elements(p); items && !items->empty() && p->is<ast::Constant>())  // (`*()` stays)
      out.insert(out.end(), items->begin(), items->end());
    else out.push_back(ast::starred(p));
  }
  return out;
}
void op_build_tuple_unpack(State& s) { s.push(ast::tuple(unpack_join(s, s.cur().arg))); }
void op_build_list_unpack(State& s) { s.push(ast::list(unpack_join(s, s.cur().arg))); }
void op_build_set_unpack(State& s) { s.push(ast::set(unpack_join(s, s.cur().arg))); }
void op_build_map_unpack(State& s) {
  ExprList parts = s.pop_values(s.cur().arg), keys, values;
  for (const ExprPtr& p : parts) {
    if (auto* d = p->as<ast::Dict>()) {
      keys.insert(keys.end(), d->keys.begin(), d->keys.end());
      values.insert(values.end(), d->values.begin(), d->values.end());
    } else keys.push_back(nullptr), values.push_back(p);
  }
  s.push(ast::dict(keys, values));
}

// Comprehension bodies: the driver rebuilds these markers. They spill nothing:
// what lies below the comprehension on the stack was computed before it
// runs, as the rebuilt comprehension expression has it. A target right below
// the value (argument 1, no iterator between) is a display built one element
// at a time instead (`(*a, b)`, a dict of more than 16 items).
void op_list_append(State& s) {
  ExprPtr v = s.pop_value();
  if (s.cur().arg == 1) {
    std::size_t i = s.index_of_depth(1);
    const bool is_set = s.cur().name() == "SET_ADD";
    if (auto* l = is_set ? nullptr : growing_display<ast::List>(s, i)) {
      ExprList elts = l->elts;
      elts.push_back(v);
      s.stack[i].expr = ast::list(std::move(elts));
    } else if (auto* st = is_set ? growing_display<ast::Set>(s, i) : nullptr) {
      ExprList elts = st->elts;
      elts.push_back(v);
      s.stack[i].expr = ast::set(std::move(elts));
    } else {
      s.mutate(i, is_set ? "add" : "append", v);
    }
    return;
  }
  s.stmts.push_back(ast::expr_stmt(ast::call(ast::name(kAppendMarker), {v})));
}
void op_map_add(State& s) {
  ExprPtr v = s.pop_value();
  ExprPtr k = s.pop_value();
  if (s.cur().arg == 1) {
    std::size_t i = s.index_of_depth(1);
    if (auto* d = growing_display<ast::Dict>(s, i)) {
      ExprList keys = d->keys, values = d->values;
      keys.push_back(k);
      values.push_back(v);
      s.stack[i].expr = ast::dict(std::move(keys), std::move(values));
    } else {
      ExprPtr target = s.atom(i);
      s.emit(ast::assign(ast::subscript(target, k, ast::ExprContext::Store), v));
    }
    return;
  }
  s.stmts.push_back(ast::expr_stmt(ast::call(ast::name(kMapAddMarker), {k, v})));
}

// --- strings ------------------------------------------------------------------------

int conversion_char(std::string_view text) {
  if (text == "str") return 's';
  if (text == "repr") return 'r';
  if (text == "ascii") return 'a';
  return -1;
}
ExprPtr as_spec(const ExprPtr& spec) {
  if (!spec) return nullptr;
  if (spec->is<ast::JoinedStr>()) return spec;
  return ast::joined_str({spec});
}
void op_format_value(State& s) {
  ResolvedArg a = s.arg();
  ExprPtr spec = a.has_format_spec ? s.pop_value() : nullptr;
  ExprPtr v = s.pop_value();
  s.push(ast::joined_str({ast::formatted_value(v, conversion_char(a.text), as_spec(spec))}));
}
void op_convert_value(State& s) {
  ExprPtr v = s.pop_value();
  s.push(ast::formatted_value(v, conversion_char(s.arg().text)));
}
ExprPtr formatted(const ExprPtr& v, ExprPtr spec) {
  if (auto* f = v->as<ast::FormattedValue>())
    return ast::joined_str({ast::formatted_value(f->value, f->conversion, as_spec(spec))});
  return ast::joined_str({ast::formatted_value(v, -1, as_spec(spec))});
}
void op_format_simple(State& s) { s.push(formatted(s.pop_value(), nullptr)); }
void op_format_with_spec(State& s) {
  ExprPtr spec = s.pop_value();
  ExprPtr v = s.pop_value();
  s.push(formatted(v, spec));
}
void op_build_string(State& s) {
  ExprList parts = s.pop_values(s.cur().arg), out;
  for (const ExprPtr& p : parts) {
    if (auto* j = p->as<ast::JoinedStr>()) out.insert(out.end(), j->values.begin(), j->values.end());
    else out.push_back(p);
  }
  s.push(ast::joined_str(out));
}

// --- functions and classes -----------------------------------------------------------

std::vector<std::pair<std::string, ExprPtr>> pairs_of(State& s, const ExprPtr& e, bool flat) {
  std::vector<std::pair<std::string, ExprPtr>> out;
  if (flat) {
    auto items = tuple_elements(e);
    if (!items) s.fail("annotations are not a tuple");
    for (std::size_t k = 0; k + 1 < items->size(); k += 2)
      if (const std::string* n = const_str((*items)[k])) out.emplace_back(*n, (*items)[k + 1]);
    return out;
  }
  auto* d = e->as<ast::Dict>();
  if (d) {
    for (std::size_t k = 0; k < d->keys.size(); ++k)
      if (const std::string* n = const_str(d->keys[k])) out.emplace_back(*n, d->values[k]);
    return out;
  }
  if (auto* c = e->as<ast::Constant>())
    if (auto* dv = c->value->as<DictValue>()) {
      for (const auto& [k, v] : dv->items)
        if (auto* n = k->as<StrValue>()) out.emplace_back(n->utf8, ast::constant(v));
      return out;
    }
  s.fail("mapping is not a dict display");
}

void set_function_attribute(State& s, FunctionValue& f, std::uint32_t flag, const ExprPtr& v) {
  if (flag == 0x01) {
    auto items = tuple_elements(v);
    if (!items) s.fail("defaults are not a tuple");
    f.defaults = *items;
  } else if (flag == 0x02) {
    f.kwdefaults = pairs_of(s, v, false);
  } else if (flag == 0x04) {
    f.annotations = pairs_of(s, v, s.row.annotations_as_tuple);
  }
  // 0x08 closure, 0x10 annotate (3.14): nothing to print.
}

std::shared_ptr<FunctionValue> function_from_code(State& s, const ExprPtr& code) {
  auto* c = code->as<ast::Constant>();
  const CodeValue* cv = c ? c->value->as<CodeValue>() : nullptr;
  if (!cv) s.fail("MAKE_FUNCTION without a code object");
  auto f = std::make_shared<FunctionValue>();
  f->code = cv->code;
  return f;
}

void op_make_function(State& s) {
  if (s.row.make_function_has_qualname) s.pop_value();
  auto f = function_from_code(s, s.pop_value());
  std::uint32_t flags = s.row.minor >= 13 ? 0 : s.cur().arg;
  for (std::uint32_t flag : {0x08u, 0x04u, 0x02u, 0x01u})
    if (flags & flag) set_function_attribute(s, *f, flag, s.pop_value());
  Item out = Item::of(Kind::Function);
  out.set(std::move(f));
  s.push(std::move(out));
}
void op_set_function_attribute(State& s) {
  Item f = s.pop();
  ExprPtr v = s.pop_value();
  if (f.kind != Kind::Function) s.fail("SET_FUNCTION_ATTRIBUTE on a value that is not a function");
  set_function_attribute(s, *f.function(), s.cur().arg, v);
  s.push(std::move(f));
}

// --- imports ------------------------------------------------------------------------

void op_import_name(State& s) {
  ExprPtr fromlist = s.pop_value();
  ExprPtr level = s.pop_value();
  Item out = Item::of(Kind::Import);
  auto imp = std::make_shared<ImportValue>();
  imp->module = s.arg().text;
  out.expr = ast::name(imp->module.substr(0, imp->module.find('.')));
  auto* lc = level->as<ast::Constant>();
  if (lc)
    if (auto* iv = lc->value->as<IntValue>()) imp->level = int(iv->small);
  if (!ast::is_none(fromlist)) {
    imp->from_import = true;
    out.sink = std::make_shared<ImportFromSink>(imp->module, imp->level);
  }
  out.set(std::shared_ptr<const ImportValue>(std::move(imp)));
  s.push(std::move(out));
}
void op_import_from(State& s) {
  Item& top = s.peek();
  if (top.kind != Kind::Import) s.fail("IMPORT_FROM without IMPORT_NAME");
  if (!top.import()->from_import) {
    Item copy = top;
    auto longer = std::make_shared<ImportValue>(*top.import());
    longer->attr_path.append(".").append(s.arg().text);
    copy.set(std::shared_ptr<const ImportValue>(std::move(longer)));
    s.push(std::move(copy));
    return;
  }
  auto* sink = dynamic_cast<ImportFromSink*>(top.sink.get());
  Item slot = Item::of(Kind::Slot);
  slot.sink = top.sink;
  slot.index = sink->add_name(std::string(s.arg().text));
  s.push(std::move(slot));
}
void op_import_star(State& s) {
  Item top = s.pop();
  if (top.kind != Kind::Import) s.fail("import * without IMPORT_NAME");
  s.emit(ast::import_from(top.import()->module, {ast::alias("*")}, top.import()->level));
}

// --- unpacking ---------------------------------------------------------------------

void push_unpack(State& s, std::optional<std::size_t> star, std::size_t total) {
  Item src = s.pop();
  std::shared_ptr<UnpackSink> sink;
  if (src.kind == Kind::Slot) sink = std::make_shared<UnpackSink>(total, star, nullptr, src.sink, src.index);
  else sink = std::make_shared<UnpackSink>(total, star, s.value(std::move(src)), nullptr, 0);
  for (std::size_t k = total; k-- > 0;) {
    Item slot = Item::of(Kind::Slot);
    slot.sink = sink;
    slot.index = k;
    s.push(std::move(slot));
  }
}
void op_unpack_sequence(State& s) { push_unpack(s, std::nullopt, s.cur().arg); }
void op_unpack_ex(State& s) {
  std::size_t before = s.cur().arg & 0xff, after = s.cur().arg >> 8;
  push_unpack(s, before, before + 1 + after);
}

// --- generators, returns, raise ------------------------------------------------------------

void op_return_value(State& s) {
  Item i = s.pop();
  // `return x` after `x = v` stored a copy (not `return (x := v)`).
  ExprPtr v;
  auto* alias = i.kind == Kind::Slot ? dynamic_cast<TypeAliasSink*>(i.sink.get()) : nullptr;
  if (i.kind == Kind::Value && !i.bound_to.empty()) v = ast::name(i.bound_to);
  else if (i.kind == Kind::Class) v = s.defined_class(i);  // a generic class's wrapper returns it
  else if (alias) v = s.defined_alias(*alias);              // and a generic alias's
  else v = s.value(std::move(i));
  s.emit(ast::return_(v));
  s.term.kind = Terminator::Kind::Exit;
}
void op_return_const(State& s) {
  s.emit(ast::return_(constant_of(s.arg())));
  s.term.kind = Terminator::Kind::Exit;
}
void op_raise(State& s) {
  std::size_t n = s.cur().arg;
  ExprPtr cause = n == 2 ? s.pop_value() : nullptr;
  ExprPtr exc = n >= 1 ? s.pop_value() : nullptr;
  s.emit(ast::raise_(exc, cause));
  s.term.kind = Terminator::Kind::Exit;
}
void op_yield_value(State& s) { s.push(ast::yield_(s.pop_value())); }
void op_get_iter(State& s) {
  ExprPtr v = as_set_display(s.pop_value());
  s.push(Item::of(Kind::Iter, v));
}
void op_get_yield_from_iter(State& s) {
  Item v = s.pop();
  // A generator expression's iterator is already an iterator: GET_ITER result.
  s.push(ast::yield_from(v.kind == Kind::Iter ? v.expr : s.value(std::move(v))));
}
void op_get_aiter(State& s) {
  ExprPtr v = s.pop_value();
  s.push(Item::of(Kind::AsyncIter, v));
}
// ≤3.11 runs an async comprehension (or one that awaits) as a coroutine
// function and awaits its call: the source has the comprehension alone.
void op_get_awaitable(State& s) {
  ExprPtr v = s.pop_value();
  if (v->is<ast::ListComp>() || v->is<ast::SetComp>() || v->is<ast::DictComp>()) {
    s.push(v);
    return;
  }
  s.push(ast::await_(v));
}
// The loop's end on StopAsyncIteration: drops the exception and the iterator.
void op_end_async_for(State& s) {
  for (int k = 0; k < s.row.end_async_for_pops && !s.stack.empty(); ++k) s.pop();
}
void op_yield_from(State& s) {  // ≤3.10: [awaitable, None] -> result
  s.pop();
  s.push(s.pop_value());
}
void op_return_generator(State& s) { s.push(Item::of(Kind::Marker)); }
void op_end_send(State&) {}

// --- exceptions and with (3.11+) -----------------------------------------------------------

void op_push_exc_info(State& s) {
  Item exc = s.pop();
  s.push(Item::of(Kind::Marker));
  s.push(std::move(exc));
}
void op_pop_except(State& s) {
  for (int k = 0; k < s.row.pop_except_pops && !s.stack.empty(); ++k) s.pop();
  s.pop_except = true;
  s.after_pop_except = s.pos + 1;
  s.stmts_before_pop_except = s.stmts.size();
}
void op_pop_block(State&) {}

// 3.8 finally subroutines, as seen on the normal path: BEGIN_FINALLY pushes
// NULL, END_FINALLY pops it; a with's cleanup pushes the __exit__ result.
void op_begin_finally(State& s) { s.push(Item::of(Kind::Marker)); }
void op_end_finally(State& s) {
  if (!s.stack.empty()) s.pop();
  if (!s.with_cleanup) s.end_finally = true;
}
// 3.8 `return`/`break` out of try/finally or with: CALL_FINALLY runs the
// finally body and comes back with the stack as it was; POP_FINALLY then
// drops what BEGIN_FINALLY pushed (keeping the returned value on top).
void op_call_finally(State&) {}
void op_pop_finally(State& s) {
  if (s.arg().number != 0) {
    Item top = s.stack.empty() ? Item::of(Kind::Marker) : s.stack.back();
    s.pop();
    s.pop();
    s.push(std::move(top));
  } else {
    s.pop();
  }
}
void op_with_cleanup_start(State& s) {
  s.with_cleanup = true;
  s.push(Item::of(Kind::Marker));
}
void op_with_cleanup_finish(State& s) {
  s.pop();
  s.pop();
}
void op_check_exc_match(State& s) {
  ExprPtr type = s.pop_value();
  s.exc_match = type;
  s.push(type);
}
void op_before_with(State& s) {
  ExprPtr ctx = s.pop_value();
  s.push(Item::of(Kind::Marker, ctx));  // __exit__
  Item slot = Item::of(Kind::Slot);
  slot.sink = std::make_shared<TargetSink>();
  s.push(std::move(slot));
}

// --- 3.12+ type parameters (⇄ codegen_type_params) ------------------------------------
// Each is made from its name (and a lazily evaluated bound, constraints or
// default), kept in a variable of its name, and the tuple of them goes to the
// def (INTRINSIC_SET_FUNCTION_TYPE_PARAMS), the class (`.type_params`, and
// Generic[...] as its last base) or the type alias.

Item type_param_item(ast::TypeParam p) {
  Item i = Item::of(Kind::TypeParam);
  i.set(std::make_shared<const ast::TypeParamList>(ast::TypeParamList{std::move(p)}));
  return i;
}
std::string type_param_name(State& s) {
  const std::string* n = const_str(s.pop_value());
  if (!n || !ast::is_identifier(*n)) s.fail("a type parameter's name is not an identifier");
  return *n;
}
// A bound, constraints or default: the expression a function made for it returns.
ExprPtr lazily_computed(State& s, const Item& compute, const char* what) {
  ExprPtr v = compute.kind == Kind::Function ? s.definer().lazy_value(*compute.function()) : nullptr;
  if (!v) s.fail(std::string("a type parameter's ") + what + " is not a lazily computed value");
  return v;
}
bool is_tuple_value(const ExprPtr& e) {
  if (e->is<ast::Tuple>()) return true;
  auto* c = e->as<ast::Constant>();
  return c && c->value && c->value->is<TupleValue>();
}

void op_call_intrinsic_2(State& s) {
  std::string_view what = s.arg().text;
  if (what == "INTRINSIC_TYPEVAR_WITH_BOUND" || what == "INTRINSIC_TYPEVAR_WITH_CONSTRAINTS") {
    Item compute = s.pop();
    std::string name = type_param_name(s);
    const bool constraints = what == "INTRINSIC_TYPEVAR_WITH_CONSTRAINTS";
    ExprPtr bound = lazily_computed(s, compute, constraints ? "constraints" : "bound");
    // Constraints are written as a tuple (`T: (int, str)`); a bound never is one.
    if (constraints != is_tuple_value(bound) || bound->is<ast::Starred>())
      s.fail(constraints ? "a type parameter's constraints are not a tuple" : "a type parameter's bound is a tuple");
    if (auto elts = tuple_elements(bound); elts && bound->is<ast::Constant>()) bound = ast::tuple(*elts);
    s.push(type_param_item({ast::TypeVar{name, bound, nullptr}}));
  } else if (what == "INTRINSIC_SET_TYPEPARAM_DEFAULT") {  // 3.13+ (PEP 696)
    Item compute = s.pop();
    Item param = s.pop();
    if (param.kind != Kind::TypeParam) s.fail("a default for something that is not a type parameter");
    ExprPtr d = lazily_computed(s, compute, "default");
    ast::TypeParam p = param.type_params()->front();
    // Only a TypeVarTuple's default may be unpacked (`*Ts = *tuple[int]`).
    if (d->is<ast::Starred>() && !std::holds_alternative<ast::TypeVarTuple>(p.node))
      s.fail("an unpacked default for a type parameter that is not a TypeVarTuple");
    std::visit([&](auto& t) { t.default_value = d; }, p.node);
    s.push(type_param_item(std::move(p)));
  } else if (what == "INTRINSIC_SET_FUNCTION_TYPE_PARAMS") {
    Item params = s.pop();
    Item f = s.pop();
    if (f.kind != Kind::Function || params.kind != Kind::TypeParams)
      s.fail("type parameters set on something that is not a function");
    if (!f.function()->type_params.empty()) s.fail("a function's type parameters set twice");
    f.function()->type_params = *params.type_params();
    s.push(std::move(f));
  } else {
    s.fail("intrinsic " + std::string(what) + " is not supported");
  }
}

void op_call_intrinsic_1(State& s) {
  std::string_view what = s.arg().text;
  if (what == "INTRINSIC_IMPORT_STAR") {
    op_import_star(s);
    s.push(Item::of(Kind::Marker));
  } else if (what == "INTRINSIC_UNARY_POSITIVE") {
    s.push(ast::unaryop(ast::UnaryOperator::UAdd, s.pop_value()));
  } else if (what == "INTRINSIC_LIST_TO_TUPLE") {
    op_list_to_tuple(s);
  } else if (what == "INTRINSIC_ASYNC_GEN_WRAP") {
  } else if (what == "INTRINSIC_TYPEALIAS") {
    if (s.stack.empty() || !dynamic_cast<TypeAliasSink*>(s.peek().sink.get())) s.fail("type alias without its tuple");
  } else if (what == "INTRINSIC_TYPEVAR") {
    s.push(type_param_item({ast::TypeVar{type_param_name(s), nullptr, nullptr}}));
  } else if (what == "INTRINSIC_PARAMSPEC") {
    s.push(type_param_item({ast::ParamSpec{type_param_name(s), nullptr}}));
  } else if (what == "INTRINSIC_TYPEVARTUPLE") {
    s.push(type_param_item({ast::TypeVarTuple{type_param_name(s), nullptr}}));
  } else if (what == "INTRINSIC_SUBSCRIPT_GENERIC") {  // a generic class's Generic[T...] base
    ExprPtr v = s.pop_value();
    auto* n = v->as<ast::Name>();
    const Item* params = n ? s.lifter.hidden(n->id) : nullptr;
    if (!params || params->kind != Kind::TypeParams) s.fail("Generic[...] of something that is not the type parameters");
    Item base = Item::of(Kind::GenericBase);
    base.set(params->type_params());
    s.push(std::move(base));
  } else {
    s.fail("intrinsic " + std::string(what) + " is not supported");
  }
}

const std::unordered_map<std::string_view, Handler>& handlers() {
  static const std::unordered_map<std::string_view, Handler> table = [] {
    std::unordered_map<std::string_view, Handler> t;
    for (auto n : {"NOP", "RESUME", "CACHE", "EXTENDED_ARG", "PRECALL", "MAKE_CELL",
                   "COPY_FREE_VARS", "GEN_START", "SETUP_ANNOTATIONS", "NOT_TAKEN", "TO_BOOL",
                   "RESUME_CHECK", "INSTRUMENTED_RESUME"})
      t[n] = op_nop;
    t["POP_TOP"] = op_pop_top;
    t["END_FOR"] = op_end_for;
    t["POP_ITER"] = op_pop_iter;
    t["ROT_TWO"] = op_rot_two;
    t["ROT_THREE"] = op_rot_three;
    t["ROT_FOUR"] = op_rot_four;
    t["ROT_N"] = op_rot_n;
    t["SWAP"] = op_swap;
    t["DUP_TOP"] = op_dup_top;
    t["DUP_TOP_TWO"] = op_dup_top_two;
    t["COPY"] = op_copy;
    t["PUSH_NULL"] = op_push_null;
    for (auto n : {"LOAD_CONST", "LOAD_CONST_IMMORTAL", "LOAD_CONST_MORTAL"}) t[n] = op_load_const;
    t["LOAD_SMALL_INT"] = op_load_small_int;
    t["LOAD_FAST_AND_CLEAR"] = op_load_saved;
    for (auto n : {"LOAD_NAME", "LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_BORROW", "LOAD_DEREF",
                   "LOAD_CLASSDEREF"})
      t[n] = op_load_name;
    t["LOAD_LOCALS"] = op_load_locals;
    t["LOAD_FROM_DICT_OR_DEREF"] = op_load_from_dict;
    t["LOAD_FROM_DICT_OR_GLOBALS"] = op_load_from_dict;
    t["LOAD_GLOBAL"] = op_load_global;
    t["LOAD_FAST_LOAD_FAST"] = op_load_fast_pair;
    t["LOAD_FAST_BORROW_LOAD_FAST_BORROW"] = op_load_fast_pair;
    t["LOAD_CLOSURE"] = op_load_closure;
    t["LOAD_ASSERTION_ERROR"] = op_load_assertion_error;
    t["LOAD_BUILD_CLASS"] = op_load_build_class;
    t["LOAD_COMMON_CONSTANT"] = op_load_common_constant;
    t["LOAD_ATTR"] = op_load_attr;
    t["LOAD_METHOD"] = op_load_method;
    t["LOAD_SUPER_ATTR"] = op_load_super_attr;
    t["STORE_NAME"] = op_store_name;
    t["STORE_FAST"] = op_store_name;
    t["STORE_GLOBAL"] = op_store_global;
    t["STORE_DEREF"] = op_store_deref;
    t["STORE_FAST_STORE_FAST"] = op_store_fast_pair;
    t["STORE_FAST_LOAD_FAST"] = op_store_fast_load_fast;
    t["STORE_ATTR"] = op_store_attr;
    t["STORE_SUBSCR"] = op_store_subscr;
    t["STORE_SLICE"] = op_store_slice;
    for (auto n : {"DELETE_NAME", "DELETE_FAST", "DELETE_GLOBAL", "DELETE_DEREF"}) t[n] = op_delete_name;
    t["DELETE_ATTR"] = op_delete_attr;
    t["DELETE_SUBSCR"] = op_delete_subscr;
    for (auto n : {"BINARY_POWER", "BINARY_MULTIPLY", "BINARY_MATRIX_MULTIPLY", "BINARY_FLOOR_DIVIDE",
                   "BINARY_TRUE_DIVIDE", "BINARY_MODULO", "BINARY_ADD", "BINARY_SUBTRACT",
                   "BINARY_LSHIFT", "BINARY_RSHIFT", "BINARY_AND", "BINARY_XOR", "BINARY_OR",
                   "INPLACE_POWER", "INPLACE_MULTIPLY", "INPLACE_MATRIX_MULTIPLY",
                   "INPLACE_FLOOR_DIVIDE", "INPLACE_TRUE_DIVIDE", "INPLACE_MODULO", "INPLACE_ADD",
                   "INPLACE_SUBTRACT", "INPLACE_LSHIFT", "INPLACE_RSHIFT", "INPLACE_AND",
                   "INPLACE_XOR", "INPLACE_OR"})
      t[n] = op_binary_named;
    t["BINARY_OP"] = op_binary_op;
    for (auto n : {"UNARY_POSITIVE", "UNARY_NEGATIVE", "UNARY_NOT", "UNARY_INVERT"}) t[n] = op_unary;
    t["COMPARE_OP"] = op_compare;
    t["IS_OP"] = op_is_op;
    t["CONTAINS_OP"] = op_contains_op;
    t["BINARY_SUBSCR"] = op_binary_subscr;
    t["BUILD_SLICE"] = op_build_slice;
    t["BINARY_SLICE"] = op_binary_slice;
    t["BUILD_TUPLE"] = op_build_tuple;
    t["BUILD_LIST"] = op_build_list;
    t["BUILD_SET"] = op_build_set;
    t["BUILD_MAP"] = op_build_map;
    t["BUILD_CONST_KEY_MAP"] = op_build_const_key_map;
    t["LIST_EXTEND"] = op_list_extend;
    t["SET_UPDATE"] = op_set_update;
    t["DICT_UPDATE"] = op_dict_update;
    t["DICT_MERGE"] = op_dict_update;
    t["LIST_TO_TUPLE"] = op_list_to_tuple;
    t["BUILD_TUPLE_UNPACK"] = op_build_tuple_unpack;
    t["BUILD_TUPLE_UNPACK_WITH_CALL"] = op_build_tuple_unpack;
    t["BUILD_LIST_UNPACK"] = op_build_list_unpack;
    t["BUILD_SET_UNPACK"] = op_build_set_unpack;
    t["BUILD_MAP_UNPACK"] = op_build_map_unpack;
    t["BUILD_MAP_UNPACK_WITH_CALL"] = op_build_map_unpack;
    t["LIST_APPEND"] = op_list_append;
    t["SET_ADD"] = op_list_append;
    t["MAP_ADD"] = op_map_add;
    t["FORMAT_VALUE"] = op_format_value;
    t["CONVERT_VALUE"] = op_convert_value;
    t["FORMAT_SIMPLE"] = op_format_simple;
    t["FORMAT_WITH_SPEC"] = op_format_with_spec;
    t["BUILD_STRING"] = op_build_string;
    t["MAKE_FUNCTION"] = op_make_function;
    t["SET_FUNCTION_ATTRIBUTE"] = op_set_function_attribute;
    t["IMPORT_NAME"] = op_import_name;
    t["IMPORT_FROM"] = op_import_from;
    t["IMPORT_STAR"] = op_import_star;
    t["UNPACK_SEQUENCE"] = op_unpack_sequence;
    t["UNPACK_EX"] = op_unpack_ex;
    t["RETURN_VALUE"] = op_return_value;
    t["RETURN_CONST"] = op_return_const;
    t["RAISE_VARARGS"] = op_raise;
    t["YIELD_VALUE"] = op_yield_value;
    t["GET_ITER"] = op_get_iter;
    t["GET_YIELD_FROM_ITER"] = op_get_yield_from_iter;
    t["GET_AWAITABLE"] = op_get_awaitable;
    t["GET_AITER"] = op_get_aiter;
    t["END_ASYNC_FOR"] = op_end_async_for;
    t["ASYNC_GEN_WRAP"] = op_nop;  // 3.11: wraps what an async generator yields
    t["YIELD_FROM"] = op_yield_from;
    t["RETURN_GENERATOR"] = op_return_generator;
    t["END_SEND"] = op_end_send;
    t["PUSH_EXC_INFO"] = op_push_exc_info;
    t["POP_EXCEPT"] = op_pop_except;
    t["CHECK_EXC_MATCH"] = op_check_exc_match;
    t["BEFORE_WITH"] = op_before_with;
    t["SETUP_WITH"] = op_before_with;
    t["SETUP_FINALLY"] = op_nop;
    t["POP_BLOCK"] = op_pop_block;
    t["BEGIN_FINALLY"] = op_begin_finally;
    t["END_FINALLY"] = op_end_finally;
    t["WITH_CLEANUP_START"] = op_with_cleanup_start;
    t["CALL_FINALLY"] = op_call_finally;
    t["POP_FINALLY"] = op_pop_finally;
    t["WITH_CLEANUP_FINISH"] = op_with_cleanup_finish;
    t["CALL_INTRINSIC_1"] = op_call_intrinsic_1;
    t["CALL_INTRINSIC_2"] = op_call_intrinsic_2;
    t["CALL_FUNCTION"] = op_call_function;
    t["CALL_METHOD"] = op_call_method;
    t["CALL_FUNCTION_KW"] = op_call_function_kw;
    t["CALL"] = op_call;
    t["CALL_KW"] = op_call_kw;
    t["KW_NAMES"] = op_kw_names;
    t["CALL_FUNCTION_EX"] = op_call_function_ex;
    return t;
  }();
  return table;
}

// 3.11+ `a, b = x, y`: the compiler drops the tuple and the SWAP and stores
// in reverse order (`x; y; STORE b; STORE a`). Stores that each take one of
// several distinct values pending on the stack are that tuple assignment.
bool parallel_store(State& s) {
  // This runs for every instruction: stores are found by op, and the work
  // below done only where one starts (their names resolved as before, so a
  // bad one fails here the same way).
  std::size_t n = 0, k = s.pos;
  for (; k < s.ins.size(); ++k) {
    const Op op = s.ins[k].op();
    if (op == Op::STORE_FAST || op == Op::STORE_NAME) n += 1;
    else if (op == Op::STORE_FAST_STORE_FAST) n += 2;
    else break;
  }
  if (n == 0) return false;
  // In store order; views into the code's name tables. A lone store (most of
  // them) keeps none: its name is resolved all the same, to fail as before.
  std::vector<std::string_view> targets;
  if (n >= 2) targets.reserve(n);
  for (std::size_t x = s.pos; x < k; ++x) {
    ResolvedArg a = resolve_argument(s.code, s.ins[x]);
    if (n < 2) continue;
    targets.push_back(a.text);
    if (s.ins[x].op() == Op::STORE_FAST_STORE_FAST) targets.push_back(a.second);
  }
  // Only where the stores take exactly the pending values (no more stores).
  if (n < 2 || s.stack.size() < n) return false;
  for (std::size_t i = 1; i <= n; ++i) {
    const Item& it = s.peek(i);
    if (it.kind != Kind::Value) return false;
    for (std::size_t j = i + 1; j <= n; ++j)
      if (s.peek(j).expr == it.expr) return false;
  }
  // Stores that could also be separate statements (a value computed for the
  // first store only) never leave two values pending, so this is a tuple.
  ExprList values = s.pop_values(n), names;
  names.reserve(n);
  for (std::size_t i = n; i-- > 0;) names.push_back(ast::name(targets[i], ast::ExprContext::Store));
  s.emit(ast::assign(ast::tuple(names, ast::ExprContext::Store), ast::tuple(values)));
  s.pos = k - 1;
  return true;
}

// Control transfer at the end of a block (the ops that end in TK::Branch are
// listed again in Lifter::may_branch).
bool terminate(State& s) {
  // A switch on Op: this runs for every instruction lifted, and comparing
  // names cost a dozen string compares each time.
  using TK = Terminator::Kind;
  s.term.ins = &s.cur();
  auto branch = [&](bool jump_if) {
    s.term.kind = TK::Branch;
    s.term.cond = s.pop_value();
    s.term.jump_if = jump_if;
    s.term.exc_match = s.exc_match && s.term.cond == s.exc_match;
  };
  auto none_test = [&](bool is_not) {
    s.term.kind = TK::Branch;
    s.term.cond = ast::compare(s.pop_value(), is_not ? ast::CmpOperator::IsNot : ast::CmpOperator::Is,
                               ast::none());
    s.term.jump_if = true;
  };
  switch (s.cur().op()) {
    case Op::JUMP_FORWARD:
    case Op::JUMP_ABSOLUTE:
    case Op::JUMP_BACKWARD:
    case Op::JUMP_BACKWARD_NO_INTERRUPT:
      s.term.kind = TK::Fall;
      return true;
    case Op::POP_JUMP_IF_FALSE:
    case Op::POP_JUMP_FORWARD_IF_FALSE:
    case Op::POP_JUMP_BACKWARD_IF_FALSE:
      branch(false);
      return true;
    case Op::POP_JUMP_IF_TRUE:
    case Op::POP_JUMP_FORWARD_IF_TRUE:
    case Op::POP_JUMP_BACKWARD_IF_TRUE:
      branch(true);
      return true;
    case Op::POP_JUMP_IF_NONE:
    case Op::POP_JUMP_FORWARD_IF_NONE:
    case Op::POP_JUMP_BACKWARD_IF_NONE:
      none_test(false);
      return true;
    case Op::POP_JUMP_IF_NOT_NONE:
    case Op::POP_JUMP_FORWARD_IF_NOT_NONE:
    case Op::POP_JUMP_BACKWARD_IF_NOT_NONE:
      none_test(true);
      return true;
    case Op::JUMP_IF_FALSE_OR_POP:
    case Op::JUMP_IF_TRUE_OR_POP:
      s.term.kind = TK::KeepBranch;
      s.term.cond = s.value(s.peek());
      s.term.jump_if = s.cur().op() == Op::JUMP_IF_TRUE_OR_POP;
      return true;
    case Op::FOR_ITER:
      s.term.kind = TK::ForIter;
      return true;
    case Op::SEND:
      s.term.kind = TK::Send;
      return true;
    case Op::JUMP_IF_NOT_EXC_MATCH:  // 3.9-3.10: pops [exc, E], jumps when no match
      s.term.kind = TK::Branch;
      s.term.cond = s.pop_value();
      s.pop();
      s.term.jump_if = false;
      s.term.exc_match = true;
      return true;
    case Op::RERAISE:
      s.term.kind = TK::Exit;
      s.reraise = true;
      return true;
    case Op::SETUP_ASYNC_WITH:
    case Op::WITH_EXCEPT_START:
      s.fail("exception handling and with statements are not supported yet");
    default:
      return false;
  }
}

// handlers() indexed by Op: the dispatch of every instruction is one load,
// not a string hash and a compare.
const std::array<Handler, kOpCount>& handlers_by_op() {
  static const auto table = [] {
    std::array<Handler, kOpCount> t{};
    for (const auto& [name, handler] : handlers())
      if (const Op op = op_named(name); op != Op::Unknown) t[static_cast<std::size_t>(op)] = handler;
    return t;
  }();
  return table;
}

}  // namespace

bool Lifter::may_branch(std::span<const Instruction> ins) {
  // The instructions terminate() ends in TK::Branch. Each is a conditional
  // jump, and the CFG ends a block at every jump: only the last can be one.
  if (ins.empty()) return false;
  switch (ins.back().op()) {
    case Op::POP_JUMP_IF_FALSE:
    case Op::POP_JUMP_FORWARD_IF_FALSE:
    case Op::POP_JUMP_BACKWARD_IF_FALSE:
    case Op::POP_JUMP_IF_TRUE:
    case Op::POP_JUMP_FORWARD_IF_TRUE:
    case Op::POP_JUMP_BACKWARD_IF_TRUE:
    case Op::POP_JUMP_IF_NONE:
    case Op::POP_JUMP_FORWARD_IF_NONE:
    case Op::POP_JUMP_BACKWARD_IF_NONE:
    case Op::POP_JUMP_IF_NOT_NONE:
    case Op::POP_JUMP_FORWARD_IF_NOT_NONE:
    case Op::POP_JUMP_BACKWARD_IF_NOT_NONE:
    case Op::JUMP_IF_NOT_EXC_MATCH:
      return true;
    default:
      return false;
  }
}

const ExprPtr& Lifter::assertion_error() {
  return ast::kept_node<[] { return ast::name("AssertionError"); }>();
}

namespace {
// The shape of the names new_temporary() makes.
bool temporary_shaped(std::string_view n) { return n.size() > 2 && n[0] == '_' && n[1] == 't'; }

// Calls f with every name the code and its nested code use.
template <class F>
void for_each_name(const CodeObject& c, const F& f) {
  for (const auto* group : {&c.names, &c.varnames, &c.cellvars, &c.freevars})
    for (const std::string_view n : *group) f(n);
  for (const ObjectRef& k : c.consts)
    if (auto* cv = k ? k->as<CodeValue>() : nullptr; cv && cv->code) for_each_name(*cv->code, f);
}
}  // namespace

Lifter::Lifter(const DecodedCode& code, Definer& definer)
    : code_(code), definer_(definer), row_(version_row(code.traits->minor)) {
  auto& pool = ring_pool();
  if (pool.empty()) {
    lifts_.reserve(kCachedLifts);
  } else {
    lifts_ = std::move(pool.back());
    pool.pop_back();
  }
}

Lifter::~Lifter() {
  lifts_.clear();
  try {
    ring_pool().push_back(std::move(lifts_));
  } catch (const std::bad_alloc&) {  // not kept
  }
}

std::vector<std::vector<Lifter::CachedLift>>& Lifter::ring_pool() {
  return per_thread<std::vector<std::vector<CachedLift>>>();
}

// Whether the code or its nested code uses the name, or a definition took it.
// Temporaries ask most, and Dynamo's code has thousands of names, few of them
// shaped like a temporary: those are collected on first need (as views into
// the code objects, which live as long as the lifter), and any other name is
// looked for where it would be (only a definition used as a value asks).
bool Lifter::taken(std::string_view name) {
  if (taken_.count(name)) return true;
  if (!code_.code) return false;
  if (!temporary_shaped(name)) {
    bool found = false;
    for_each_name(*code_.code, [&](std::string_view n) { found = found || n == name; });
    return found;
  }
  if (!names_collected_) {
    for_each_name(*code_.code, [&](std::string_view n) {
      if (temporary_shaped(n)) code_names_.insert(n);
    });
    names_collected_ = true;
  }
  return code_names_.contains(name);
}

ast::ExprPtr Lifter::expression_of(const Item& i) const {
  switch (i.kind) {
    case Kind::Value:
      return i.bound_to.empty() ? i.expr : ast::name(i.bound_to);
    case Kind::Import:
      return i.expr;
    case Kind::Iter:
      return i.expr ? ast::call(ast::name("iter"), {i.expr}) : nullptr;
    case Kind::AsyncIter:
      return i.expr ? ast::call(ast::name("aiter"), {i.expr}) : nullptr;
    case Kind::Function:
      if (auto e = definer_.function_expr(*i.function(), nullptr)) {
        return called_by_decorators(std::move(e), *i.function());
      }
      return nullptr;
    default:
      return nullptr;
  }
}

bool Lifter::computes_nothing(const ast::ExprPtr& e) const {
  if (!e) return true;
  if (e->is<ast::Constant>()) return true;
  if (auto* n = e->as<ast::Name>()) return temporaries_.count(n->id) > 0;
  auto all = [&](const ExprList& l) {
    for (const ExprPtr& x : l)
      if (!computes_nothing(x)) return false;
    return true;
  };
  if (auto* t = e->as<ast::Tuple>()) return all(t->elts);
  if (auto* l = e->as<ast::List>()) return all(l->elts);
  return false;
}

std::string Lifter::new_temporary() {
  for (;;) {
    std::string n = "_t" + std::to_string(++temporary_count_);
    if (!taken(n)) {
      temporaries_.insert(n);
      return n;
    }
  }
}

namespace {
// An item whose meaning is its fields alone: no object that a lift may change.
bool immutable(const Item& i) { return !i.function() && !i.cls() && !i.sink; }

bool same_entry(const Stack& a, const Stack& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k) {
    const Item &x = a[k], &y = b[k];
    if (x.kind != y.kind || x.expr != y.expr || x.import() != y.import() || x.index != y.index ||
        x.seq != y.seq || x.bound_to != y.bound_to || x.type_params() != y.type_params())
      return false;
  }
  return true;
}
}  // namespace

void Lifter::remember(CachedLift entry) {
  if (lifts_.size() < kCachedLifts) {
    lifts_.push_back(std::move(entry));
    return;
  }
  lifts_[next_lift_] = std::move(entry);
  next_lift_ = (next_lift_ + 1) % kCachedLifts;
}

BlockEffect Lifter::run(const cfg::Graph& graph, cfg::BlockId id, Stack stack) {
  if (!std::all_of(stack.begin(), stack.end(), immutable))
    return lift_block(graph, id, std::move(stack), 0, graph.instructions(id).size());
  std::shared_ptr<BlockEffect> e = cached_effect(graph, id, stack);
  if (e.use_count() == 1) return std::move(*e);  // not kept: no one else sees it
  return *e;
}

std::shared_ptr<const BlockEffect> Lifter::effect(const cfg::Graph& graph, cfg::BlockId id,
                                                  const Stack& stack) {
  if (!std::all_of(stack.begin(), stack.end(), immutable))
    return std::make_shared<const BlockEffect>(lift_block(graph, id, stack, 0, graph.instructions(id).size()));
  return cached_effect(graph, id, stack);
}

std::shared_ptr<BlockEffect> Lifter::cached_effect(const cfg::Graph& graph, cfg::BlockId id,
                                                         const Stack& stack) {
  if (cached_graph_ != &graph) {
    lifts_.clear();
    next_lift_ = 0;
    cached_graph_ = &graph;
  }
  for (const CachedLift& c : lifts_)
    if (c.block == id && same_entry(c.entry, stack)) {
      if (c.error) throw *c.error;
      return c.effect;
    }
  // What a lift may change besides its result.
  auto state = [&] {
    return std::make_tuple(temporary_count_, temporaries_.size(), taken_.size(), code_names_.size(), names_collected_,
                           globals_.size(), nonlocals_.size(), hidden_.size(), hidden_reads_);
  };
  const auto before = state();
  std::shared_ptr<BlockEffect> effect;
  try {
    effect = std::make_shared<BlockEffect>(lift_block(graph, id, stack, 0, graph.instructions(id).size()));
  } catch (const Error& e) {
    if (state() == before) remember(CachedLift{id, stack, nullptr, e});
    throw;
  }
  if (state() == before && std::all_of(effect->stack.begin(), effect->stack.end(), immutable))
    remember(CachedLift{id, stack, effect, std::nullopt});
  return effect;
}

BlockEffect Lifter::run(const cfg::Graph& graph, cfg::BlockId id, Stack stack, std::size_t first,
                        std::size_t end) {
  return lift_block(graph, id, std::move(stack), first, end);
}

namespace {
// The work stacks of lifts, kept per thread: a lift's stack wants room for the
// deepest stack of the code, and most blocks end with an empty one, so a
// buffer of that size per lift was an allocation for nothing. Lifts nest (a
// nested function is decompiled inside one): a pool, not one buffer.
struct StackPool {
  std::vector<Stack> free;
};
// Lends a pooled buffer to `target` for as long as it lives.
class PooledStack {
 public:
  explicit PooledStack(Stack& target) : target_(target) {
    auto& free = per_thread<StackPool>().free;
    if (!free.empty()) {
      target_.swap(free.back());
      free.pop_back();
    }
  }
  ~PooledStack() {
    target_.clear();
    if (target_.capacity() > kKeptItems) return;  // a huge one is not kept
    try {
      per_thread<StackPool>().free.push_back(std::move(target_));
    } catch (const std::bad_alloc&) {  // not kept
    }
  }
  PooledStack(const PooledStack&) = delete;
  PooledStack& operator=(const PooledStack&) = delete;

 private:
  static constexpr std::size_t kKeptItems = 256;
  Stack& target_;
};
}  // namespace

// The entry items are copied (a cached lift's entry stays the caller's) or
// moved straight into the pooled work stack: no intermediate stack.
BlockEffect Lifter::lift_block(const cfg::Graph& graph, cfg::BlockId id, const Stack& entry, std::size_t first,
                               std::size_t end) {
  State s{*this, code_, row_, graph.instructions(id).subspan(first, end - first)};
  PooledStack work(s.stack);
  // Items are big and moved on every regrowth: room for the deepest stack
  // the compiler computed, once (a bad co_stacksize only costs a regrowth).
  s.stack.reserve(entry.size() + stack_room());
  s.stack.insert(s.stack.end(), entry.begin(), entry.end());
  return lift_instructions(s);
}

BlockEffect Lifter::lift_block(const cfg::Graph& graph, cfg::BlockId id, Stack&& entry, std::size_t first,
                               std::size_t end) {
  State s{*this, code_, row_, graph.instructions(id).subspan(first, end - first)};
  PooledStack work(s.stack);
  s.stack.reserve(entry.size() + stack_room());
  s.stack.insert(s.stack.end(), std::make_move_iterator(entry.begin()), std::make_move_iterator(entry.end()));
  return lift_instructions(s);
}

BlockEffect Lifter::lift_instructions(State& s) {
  const auto& handlers = handlers_by_op();  // (a guarded static: looked up once per block)
  for (s.pos = 0; s.pos < s.ins.size(); ++s.pos) {
    if (terminate(s)) continue;
    if (row_.static_swaps && parallel_store(s)) continue;
    const Handler handler = handlers[static_cast<std::size_t>(s.cur().op())];
    if (!handler) s.fail("opcode is not supported");
    handler(s);
  }
  // The stack left is copied out at its size (the work buffer goes back to the pool).
  BlockEffect out{std::move(s.stmts),
                  Stack(std::make_move_iterator(s.stack.begin()), std::make_move_iterator(s.stack.end())),
                  std::move(s.term), s.pop_except, 0, 0, s.reraise, s.end_finally};
  out.after_pop_except = s.after_pop_except;
  out.stmts_before_pop_except = s.stmts_before_pop_except;
  return out;
}

}  // namespace unveil::lift
