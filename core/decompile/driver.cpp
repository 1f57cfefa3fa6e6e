#include "decompile/driver.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <optional>
#include <set>
#include <utility>

#include "ast/build.h"
#include "ast/rewrite.h"
#include "emit/unparse.h"
#include "decode/argument.h"
#include "decode/decode.h"
#include "decompile/private_names.h"
#include "decompile/signature.h"
#include "disasm/disassemble.h"
#include "lift/sinks.h"
#include "lift/version_table.h"
#include "structure/comprehension.h"
#include "structure/dispatch.h"
#include "structure/simplify.h"
#include "structure/temporaries.h"
#include "structure/structurer.h"
#include "support/error.h"

namespace unveil::decompile {

using ast::StmtList;

namespace {

constexpr int kMaxDepth = 200;

// A comprehension whose first iterable is replaced.
ast::ExprPtr with_iter(const ast::ExprPtr& e, const ast::ExprPtr& iter) {
  auto swap_first = [&](std::vector<ast::Comprehension> gens) {
    if (!gens.empty()) gens[0].iter = iter;
    return gens;
  };
  if (auto* c = e->as<ast::ListComp>()) return ast::list_comp(c->elt, swap_first(c->generators));
  if (auto* c = e->as<ast::SetComp>()) return ast::set_comp(c->elt, swap_first(c->generators));
  if (auto* c = e->as<ast::DictComp>()) return ast::dict_comp(c->key, c->value, swap_first(c->generators));
  return nullptr;
}

bool is_str(const ObjectRef& o) { return o && o->is<StrValue>(); }

// The docstring a def carries in co_consts[0] (≤3.13) or by flag (3.14).
ast::StmtPtr docstring_of(const CodeObject& c, const lift::VersionRow& row) {
  bool has = row.docstring_in_consts ? true : (c.flags & kCoHasDocstring) != 0;
  if (!has || c.consts.empty() || !is_str(c.consts[0])) return nullptr;
  return ast::expr_stmt(ast::constant(c.consts[0]));
}

// A lambda body back to one expression: `return v`, and the `if c: return a`
// / `return b` that 3.12+ makes of `a if c else b` by copying the return.
ast::ExprPtr as_expression(const StmtList& body) {
  if (body.empty()) return nullptr;
  if (body.size() == 1)
    if (auto* r = body[0]->as<ast::Return>()) return r->value;
  if (auto* i = body[0]->as<ast::If>()) {
    StmtList rest(body.begin() + 1, body.end());
    if (!i->orelse.empty() && !rest.empty()) return nullptr;
    ast::ExprPtr a = as_expression(i->body);
    ast::ExprPtr b = as_expression(i->orelse.empty() ? rest : i->orelse);
    if (a && b) return ast::if_exp(i->test, a, b);
  }
  return nullptr;
}

bool is_docstring(const ast::StmtPtr& st) {
  auto* e = st->as<ast::ExprStmt>();
  auto* c = e ? e->value->as<ast::Constant>() : nullptr;
  return c && c->value && c->value->is<StrValue>();
}

// The names module or class code reads, stores or deletes as globals: each
// was declared `global`. (Not 3.8's `assert`, which loads AssertionError
// with LOAD_GLOBAL; reads only when `reads` says they are declarations.)
std::set<std::string> global_names(const DecodedCode& decoded, bool reads) {
  std::set<std::string> names;
  for (const Instruction& ins : decoded.instructions) {
    if (!ins.info || (ins.op() != Op::STORE_GLOBAL && !(reads && ins.op() == Op::LOAD_GLOBAL) &&
                      ins.op() != Op::DELETE_GLOBAL))
      continue;
    std::string_view n = resolve_argument(decoded, ins).text;
    if (!(ins.op() == Op::LOAD_GLOBAL && n == "AssertionError")) names.emplace(n);
  }
  return names;
}

// A def or class built elsewhere (a generic one) under the enclosing code's
// name and decorators.
ast::StmtPtr renamed(const ast::StmtPtr& def, const std::string& name, const ast::ExprList& decorators) {
  auto redo = [&](auto node) {
    node.name = name;
    node.decorator_list = decorators;
    return ast::make_stmt(std::move(node), def->line);
  };
  if (auto* f = def->as<ast::FunctionDef>()) return redo(*f);
  if (auto* f = def->as<ast::AsyncFunctionDef>()) return redo(*f);
  if (auto* c = def->as<ast::ClassDef>()) return redo(*c);
  return def;
}

// The last code object in `code`'s constants named `name` (a generic
// wrapper's def or class body comes after its bounds' code).
std::shared_ptr<const CodeObject> nested_code(const CodeObject& code, const std::string& name) {
  for (auto it = code.consts.rbegin(); it != code.consts.rend(); ++it)
    if (auto* cv = *it ? (*it)->as<CodeValue>() : nullptr; cv && cv->code && cv->code->name == name) return cv->code;
  return nullptr;
}

// Whether the printed `body` has "yield" in it. A yield node among its
// statements' expressions is printed so, and almost every generator has one:
// the body is printed only when there is none.
bool shows_yield(const StmtList& body) {
  bool found = false;
  for (const ast::StmtPtr& s : body)
    if (s && !found)
      ast::visit_stmt(
          s, [&](const ast::ExprPtr& e) { found = found || e->is<ast::Yield>() || e->is<ast::YieldFrom>(); }, true);
  return found || unparse(body).find("yield") != std::string::npos;
}

}  // namespace

StmtList Driver::body(const std::shared_ptr<const CodeObject>& code, BodyKind kind) {
  if (depth_ == 0) return body_uncached(code, kind);  // the outermost code is decompiled once
  BodyKey key{code.get(), kind, depth_, private_prefix_};
  if (auto it = bodies_.find(key); it != bodies_.end()) return it->second.body;
  StmtList out = body_uncached(code, kind);
  bodies_.emplace(std::move(key), Cached{code, out});
  return out;
}

// The passes that tidy what the structurer made: the compiler's implicit
// returns dropped, constructs simplified. (Each pass returns a copy of the
// list when it has nothing to do: skipped then, as every copy touches every
// statement's count.)
StmtList Driver::tidy_structured(StmtList stmts, BodyKind kind) const {
  bool whole = kind == BodyKind::Module || kind == BodyKind::Function;
  if (whole) stmts = drop_tail_returns(std::move(stmts), kind == BodyKind::Function);
  if (kind == BodyKind::Function && lift::version_row(version_.minor).copies_final_return)
    stmts = drop_else_return_none(std::move(stmts));
  return structure::simplify(std::move(stmts), version_.minor, whole);
}

bool Driver::bound_in_enclosing_function(std::string_view name) const {
  return any_enclosing_function([&](const CodeObject& scope) {
    return std::find(scope.localsplusnames.begin(), scope.localsplusnames.end(), name) != scope.localsplusnames.end();
  });
}

StmtList Driver::body_uncached(const std::shared_ptr<const CodeObject>& code, BodyKind kind) {
  if (++depth_ > kMaxDepth) {
    --depth_;
    throw Error(ErrorKind::Limit, "decompile: code objects nested too deeply");
  }
  struct Guard {
    int& d;
    ~Guard() { --d; }
  } guard{depth_};
  scopes_.push_back(code.get());
  struct ScopeGuard {
    std::vector<const CodeObject*>& scopes;
    ~ScopeGuard() { scopes.pop_back(); }
  } scope_guard{scopes_};
  // Lines only where the bytecode's shape depends on them (3.12 filters).
  const bool lines = lift::version_row(version_.minor).filter_jump_by_line;
  DecodedCode decoded = decode(code, version_, DecodeParts{.lines = lines, .positions = false});
  structure::Structurer s(decoded, *this);
  // A function the structurer cannot express becomes a state machine, lifted
  // afresh, and skips the passes that tidy structured code.
  std::optional<lift::Lifter> machine;
  StmtList stmts;
  // The body as a state machine; why it does not fit, when it does not.
  auto as_machine = [&](std::string_view why) -> std::optional<std::string> {
    try {
      machine.emplace(decoded, *this);
      stmts = structure::dispatch_body(decoded, *machine, why);
      return std::nullopt;
    } catch (const Error& refused) {
      machine.reset();
      return refused.detail();
    }
  };
  std::optional<std::string> refused_machine;  // why the state machine asked for does not fit
  if (options_.state_machine && kind == BodyKind::Function) refused_machine = as_machine("asked for");
  if (!machine) {
    try {
      stmts = s.run();
    } catch (const Error& e) {
      if (kind != BodyKind::Function) throw;
      // (One asked for and refused is refused again, for the same reason.)
      std::optional<std::string> refused = refused_machine ? refused_machine : as_machine(e.what());
      // The structurer's reason first: it is why the code has no structured form.
      if (refused) throw Error(e.kind(), e.detail() + " (no state machine: " + *refused + ")", e.offset());
    }
  }
  const lift::Lifter& lifter = machine ? *machine : s.lifter();
  if (!machine && !lifter.temporaries().empty()) stmts = structure::inline_temporaries(stmts, lifter.temporaries());
  if (!private_prefix_.empty()) stmts = unmangle_private_names(stmts, private_prefix_);
  if (!machine) stmts = tidy_structured(std::move(stmts), kind);
  if (refused_machine) stmts.insert(stmts.begin(), ast::comment("unveil: no state machine: " + *refused_machine));
  switch (kind) {
    case BodyKind::Module: {
      stmts = tidy_module_body(std::move(stmts), code->flags);
      // Module code stores or loads a name as a global only when something
      // declared it `global` (a function's declaration counts for the whole
      // module); `global x` at the top does the same and changes no function.
      std::set<std::string> declared = global_names(decoded, true);
      if (declared.empty()) return stmts;
      std::size_t at = 0;  // after the docstring and `from __future__` imports
      if (at < stmts.size() && is_docstring(stmts[at])) ++at;
      while (at < stmts.size()) {
        auto* f = stmts[at]->as<ast::ImportFrom>();
        if (!f || f->module != "__future__") break;
        ++at;
      }
      stmts.insert(stmts.begin() + std::ptrdiff_t(at),
                   ast::global(std::vector<std::string>(declared.begin(), declared.end())));
      return stmts;
    }
    case BodyKind::Class: {
      stmts = tidy_class_body(std::move(stmts), code->flags);
      // A class body reads and stores its names by name: by global only when
      // declared so (or, for reads, in a comprehension run inline).
      std::set<std::string> declared =
          global_names(decoded, !lift::version_row(version_.minor).inlines_comprehensions);
      if (declared.empty()) return stmts;
      const std::size_t at = !stmts.empty() && is_docstring(stmts[0]) ? 1 : 0;
      stmts.insert(stmts.begin() + std::ptrdiff_t(at),
                   ast::global(std::vector<std::string>(declared.begin(), declared.end())));
      return stmts;
    }
    case BodyKind::Function: {
      if (!machine) stmts = drop_trailing_return_none(std::move(stmts));
      // An async generator may not `return None`, only `return` (the same code).
      if (code->flags & kCoAsyncGenerator)
        stmts = ast::map_statements(stmts, [](const ast::StmtPtr& st) -> ast::StmtPtr {
          auto* r = st->as<ast::Return>();
          return r && r->value && ast::is_none(r->value) ? ast::return_(nullptr) : nullptr;
        });
      StmtList out;
      if (auto doc = docstring_of(*code, lift::version_row(version_.minor))) out.push_back(doc);
      std::set<std::string> globals = lifter.globals();
      // A name read as a global that an enclosing function binds was declared
      // `global` here: without that, it would be the enclosing function's.
      // (Only when a function around binds names: the scan rereads every
      // instruction, megabytes of them in a big function.)
      if (any_enclosing_function([](const CodeObject& scope) { return !scope.localsplusnames.empty(); }))
        for (const Instruction& ins : decoded.instructions)
          if (ins.info && ins.op() == Op::LOAD_GLOBAL)
            if (std::string_view n = resolve_argument(decoded, ins).text; bound_in_enclosing_function(n))
              globals.emplace(n);
      std::vector<std::string> g(globals.begin(), globals.end());
      std::set<std::string> nonlocals = lifter.nonlocals();
      // A free variable no instruction touches was only declared (`nonlocal a`).
      // (3.13+ hands one to a nested closure with LOAD_FAST, which does not
      // count: the declaration keeps it free should that closure fall back.
      // Not a type parameter, whose nonlocal declaration is a SyntaxError.)
      // (Views of the code's own name table, which outlives this scope.)
      // (Only a function with free variables reads its instructions again:
      // megabytes of them in a big function.)
      std::set<std::string_view> touched;
      if (!code->freevars.empty())
        for (const Instruction& ins : decoded.instructions)
          if (ins.info && ins.info->arg == ArgKind::Free) touched.insert(resolve_argument(decoded, ins).text);
      auto type_param = [&](std::string_view v) {
        for (const auto& [wrapper, bound] : arguments_)
          if (std::find(wrapper->localsplusnames.begin(), wrapper->localsplusnames.end(), v) !=
              wrapper->localsplusnames.end())
            return true;
        return false;
      };
      for (const std::string_view free : code->freevars)
        if (!touched.count(free) && free != "__class__" && !type_param(free)) nonlocals.emplace(free);
      // 3.12+ an inlined comprehension whose target a nested closure captures
      // gives it a fresh cell (MAKE_CELL in the body), in the slot of the free
      // variable of that name if there is one: its stores are the comprehension's.
      for (const Instruction& ins : decoded.instructions)
        if (ins.info && ins.op() == Op::MAKE_CELL && ins.arg < code->localspluskinds.size() &&
            (code->localspluskinds[ins.arg] & kLocalFree))
          nonlocals.erase(std::string(resolve_argument(decoded, ins).text));
      std::vector<std::string> nl(nonlocals.begin(), nonlocals.end());
      if (!g.empty()) out.push_back(ast::global(g));
      if (!nl.empty()) out.push_back(ast::nonlocal(nl));
      out.insert(out.end(), std::make_move_iterator(stmts.begin()), std::make_move_iterator(stmts.end()));
      return out;
    }
    case BodyKind::Lambda:
    case BodyKind::Comprehension:
      return stmts;
  }
  return stmts;
}

StmtList Driver::fallback_body(const std::shared_ptr<const CodeObject>& code, const std::string& reason) const {
  std::string name = code->qualname.empty() ? code->name : code->qualname;
  StmtList out;
  out.push_back(ast::comment("unveil: could not decompile " + name + ": " + reason));
  try {
    DecodedCode decoded = decode(code, version_);
    DisasmOptions options;
    options.recursive = false;
    out.push_back(ast::comment(disassemble(decoded, options)));
  } catch (const Error&) {
  }
  out.push_back(ast::raise_(ast::call(ast::name("RuntimeError"),
                                      {ast::string(std::string(kFallbackMark) + " " + name)})));
  return out;
}

StmtList Driver::body_or_fallback(const std::shared_ptr<const CodeObject>& code, BodyKind kind) {
  try {
    return body(code, kind);
  } catch (const Error& e) {
    StmtList out = fallback_body(code, e.what());
    if (kind == BodyKind::Function && lift::version_row(version_.minor).static_attributes)
      for (const std::string& attr : stored_self_attributes(code))
        out.push_back(ast::assign(ast::attribute(ast::name(code->varnames[0]), attr, ast::ExprContext::Store),
                                  ast::none()));
    return out;
  }
}

// 3.13+: the attributes a method stores on its first argument (`self.x = v`),
// which its class lists in __static_attributes__. A method that falls back
// keeps them as unreachable stores after its raise, so the class stays the
// same (the compiler collects them before it drops dead code).
std::vector<std::string> Driver::stored_self_attributes(const std::shared_ptr<const CodeObject>& code) const {
  std::set<std::string> names;
  if (code->argcount < 1 || code->varnames.empty()) return {};
  try {
    DecodedCode decoded = decode(code, version_, kInstructionsOnly);
    const auto& ins = decoded.instructions;
    for (std::size_t k = 1; k < ins.size(); ++k) {
      if (!ins[k].info || ins[k].op() != Op::STORE_ATTR || !ins[k - 1].info) continue;
      const ResolvedArg self = resolve_argument(decoded, ins[k - 1]);
      const Op load = ins[k - 1].op();
      const std::string_view loaded = load == Op::LOAD_FAST_LOAD_FAST ? self.second : self.text;
      if ((load == Op::LOAD_FAST || load == Op::LOAD_FAST_LOAD_FAST) && loaded == code->varnames[0])
        names.emplace(resolve_argument(decoded, ins[k]).text);
    }
  } catch (const Error&) {
  }
  return {names.begin(), names.end()};
}

ast::StmtPtr Driver::define_function(const lift::FunctionValue& f, const std::string& name) {
  if (f.defined) return renamed(f.defined, name, f.decorators);
  StmtList b = body_or_fallback(f.code, BodyKind::Function);
  // A generator whose yields were unreachable (`return; yield`): `if False:
  // yield` keeps it a generator and compiles to nothing.
  if ((f.code->flags & (kCoGenerator | kCoAsyncGenerator)) && !shows_yield(b))
    b.push_back(ast::if_(ast::boolean(false), {ast::expr_stmt(ast::yield_())}));
  ast::Boxed<ast::Arguments> args = signature(f);
  bool is_async = f.code->flags & (kCoCoroutine | kCoAsyncGenerator);
  if (is_async)
    return ast::async_function_def(name, std::move(args), std::move(b), f.decorators, return_annotation(f),
                                   f.type_params);
  return ast::function_def(name, std::move(args), std::move(b), f.decorators, return_annotation(f), f.type_params);
}

ast::StmtPtr Driver::define_class(const lift::ClassValue& c, const std::string& name) {
  if (c.defined) return renamed(c.defined, name, c.decorators);
  std::string outer = std::exchange(private_prefix_, private_prefix(c.name));
  StmtList b;
  try {
    b = body_or_fallback(c.body->code, BodyKind::Class);
  } catch (...) {
    private_prefix_ = outer;
    throw;
  }
  private_prefix_ = outer;
  return ast::class_def(name, c.bases, c.keywords, std::move(b), c.decorators, c.type_params);
}

std::string Driver::stored_name(const std::string& name) const { return mangled(name, private_prefix_); }

namespace {
// 3.14+ an annotation scope's first statement, `if format > 2: raise
// NotImplementedError` (only the VALUE formats are computed by the code).
bool is_format_guard(const ast::Stmt& st, const CodeObject& code) {
  auto* i = st.as<ast::If>();
  auto* c = i ? i->test->as<ast::Compare>() : nullptr;
  if (!c || c->ops.size() != 1 || c->ops[0] != ast::CmpOperator::Gt || code.varnames.empty()) return false;
  auto* n = c->left->as<ast::Name>();
  auto* k = c->comparators[0]->as<ast::Constant>();
  auto* two = k && k->value ? k->value->as<IntValue>() : nullptr;
  if (!n || n->id != code.varnames[0] || !two || !two->is_small() || two->small != 2) return false;
  auto* r = i->body.size() == 1 ? i->body[0]->as<ast::Raise>() : nullptr;
  auto* e = r && r->exc && !r->cause ? r->exc->as<ast::Name>() : nullptr;
  return e && e->id == "NotImplementedError";
}
}  // namespace

ast::ExprPtr Driver::lazy_value(const lift::FunctionValue& f) {
  StmtList b = body(f.code, BodyKind::Lambda);
  if (lift::version_row(version_.minor).lazy_format_guard && !b.empty() && is_format_guard(*b[0], *f.code)) {
    StmtList rest = b[0]->as<ast::If>()->orelse;
    rest.insert(rest.end(), b.begin() + 1, b.end());
    b = std::move(rest);
  }
  // 3.13+ `*Ts = *tuple[int]`: the default is unpacked into one value
  // (`(_t1,) = tuple[int]; return _t1`).
  if (b.size() == 2) {
    auto* a = b[0]->as<ast::Assign>();
    auto* r = b[1]->as<ast::Return>();
    auto* t = a && a->targets.size() == 1 ? a->targets[0]->as<ast::Tuple>() : nullptr;
    auto* n = t && t->elts.size() == 1 ? t->elts[0]->as<ast::Name>() : nullptr;
    auto* rn = r && r->value ? r->value->as<ast::Name>() : nullptr;
    if (n && rn && n->id == rn->id) return ast::starred(a->value);
  }
  return as_expression(b);
}

// 3.12+ (⇄ codegen_function/codegen_class/codegen_typealias with type
// parameters): a generic def, class or type alias is made by a hidden
// function that builds the type parameters and returns the object; the
// enclosing code calls it (with the def's defaults) and stores the result.
std::optional<lift::Item> Driver::generic(const lift::FunctionValue& wrapper, const ast::ExprList& args) {
  try {
    return generic_definition(wrapper, args);
  } catch (const Error& e) {
    return generic_fallback(wrapper, e.what());
  }
}

ast::ExprPtr Driver::argument(const CodeObject& code, const std::string& name) const {
  for (auto it = arguments_.rbegin(); it != arguments_.rend(); ++it) {
    if (it->first != &code) continue;
    auto found = it->second.find(name);
    return found == it->second.end() ? nullptr : found->second;
  }
  return nullptr;
}

lift::Item Driver::generic_definition(const lift::FunctionValue& wrapper, const ast::ExprList& args) {
  const CodeObject& code = *wrapper.code;
  const std::string target = lift::generic_target(code);
  auto fail = [&](const std::string& what) { return Error(ErrorKind::Decode, "decompile: " + code.name + " " + what); };
  if (code.argcount < 0 || args.size() != std::size_t(code.argcount) || code.varnames.size() < args.size() ||
      code.kwonlyargcount != 0)
    throw fail("is called with " + std::to_string(args.size()) + " arguments, not its " +
               std::to_string(code.argcount));
  if (++depth_ > kMaxDepth) {
    --depth_;
    throw Error(ErrorKind::Limit, "decompile: code objects nested too deeply");
  }
  // Its arguments (`.defaults`, `.kwdefaults`) are the values the call passed.
  std::map<std::string, ast::ExprPtr> bound;
  for (std::size_t k = 0; k < args.size(); ++k) bound[std::string(code.varnames[k])] = args[k];
  arguments_.emplace_back(&code, std::move(bound));
  struct Guard {
    Driver& d;
    ~Guard() {
      --d.depth_;
      d.arguments_.pop_back();
    }
  } guard{*this};
  const bool lines = lift::version_row(version_.minor).filter_jump_by_line;
  DecodedCode decoded = decode(wrapper.code, version_, DecodeParts{.lines = lines, .positions = false});
  structure::Structurer s(decoded, *this);
  StmtList stmts = structure::inline_temporaries(s.run(), s.lifter().temporaries());
  // What is left is the definition under some name, and its return.
  auto* r = stmts.size() == 2 ? stmts[1]->as<ast::Return>() : nullptr;
  auto* returned = r && r->value ? r->value->as<ast::Name>() : nullptr;
  if (!returned) throw fail("does more than make " + target);
  const ast::StmtPtr& def = stmts[0];
  lift::Item out;
  if (auto* f = def->as<ast::FunctionDef>() ? def->as<ast::FunctionDef>() : def->as<ast::AsyncFunctionDef>()) {
    if (f->name != returned->id || !f->decorator_list.empty()) throw fail("does more than make " + target);
    if (f->type_params.empty()) throw fail("makes a function without type parameters");
    auto fv = std::make_shared<lift::FunctionValue>();
    fv->code = nested_code(code, target);
    if (!fv->code) fv->code = wrapper.code;
    fv->defined = renamed(def, target, {});
    out = lift::Item::of(lift::Item::Kind::Function);
    out.set(std::move(fv));
  } else if (auto* c = def->as<ast::ClassDef>()) {
    if (c->name != returned->id || !c->decorator_list.empty()) throw fail("does more than make " + target);
    if (c->type_params.empty()) throw fail("makes a class without type parameters");
    auto cv = std::make_shared<lift::ClassValue>();
    cv->name = target;
    cv->body = std::make_shared<lift::FunctionValue>();
    cv->body->code = nested_code(code, target);
    if (!cv->body->code) cv->body->code = wrapper.code;
    cv->defined = renamed(def, target, {});
    out = lift::Item::of(lift::Item::Kind::Class);
    out.set(std::move(cv));
  } else if (auto* a = def->as<ast::TypeAlias>()) {
    auto* n = a->name ? a->name->as<ast::Name>() : nullptr;
    if (!n || n->id != returned->id) throw fail("does more than make " + target);
    if (a->type_params.empty()) throw fail("makes a type alias without type parameters");
    out = lift::Item::of(lift::Item::Kind::Slot);
    out.sink = std::make_shared<lift::TypeAliasSink>(target, a->type_params, a->value);
  } else {
    throw fail("does more than make " + target);
  }
  return out;
}

// A wrapper that cannot be rebuilt: a def of the same name whose body says
// why and raises (its decorators still apply).
lift::Item Driver::generic_fallback(const lift::FunctionValue& wrapper, const std::string& reason) {
  ast::Arguments any;
  any.vararg = ast::arg("args");
  any.kwarg = ast::arg("kwargs");
  const std::string target = lift::generic_target(*wrapper.code);
  auto fv = std::make_shared<lift::FunctionValue>();
  fv->code = wrapper.code;
  fv->defined = ast::function_def(target, std::move(any), fallback_body(wrapper.code, reason));
  lift::Item out = lift::Item::of(lift::Item::Kind::Function);
  out.set(std::move(fv));
  return out;
}

ast::ExprPtr Driver::function_expr(const lift::FunctionValue& f, ast::ExprPtr iter_arg) {
  const std::string& n = f.code->name;
  if (n == "<lambda>" && !iter_arg) {
    StmtList b = body(f.code, BodyKind::Lambda);
    if (auto e = as_expression(b)) return ast::lambda(signature(f), e);
    return nullptr;
  }
  if (iter_arg) {
    StmtList b = body(f.code, BodyKind::Comprehension);
    // ≤3.11 list/set/dict comprehensions: the structurer already rebuilt
    // `return [e for t in .0]`; the real iterable replaces `.0`.
    if (!b.empty())
      if (auto* r = b[0]->as<ast::Return>(); r && r->value) return with_iter(r->value, iter_arg);
    for (const auto& s : b) {
      if (!structure::loop_of(*s)) continue;
      bool own_line = false;
      if (lift::version_row(version_.minor).filter_jump_by_line) {
        const DecodedCode lines = decode(f.code, version_, DecodeParts{.lines = true, .positions = false});
        own_line = structure::filter_on_own_line(lines, 0, std::numeric_limits<std::uint32_t>::max());
      }
      return structure::rebuild_comprehension(structure::ComprehensionKind::Generator, *s, iter_arg, own_line);
    }
  }
  return nullptr;
}

}  // namespace unveil::decompile
