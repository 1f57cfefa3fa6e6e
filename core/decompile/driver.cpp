#include "decompile/driver.h"

#include <iterator>
#include <limits>
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
#include "lift/version_table.h"
#include "structure/comprehension.h"
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

}  // namespace

StmtList Driver::body(const std::shared_ptr<const CodeObject>& code, BodyKind kind) {
  if (depth_ == 0) return body_uncached(code, kind);  // the outermost code is decompiled once
  BodyKey key{code.get(), kind, depth_, private_prefix_};
  if (auto it = bodies_.find(key); it != bodies_.end()) return it->second.body;
  StmtList out = body_uncached(code, kind);
  bodies_.emplace(std::move(key), Cached{code, out});
  return out;
}

StmtList Driver::body_uncached(const std::shared_ptr<const CodeObject>& code, BodyKind kind) {
  if (++depth_ > kMaxDepth) {
    --depth_;
    throw Error(ErrorKind::Decode, "decompile: code objects nested too deeply");
  }
  struct Guard {
    int& d;
    ~Guard() { --d; }
  } guard{depth_};
  // Lines only where the bytecode's shape depends on them (3.12 filters).
  const bool lines = lift::version_row(version_.minor).filter_jump_by_line;
  DecodedCode decoded = decode(code, version_, DecodeParts{.lines = lines, .positions = false});
  structure::Structurer s(decoded, *this);
  // (Each pass returns a copy of the list when it has nothing to do: skipped
  // then, as every copy touches every statement's count.)
  StmtList stmts = s.run();
  if (!s.lifter().temporaries().empty()) stmts = structure::inline_temporaries(stmts, s.lifter().temporaries());
  if (!private_prefix_.empty()) stmts = unmangle_private_names(stmts, private_prefix_);
  bool whole = kind == BodyKind::Module || kind == BodyKind::Function;
  if (whole) stmts = drop_tail_returns(std::move(stmts), kind == BodyKind::Function);
  if (kind == BodyKind::Function && lift::version_row(version_.minor).copies_final_return)
    stmts = drop_else_return_none(std::move(stmts));
  stmts = structure::simplify(stmts, version_.minor, whole);
  switch (kind) {
    case BodyKind::Module: {
      stmts = tidy_module_body(std::move(stmts));
      // Module code stores or loads a name as a global only when something
      // declared it `global` (a function's declaration counts for the whole
      // module); `global x` at the top does the same and changes no function.
      // (Not 3.8's `assert`, which loads AssertionError with LOAD_GLOBAL.)
      std::set<std::string> declared;
      for (const Instruction& ins : decoded.instructions) {
        if (!ins.info || (ins.op() != Op::STORE_GLOBAL && ins.op() != Op::LOAD_GLOBAL && ins.op() != Op::DELETE_GLOBAL))
          continue;
        std::string n = resolve_argument(decoded, ins).text;
        if (!(ins.op() == Op::LOAD_GLOBAL && n == "AssertionError")) declared.insert(std::move(n));
      }
      if (declared.empty()) return stmts;
      std::size_t at = 0;  // after the docstring and `from __future__` imports
      auto is_doc = [](const ast::StmtPtr& st) {
        auto* e = st->as<ast::ExprStmt>();
        auto* c = e ? e->value->as<ast::Constant>() : nullptr;
        return c && c->value && c->value->is<StrValue>();
      };
      if (at < stmts.size() && is_doc(stmts[at])) ++at;
      while (at < stmts.size()) {
        auto* f = stmts[at]->as<ast::ImportFrom>();
        if (!f || f->module != "__future__") break;
        ++at;
      }
      stmts.insert(stmts.begin() + std::ptrdiff_t(at),
                   ast::global(std::vector<std::string>(declared.begin(), declared.end())));
      return stmts;
    }
    case BodyKind::Class:
      return tidy_class_body(std::move(stmts));
    case BodyKind::Function: {
      stmts = drop_trailing_return_none(std::move(stmts));
      // An async generator may not `return None`, only `return` (the same code).
      if (code->flags & kCoAsyncGenerator)
        stmts = ast::map_statements(stmts, [](const ast::StmtPtr& st) -> ast::StmtPtr {
          auto* r = st->as<ast::Return>();
          return r && r->value && ast::is_none(r->value) ? ast::return_(nullptr) : nullptr;
        });
      StmtList out;
      if (auto doc = docstring_of(*code, lift::version_row(version_.minor))) out.push_back(doc);
      std::vector<std::string> g(s.lifter().globals().begin(), s.lifter().globals().end());
      std::set<std::string> nonlocals = s.lifter().nonlocals();
      // A free variable no instruction touches was only declared (`nonlocal a`).
      std::set<std::string> touched;
      for (const Instruction& ins : decoded.instructions)
        if (ins.info && ins.info->arg == ArgKind::Free) touched.insert(resolve_argument(decoded, ins).text);
      for (const std::string& v : code->freevars)
        if (!touched.count(v) && v != "__class__") nonlocals.insert(v);
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

StmtList Driver::body_or_fallback(const std::shared_ptr<const CodeObject>& code, BodyKind kind) {
  try {
    return body(code, kind);
  } catch (const Error& e) {
    std::string name = code->qualname.empty() ? code->name : code->qualname;
    StmtList out;
    out.push_back(ast::comment("unveil: could not decompile " + name + ": " + e.what()));
    try {
      DecodedCode decoded = decode(code, version_);
      DisasmOptions options;
      options.recursive = false;
      out.push_back(ast::comment(disassemble(decoded, options)));
    } catch (const Error&) {
    }
    out.push_back(ast::raise_(ast::call(ast::name("RuntimeError"),
                                        {ast::string("unveil could not decompile " + name)})));
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
      const std::string& loaded = load == Op::LOAD_FAST_LOAD_FAST ? self.second : self.text;
      if ((load == Op::LOAD_FAST || load == Op::LOAD_FAST_LOAD_FAST) && loaded == code->varnames[0])
        names.insert(resolve_argument(decoded, ins[k]).text);
    }
  } catch (const Error&) {
  }
  return {names.begin(), names.end()};
}

ast::StmtPtr Driver::define_function(const lift::FunctionValue& f, const std::string& name) {
  StmtList b = body_or_fallback(f.code, BodyKind::Function);
  // A generator whose yields were unreachable (`return; yield`): `if False:
  // yield` keeps it a generator and compiles to nothing.
  if ((f.code->flags & (kCoGenerator | kCoAsyncGenerator)) &&
      unparse(b).find("yield") == std::string::npos)
    b.push_back(ast::if_(ast::boolean(false), {ast::expr_stmt(ast::yield_())}));
  ast::Arguments args = signature(f);
  bool is_async = f.code->flags & (kCoCoroutine | kCoAsyncGenerator);
  if (is_async)
    return ast::async_function_def(name, std::move(args), std::move(b), f.decorators, return_annotation(f));
  return ast::function_def(name, std::move(args), std::move(b), f.decorators, return_annotation(f));
}

ast::StmtPtr Driver::define_class(const lift::ClassValue& c, const std::string& name) {
  std::string outer = std::exchange(private_prefix_, private_prefix(c.name));
  StmtList b;
  try {
    b = body_or_fallback(c.body->code, BodyKind::Class);
  } catch (...) {
    private_prefix_ = outer;
    throw;
  }
  private_prefix_ = outer;
  return ast::class_def(name, c.bases, c.keywords, std::move(b), c.decorators);
}

std::string Driver::stored_name(const std::string& name) const { return mangled(name, private_prefix_); }

ast::ExprPtr Driver::lazy_value(const lift::FunctionValue& f) {
  return as_expression(body(f.code, BodyKind::Lambda));
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
