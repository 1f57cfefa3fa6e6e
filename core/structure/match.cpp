#include "structure/match.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <unordered_map>
#include <utility>

#include "ast/build.h"
#include "decode/argument.h"
#include "emit/unparse.h"
#include "lift/operators.h"
#include "structure/simplify.h"
#include "structure/structurer.h"
#include "support/error.h"

namespace unveil::structure {

using cfg::BlockId;
using cfg::kNoBlock;
using lift::Item;
using TK = lift::Terminator::Kind;
// As structurer.cpp's kFlow: source-level flow, not exceptions, not 3.8's CALL_FINALLY.
constexpr cfg::EdgeFilter kFlowEdges = cfg::EdgeFilter::normal().without(cfg::EdgeKind::Call);

namespace {

struct WalkError {
  std::string what;
};

bool is_forward_jump(const Instruction& i) {
  const Op op = i.op();
  return (op == Op::JUMP_FORWARD || op == Op::JUMP_ABSOLUTE) && i.jump_target && *i.jump_target > i.offset;
}

BlockId fall_of(const cfg::Graph& g, BlockId b) {
  BlockId out = kNoBlock;
  g.for_each_successor(b, cfg::EdgeFilter().with(cfg::EdgeKind::FallThrough), [&](const cfg::Edge& e) { out = e.to; });
  return out;
}

// 3.12+ turns a failure that goes straight back to a loop's head into an
// inverted test falling into a lone JUMP_BACKWARD, one per test: such a block
// lands where it jumps.
CodePos through_back_jump(const cfg::Graph& g, CodePos p) {
  if (p.block == kNoBlock || p.index != 0) return p;
  auto ins = g.instructions(p.block);
  std::size_t k = 0;
  while (k < ins.size() && (ins[k].op() == Op::NOP || ins[k].op() == Op::NOT_TAKEN)) ++k;
  if (k + 1 != ins.size() || ins[k].op() != Op::JUMP_BACKWARD || !ins[k].jump_target) return p;
  auto t = g.block_at(*ins[k].jump_target);
  return t ? CodePos{*t, 0} : p;
}

// A sub-pattern under reconstruction: what the code did to its subject.
struct PNode {
  enum class Kind { Unknown, Value, Singleton, Sequence, Mapping, Class };
  Kind kind = Kind::Unknown;
  ast::ExprPtr value;  // Value: the value; Class: the class
  ObjectRef singleton;
  int copy_of = -1;
  std::vector<int> copies;      // COPY 1 of this subject, in order
  bool subscript_copy = false;  // a copy only subscripted for an element
  bool popped = false;
  bool star = false;  // a starred element of a sequence (UNPACK_EX)
  std::optional<std::string> capture;
  // Sequence
  std::optional<std::int64_t> len_eq, len_ge;
  std::vector<int> items;                   // UNPACK_SEQUENCE / UNPACK_EX elements, in order
  std::map<std::int64_t, int> by_index;     // subscripted elements: >= 0 from the front, < 0 from the back
  // Class: positional then keyword attributes; Mapping: values
  std::size_t nargs = 0;
  std::vector<std::string> kwd;
  std::map<std::int64_t, int> parts;
  bool unpacked_parts = false;
  std::size_t nparts = 0;
  // Mapping
  ast::ExprList keys;
  bool has_keys = false;
  std::optional<std::string> rest;
  std::vector<struct AItem> before;  // a copy: the stack before it was made
};

struct AItem {
  enum class Kind { Subject, Expr, Test, Len, LenMinus, Attrs, Values, Keys, Key, Rest, EmptyMap, Captures };
  Kind kind = Kind::Expr;
  int node = -1;
  ast::ExprPtr expr;
  std::int64_t k = 0;
  std::vector<std::pair<bool, int>> targets;  // Captures: (is a mapping's rest, node)
};

std::optional<std::int64_t> small_int(const ast::ExprPtr& e) {
  auto* c = e ? e->as<ast::Constant>() : nullptr;
  if (!c || !c->value) return std::nullopt;
  auto* i = c->value->as<IntValue>();
  if (!i || !i->is_small()) return std::nullopt;
  return i->small;
}

// A complex constant as a pattern writes it: `re + imj`, `-imj` (repr's
// `(-0-1.5j)` would compile to a real part of +0.0, not -0.0).
ast::ExprPtr pattern_value(const ast::ExprPtr& e) {
  auto* c = e->as<ast::Constant>();
  auto* z = c && c->value ? c->value->as<ComplexValue>() : nullptr;
  if (!z || std::isnan(z->real) || std::isnan(z->imag)) return e;
  const bool im_negative = std::signbit(z->imag);
  ast::ExprPtr im = ast::complex_number(0.0, std::fabs(z->imag));
  if (z->real == 0.0 && std::signbit(z->real) == im_negative) {
    // -(x j) is (-0.0 - x j); x j is (0.0 + x j)
    return im_negative ? ast::unaryop(ast::UnaryOperator::USub, im) : im;
  }
  ast::ExprPtr re = std::signbit(z->real) ? ast::unaryop(ast::UnaryOperator::USub, ast::floating(-z->real))
                                          : ast::floating(z->real);
  return ast::binop(re, im_negative ? ast::Operator::Sub : ast::Operator::Add, im);
}

// The straight-line code from `p` to the return or raise it ends with (NOPs
// aside), as (opcode, arg); nullopt when it branches first. Its blocks are
// added to `blocks` only when it is returned.
std::optional<std::vector<std::pair<std::uint8_t, std::uint32_t>>> exit_code(const cfg::Graph& g, CodePos p,
                                                                              std::vector<BlockId>& blocks) {
  std::vector<std::pair<std::uint8_t, std::uint32_t>> out;
  std::vector<BlockId> mine;
  for (int guard = 0; guard < 256; ++guard) {
    auto ins = g.instructions(p.block);
    if (p.index >= ins.size()) {
      p = {fall_of(g, p.block), 0};
      if (p.block == kNoBlock) return std::nullopt;
      continue;
    }
    mine.push_back(p.block);
    const Instruction& i = ins[p.index];
    const Op op = i.op();
    if (op != Op::NOP && op != Op::EXTENDED_ARG) out.push_back({i.opcode, i.arg});
    if (op == Op::RETURN_VALUE || op == Op::RETURN_CONST || op == Op::RAISE_VARARGS || op == Op::RERAISE) {
      blocks.insert(blocks.end(), mine.begin(), mine.end());
      return out;
    }
    if (i.jump_target) return std::nullopt;
    ++p.index;
  }
  return std::nullopt;
}

class Walk {
 public:
  Walk(const cfg::Graph& g, lift::Lifter& lifter, const lift::VersionRow& row) : g_(g), lifter_(lifter), row_(row) {}

  CaseShape run(CodePos start) {
    pos_ = start;
    root_ = new_node();
    st_.push_back(subject(root_));
    CaseShape out;
    for (std::size_t steps = 0;; ++steps) {
      if (steps > 100000) bad("pattern code too long");
      normalise();
      if (!scopes_.empty() && !scopes_.back().tail && pos_ == scopes_.back().end) {
        end_alternative(pos_);
        continue;
      }
      const Instruction& i = cur();
      const Op op = i.op();
      if (op == Op::EXTENDED_ARG || op == Op::NOP || op == Op::NOT_TAKEN) {
        ++pos_.index;
        continue;
      }
      if (scopes_.empty()) {
        if (st_.empty()) break;
        if (st_.size() == 1 && st_[0].kind == AItem::Kind::Subject && st_[0].node == root_ &&
            !nodes_[root_].copies.empty()) {
          if (op == Op::POP_TOP) {
            nodes_[root_].popped = true;
            out.subject_popped = true;
            st_.clear();
            blocks_.push_back(pos_.block);
            ++pos_.index;
            normalise();
            break;
          }
          // (Not a store: the last case's `pattern as name` captures the subject itself.)
          if (!is_forward_jump(i) && op != Op::STORE_FAST && op != Op::STORE_NAME && op != Op::STORE_GLOBAL &&
              op != Op::STORE_DEREF && op != Op::STORE_FAST_LOAD_FAST && op != Op::STORE_FAST_STORE_FAST)
            break;
        }
      }
      blocks_.push_back(pos_.block);
      if (op == Op::STORE_FAST_LOAD_FAST) {
        ResolvedArg a = resolve_argument(g_.code(), i);
        store(pop(), a.text);
        out.loaded = a.second;
        ++pos_.index;
        if (!st_.empty() && !(st_.size() == 1 && st_[0].node == root_ && st_[0].kind == AItem::Kind::Subject))
          bad("a load among the stores of a pattern");
        normalise();
        break;
      }
      step(i);
    }
    if (!scopes_.empty()) bad("an or-pattern that does not end");
    out.after = pos_;
    // The case's own pattern: the subject's copy (a case before the last) or the subject.
    PNode& r = nodes_[root_];
    std::vector<int> copies = pattern_copies(root_);
    if (!r.capture && r.kind == PNode::Kind::Unknown && copies.size() == 1) {
      out.copied = true;
      out.pattern = build(copies[0]);
    } else {
      if (out.subject_popped) out.subject_popped = false;
      out.pattern = build(root_);
    }
    std::size_t expected = out.copied ? 1 : 0;
    // A copied case whose failures pop the subject: the last alternative of
    // an or-pattern that is the last case's whole pattern, the code after it
    // (a return or raise) copied into each alternative. Each alternative
    // before looks like a case of its own (and compiles the same way).
    if (out.copied && out.subject_popped && !failures_.empty()) {
      bool all_zero = true;
      for (const Failure& f : failures_) all_zero = all_zero && (f.resolved || f.depth == 0);
      if (all_zero) out.or_last = true, out.copied = false, expected = 0;
    }
    // The landing walk pops all it can: when the next case starts with a
    // POP_TOP (`case _ if g:` before a default takes no copy), a copied
    // case's failures seem to pop the subject too. Give that pop back.
    auto give_back = [&](CodePos p) -> std::optional<CodePos> {
      if (p.index == 0 || g_.instructions(p.block)[p.index - 1].op() != Op::POP_TOP) return std::nullopt;
      return CodePos{p.block, p.index - 1};
    };
    if (out.copied || out.or_last) {
      std::optional<CodePos> back;
      bool all = true;
      for (const Failure& f : failures_) {
        if (f.resolved) continue;
        auto b = f.depth == 0 ? give_back(f.landing) : std::nullopt;
        all = all && b && (!back || *back == *b);
        back = b;
      }
      if (all && back) {
        if (out.or_last) out.alt_landing = back;
        else
          for (Failure& f : failures_)
            if (!f.resolved) f.landing = *back, f.depth = 1;
      }
    }
    for (const Failure& f : failures_) {
      if (f.resolved) continue;
      if (f.depth != expected) bad("a failure that leaves " + std::to_string(f.depth) + " values");
      if (out.landing && !(*out.landing == f.landing)) bad("failures of one case land at two places");
      out.landing = f.landing;
    }
    out.landing_depth = expected;
    std::sort(blocks_.begin(), blocks_.end());
    blocks_.erase(std::unique(blocks_.begin(), blocks_.end()), blocks_.end());
    out.blocks = blocks_;
    return out;
  }

  bool definite() const { return definite_; }

 private:
  struct Failure {
    CodePos landing;
    std::size_t depth = 0;
    bool resolved = false;
    int top_node = -1;  // the subject on top where it lands
  };
  struct OrScope {
    CodePos end;
    std::size_t base = 0;
    std::size_t alt_from = 0;  // failures from this index on are the current alternative's
    std::vector<std::vector<AItem>> alts;
    // An or-pattern whose end (what follows the pattern up to a return or
    // raise) the optimizer copied into each alternative: the alternatives
    // are told apart at the copies' pop of the or's subject, `node`.
    bool tail = false;
    int node = -1;
    std::vector<CodePos> tails;
  };

  [[noreturn]] void bad(const std::string& what) const {
    std::string where;
    if (pos_.block < g_.size() && pos_.index < g_.instructions(pos_.block).size())
      where = " at offset " + std::to_string(g_.instructions(pos_.block)[pos_.index].offset);
    throw WalkError{what + where};
  }
  const Instruction& cur() const { return g_.instructions(pos_.block)[pos_.index]; }
  void normalise() {
    for (int guard = 0; pos_.block != kNoBlock && pos_.index >= g_.instructions(pos_.block).size(); ++guard) {
      if (guard > 64) bad("pattern code runs through empty blocks");
      pos_ = {fall_of(g_, pos_.block), 0};
    }
    if (pos_.block == kNoBlock) bad("pattern code runs off the end");
  }
  int new_node() {
    nodes_.emplace_back();
    return int(nodes_.size() - 1);
  }
  static AItem subject(int n) {
    AItem a;
    a.kind = AItem::Kind::Subject;
    a.node = n;
    return a;
  }
  static AItem of(AItem::Kind k, int n = -1) {
    AItem a;
    a.kind = k;
    a.node = n;
    return a;
  }
  AItem pop() {
    if (st_.empty()) bad("pattern code pops the value below its subject");
    AItem a = std::move(st_.back());
    st_.pop_back();
    return a;
  }
  AItem& top(std::size_t k = 1) {
    if (st_.size() < k) bad("pattern code reaches below its subject");
    return st_[st_.size() - k];
  }
  AItem& subject_on_top() {
    AItem& a = top();
    if (a.kind != AItem::Kind::Subject) bad("a pattern test on something that is not a subject");
    return a;
  }
  PNode& fresh(int n) {
    PNode& x = nodes_[n];
    if (x.kind != PNode::Kind::Unknown || !x.copies.empty() || x.capture || x.subscript_copy)
      bad("a subject tested twice");
    return x;
  }
  std::vector<int> pattern_copies(int n) const {
    std::vector<int> out;
    for (int c : nodes_[n].copies)
      if (!nodes_[c].subscript_copy) out.push_back(c);
    return out;
  }

  // The failure edge of a test: where it lands once the pops are done.
  void failure(const Instruction& i) {
    if (!i.jump_target) bad("a test without a target");
    auto target = g_.block_at(*i.jump_target);
    if (!target) bad("a failure jump into no block");
    failure_at(*target);
  }
  void failure_at(BlockId target) {
    CodePos p{target, 0};
    std::size_t pops = 0;
    bool popped_here = false;
    for (int guard = 0;; ++guard) {
      if (guard > 10000) bad("failure path too long");
      auto ins = g_.instructions(p.block);
      if (p.index >= ins.size()) {
        BlockId f = fall_of(g_, p.block);
        if (f == kNoBlock) bad("a failure path that runs off");
        p = {f, 0};
        popped_here = false;
        continue;
      }
      const Instruction& x = ins[p.index];
      if (x.op() == Op::POP_TOP && pops < st_.size()) {
        ++pops;
        popped_here = true;
        blocks_.push_back(p.block);
        ++p.index;
        continue;
      }
      if (popped_here && is_forward_jump(x)) {
        blocks_.push_back(p.block);
        auto t = g_.block_at(*x.jump_target);
        if (!t) bad("a jump into no block");
        p = {*t, 0};
        popped_here = false;
        continue;
      }
      break;
    }
    p = through_back_jump(g_, p);
    const std::size_t depth = st_.size() - pops;
    const int top_node = depth > 0 && st_[depth - 1].kind == AItem::Kind::Subject ? st_[depth - 1].node : -1;
    failures_.push_back({p, depth, false, top_node});
  }

  // An unconditional jump on the success path: an or-pattern's alternative
  // ends (or the last one falls into `end`).
  void end_alternative(CodePos end) {
    if (scopes_.empty() || !(scopes_.back().end == end)) {
      const Failure* last = nullptr;
      for (const Failure& f : failures_)
        if (!f.resolved) last = &f;
      if (!last) bad("a jump in pattern code");
      const std::size_t base = last->depth;
      if (base == 0 || base > st_.size() || st_[base - 1].kind != AItem::Kind::Subject)
        bad("an or-pattern without its subject");
      scopes_.push_back({end, base, 0, {}, false, st_[base - 1].node, {}});
    }
    OrScope& sc = scopes_.back();
    if (st_.size() < sc.base) bad("an alternative pops its subject");
    sc.alts.emplace_back(st_.begin() + std::ptrdiff_t(sc.base), st_.end());
    std::optional<CodePos> next;
    for (std::size_t k = sc.alt_from; k < failures_.size(); ++k) {
      Failure& f = failures_[k];
      if (f.resolved || f.depth != sc.base) continue;
      if (next && !(*next == f.landing)) bad("an alternative's failures land at two places");
      next = f.landing;
      f.resolved = true;
    }
    st_.resize(sc.base);
    if (next) {
      const Instruction& n = g_.instructions(next->block)[next->index];
      if (!(n.op() == Op::DUP_TOP || (n.op() == Op::COPY && n.arg == 1))) bad("an alternative that does not copy its subject");
      pos_ = *next;
      sc.alt_from = failures_.size();
      return;
    }
    // The last alternative: each capture slot holds what every alternative bound.
    const std::size_t width = sc.alts.front().size();
    for (const auto& a : sc.alts)
      if (a.size() != width) bad("alternatives that bind different names");
    for (std::size_t j = 0; j < width; ++j) {
      AItem merged = of(AItem::Kind::Captures);
      for (const auto& a : sc.alts) {
        const AItem& x = a[j];
        if (x.kind == AItem::Kind::Subject) merged.targets.push_back({false, x.node});
        else if (x.kind == AItem::Kind::Rest) merged.targets.push_back({true, x.node});
        else if (x.kind == AItem::Kind::Captures) merged.targets.insert(merged.targets.end(), x.targets.begin(), x.targets.end());
        else bad("an alternative leaves a value that is no capture");
      }
      st_.push_back(std::move(merged));
    }
    pos_ = end;
    scopes_.pop_back();
  }

  static bool same_item(const AItem& a, const AItem& b) {
    return a.kind == b.kind && a.node == b.node && a.expr == b.expr && a.k == b.k && a.targets == b.targets;
  }
  // The instructions from `p` to the return or raise that ends a copied tail.
  std::vector<std::pair<std::uint8_t, std::uint32_t>> tail_code(CodePos p, std::vector<BlockId>& blocks) {
    auto code = exit_code(g_, p, blocks);
    if (!code) bad("an alternative's copied tail that does not end the frame");
    return *code;
  }
  // A pop of `n`, an or-pattern's subject, in a copy of the code after the
  // pattern: the alternative that copied it ends here. Returns true when the
  // walk goes on in the next alternative (false: a plain pop, or the last
  // alternative's, whose tail is the one kept).
  bool tail_alternative(int n) {
    PNode& x = nodes_[n];
    if (x.copies.empty() || x.kind != PNode::Kind::Unknown || x.capture) return false;
    OrScope* sc = !scopes_.empty() && scopes_.back().tail && scopes_.back().node == n ? &scopes_.back() : nullptr;
    std::optional<CodePos> next;
    std::optional<std::size_t> base;
    for (std::size_t k = sc ? sc->alt_from : 0; k < failures_.size(); ++k) {
      Failure& f = failures_[k];
      if (f.resolved || f.top_node != n || (sc && f.depth != sc->base)) continue;
      if ((next && !(*next == f.landing)) || (base && *base != f.depth)) bad("an alternative's failures land at two places");
      next = f.landing;
      base = f.depth;
    }
    if (!sc) {
      if (!next) return false;
      scopes_.push_back({{}, *base, 0, {}, true, n, {}});
      sc = &scopes_.back();
    }
    for (std::size_t k = sc->alt_from; k < failures_.size(); ++k)
      if (!failures_[k].resolved && failures_[k].top_node == n && failures_[k].depth == sc->base) failures_[k].resolved = true;
    sc->alts.push_back(st_);
    sc->tails.push_back(pos_);
    if (next) {
      const Instruction& c = g_.instructions(next->block)[next->index];
      if (!(c.op() == Op::DUP_TOP || (c.op() == Op::COPY && c.arg == 1))) bad("an alternative that does not copy its subject");
      const std::vector<AItem>& before = nodes_[x.copies.back()].before;
      if (before.size() != sc->base) bad("an alternative's subject moved");
      st_ = before;
      pos_ = *next;
      sc->alt_from = failures_.size();
      return true;
    }
    // The last alternative: its tail is kept; the others must be the same code.
    std::vector<BlockId> kept;
    const auto code = tail_code(pos_, kept);
    for (std::size_t a = 0; a + 1 < sc->tails.size(); ++a)
      if (tail_code(sc->tails[a], blocks_) != code) bad("alternatives copied different code after the pattern");
    for (const auto& alt : sc->alts)
      if (alt.size() != st_.size()) bad("alternatives that bind different names");
    for (std::size_t j = 0; j < st_.size(); ++j) {
      bool same = true;
      for (const auto& alt : sc->alts) same = same && same_item(alt[j], st_[j]);
      if (same) continue;
      AItem merged = of(AItem::Kind::Captures);
      for (const auto& alt : sc->alts) {
        const AItem& y = alt[j];
        if (y.kind == AItem::Kind::Subject) merged.targets.push_back({false, y.node});
        else if (y.kind == AItem::Kind::Rest) merged.targets.push_back({true, y.node});
        else if (y.kind == AItem::Kind::Captures) merged.targets.insert(merged.targets.end(), y.targets.begin(), y.targets.end());
        else bad("an alternative leaves a value that is no capture");
      }
      st_[j] = std::move(merged);
    }
    scopes_.pop_back();
    return false;
  }

  void copy(std::uint32_t k) {
    if (k == 0) bad("COPY 0");
    AItem x = top(k);
    if (x.kind == AItem::Kind::Subject) {
      if (k != 1) bad("a deep copy of a subject");
      int c = new_node();
      nodes_[c].before = st_;
      nodes_[c].copy_of = x.node;
      nodes_[x.node].copies.push_back(c);
      st_.push_back(subject(c));
      return;
    }
    if (x.kind == AItem::Kind::Test || x.kind == AItem::Kind::Captures) bad("a copy of a test");
    st_.push_back(std::move(x));
  }
  void rot(std::size_t k) {  // top moves down to depth k
    if (k < 2) return;
    if (st_.size() < k) bad("a rotation below the subject");
    AItem x = pop();
    st_.insert(st_.end() - std::ptrdiff_t(k - 1), std::move(x));
  }
  void swap(std::size_t k) {
    if (k < 2) return;
    if (st_.size() < k) bad("a swap below the subject");
    std::swap(st_.back(), st_[st_.size() - k]);
  }
  // An instruction that computes a value from values (loads, attributes, the keys' tuple).
  void lift_expr(std::size_t inputs) {
    lift::Stack s;
    for (std::size_t k = inputs; k > 0; --k) {
      const AItem& x = top(k);
      if (x.kind != AItem::Kind::Expr) bad("an expression on a pattern value");
      s.push_back(lift::Item::value(x.expr));
    }
    lift::BlockEffect eff;
    try {
      eff = lifter_.run(g_, pos_.block, std::move(s), pos_.index, pos_.index + 1);
    } catch (const Error& e) {
      bad(std::string("a value that does not lift: ") + e.what());
    }
    if (!eff.stmts.empty() || eff.stack.size() != 1 || eff.stack[0].kind != lift::Item::Kind::Value ||
        eff.term.kind != lift::Terminator::Kind::Fall)
      bad("a value pattern's value");
    st_.resize(st_.size() - inputs);
    AItem e = of(AItem::Kind::Expr);
    e.expr = eff.stack[0].expr;
    st_.push_back(std::move(e));
  }
  std::string stored_name() {
    lift::Stack s{lift::Item::value(ast::name("_"))};
    lift::BlockEffect eff;
    try {
      eff = lifter_.run(g_, pos_.block, std::move(s), pos_.index, pos_.index + 1);
    } catch (const Error& e) {
      bad(std::string("a capture that does not lift: ") + e.what());
    }
    if (eff.stmts.size() != 1 || !eff.stack.empty()) bad("a capture's store");
    auto* a = eff.stmts[0]->as<ast::Assign>();
    if (!a || a->targets.size() != 1) bad("a capture's store");
    auto* n = a->targets[0]->as<ast::Name>();
    if (!n) bad("a capture into something that is not a name");
    return n->id.str();
  }
  void store(AItem x, std::string_view name) {
    auto set = [&](bool rest, int n) {
      auto& slot = rest ? nodes_[n].rest : nodes_[n].capture;
      if (slot) bad("a name captured twice");
      slot = name;
    };
    if (x.kind == AItem::Kind::Subject) set(false, x.node);
    else if (x.kind == AItem::Kind::Rest) set(true, x.node);
    else if (x.kind == AItem::Kind::Captures)
      for (auto [rest, n] : x.targets) set(rest, n);
    else bad("a store of a value that is no capture");
  }
  void subtract() {
    if (top(2).kind == AItem::Kind::Len) {
      auto k = top().kind == AItem::Kind::Expr ? small_int(top().expr) : std::nullopt;
      if (!k) bad("an index from the back that is no constant");
      pop();
      AItem len = pop();
      AItem m = of(AItem::Kind::LenMinus, len.node);
      m.k = *k;
      st_.push_back(std::move(m));
      return;
    }
    lift_expr(2);
  }
  void subscript() {
    AItem index = pop();
    AItem container = pop();
    std::int64_t at = 0;
    if (index.kind == AItem::Kind::Expr) {
      auto k = small_int(index.expr);
      if (!k) bad("an element index that is no constant");
      at = *k;
    } else if (index.kind == AItem::Kind::LenMinus && index.node == container.node &&
               container.kind == AItem::Kind::Subject) {
      at = -index.k;
    } else {
      bad("an element index");
    }
    int child = new_node();
    if (container.kind == AItem::Kind::Subject) {
      PNode& c = nodes_[container.node];
      if (c.copy_of < 0 || nodes_[c.copy_of].kind != PNode::Kind::Sequence || c.kind != PNode::Kind::Unknown ||
          !c.copies.empty() || c.capture)
        bad("a subscript of a subject");
      c.subscript_copy = true;
      PNode& seq = nodes_[c.copy_of];
      if (seq.by_index.count(at)) bad("an element taken twice");
      seq.by_index[at] = child;
    } else if (container.kind == AItem::Kind::Attrs || container.kind == AItem::Kind::Values) {
      PNode& p = nodes_[container.node];
      if (at < 0 || p.parts.count(at)) bad("an attribute or value taken twice");
      p.parts[at] = child;
    } else {
      bad("a subscript in pattern code");
    }
    st_.push_back(subject(child));
  }
  void unpack(const Instruction& i) {
    if ((i.op() == Op::UNPACK_EX ? i.arg >> 8 : i.arg) > 4096) bad("an unpacking too wide for a pattern");
    AItem x = pop();
    std::vector<int> children;
    if (i.op() == Op::UNPACK_EX) {
      if (x.kind != AItem::Kind::Subject || nodes_[x.node].kind != PNode::Kind::Sequence)
        bad("a starred unpacking of a non-sequence");
      const std::uint32_t before = i.arg & 0xff, after = i.arg >> 8;
      for (std::uint32_t k = 0; k < before + 1 + after; ++k) children.push_back(new_node());
      nodes_[children[before]].star = true;
      PNode& s = nodes_[x.node];
      if (!s.items.empty() || !s.by_index.empty()) bad("a sequence unpacked twice");
      s.items = children;
    } else {
      for (std::uint32_t k = 0; k < i.arg; ++k) children.push_back(new_node());
      if (x.kind == AItem::Kind::Subject && nodes_[x.node].kind == PNode::Kind::Sequence) {
        PNode& s = nodes_[x.node];
        if (!s.items.empty() || !s.by_index.empty()) bad("a sequence unpacked twice");
        s.items = children;
      } else if (x.kind == AItem::Kind::Attrs || x.kind == AItem::Kind::Values) {
        PNode& p = nodes_[x.node];
        if (p.unpacked_parts || !p.parts.empty()) bad("attributes unpacked twice");
        p.unpacked_parts = true;
        p.nparts = i.arg;
        for (std::uint32_t k = 0; k < i.arg; ++k) p.parts[k] = children[k];
      } else if (x.kind == AItem::Kind::Keys) {
        for (std::uint32_t k = 0; k < i.arg; ++k) st_.push_back(of(AItem::Kind::Key, x.node));
        return;
      } else {
        bad("an unpacking in pattern code");
      }
    }
    for (auto it = children.rbegin(); it != children.rend(); ++it) st_.push_back(subject(*it));
  }

  void step(const Instruction& i) {
    using K = AItem::Kind;
    switch (i.op()) {
      case Op::DUP_TOP:
        copy(1);
        break;
      case Op::COPY:
        copy(i.arg);
        break;
      case Op::POP_TOP: {
        if (top().kind == K::Subject && tail_alternative(top().node)) return;
        AItem x = pop();
        if (x.kind == K::Subject) nodes_[x.node].popped = true;
        else if (x.kind == K::Test || x.kind == K::Captures || x.kind == K::Rest) bad("a pattern pops a test");
        break;
      }
      case Op::ROT_TWO:
        rot(2);
        break;
      case Op::ROT_THREE:
        rot(3);
        break;
      case Op::ROT_FOUR:
        rot(4);
        break;
      case Op::ROT_N:
        rot(i.arg);
        break;
      case Op::SWAP:
        swap(i.arg);
        break;
      case Op::LOAD_CONST:
      case Op::LOAD_SMALL_INT:
      case Op::LOAD_NAME:
      case Op::LOAD_GLOBAL:
      case Op::LOAD_FAST:
      case Op::LOAD_FAST_CHECK:
      case Op::LOAD_FAST_BORROW:
      case Op::LOAD_DEREF:
      case Op::LOAD_CLASSDEREF:
        lift_expr(0);
        break;
      case Op::LOAD_ATTR:
      case Op::UNARY_NEGATIVE:
        lift_expr(1);
        break;
      case Op::BUILD_TUPLE:
        lift_expr(i.arg);
        break;
      case Op::BINARY_ADD:
        lift_expr(2);
        break;
      case Op::BINARY_SUBTRACT:
        subtract();
        break;
      case Op::BINARY_OP: {
        const std::string_view t = resolve_argument(g_.code(), i).text;
        if (t == "-") subtract();
        else if (t == "[]") subscript();
        else if (t == "+") lift_expr(2);
        else bad("an operator in pattern code");
        break;
      }
      case Op::BINARY_SUBSCR:
        subscript();
        break;
      case Op::GET_LEN: {
        AItem& s = subject_on_top();
        st_.push_back(of(K::Len, s.node));
        break;
      }
      case Op::COMPARE_OP: {
        auto cmp = lift::compare_by_text(resolve_argument(g_.code(), i).text);
        AItem right = pop(), left = pop();
        if (!cmp || right.kind != K::Expr) bad("a comparison in pattern code");
        if (left.kind == K::Subject && *cmp == ast::CmpOperator::Eq) {
          PNode& n = fresh(left.node);
          if (!right.expr->is<ast::Constant>() && !right.expr->is<ast::Attribute>()) bad("a value pattern's value");
          n.kind = PNode::Kind::Value;
          n.value = right.expr;
        } else if (left.kind == K::Len) {
          auto k = small_int(right.expr);
          PNode& n = nodes_[left.node];
          if (!k || (n.kind != PNode::Kind::Sequence && n.kind != PNode::Kind::Mapping) || n.len_eq || n.len_ge)
            bad("a length test");
          if (*cmp == ast::CmpOperator::Eq && n.kind == PNode::Kind::Sequence) n.len_eq = *k;
          else if (*cmp == ast::CmpOperator::GtE) n.len_ge = *k;
          else bad("a length test");
        } else {
          bad("a comparison in pattern code");
        }
        st_.push_back(of(K::Test));
        break;
      }
      case Op::IS_OP: {
        AItem right = pop(), left = pop();
        auto* c = right.kind == K::Expr ? right.expr->as<ast::Constant>() : nullptr;
        if (!c || !c->value) bad("an identity test in pattern code");
        if (left.kind == K::Subject && i.arg == 0 && (c->value->is<NoneValue>() || c->value->is<BoolValue>())) {
          PNode& n = fresh(left.node);
          n.kind = PNode::Kind::Singleton;
          n.singleton = c->value;
        } else if ((left.kind == K::Attrs || left.kind == K::Values) && i.arg == 1 && c->value->is<NoneValue>()) {
          // 3.11+: MATCH_CLASS / MATCH_KEYS gave None on failure
        } else {
          bad("an identity test in pattern code");
        }
        st_.push_back(of(K::Test));
        break;
      }
      case Op::TO_BOOL:
        if (top().kind != K::Test) bad("TO_BOOL in pattern code");
        break;
      case Op::MATCH_SEQUENCE:
      case Op::MATCH_MAPPING: {
        definite_ = true;
        PNode& n = fresh(subject_on_top().node);
        n.kind = i.op() == Op::MATCH_SEQUENCE ? PNode::Kind::Sequence : PNode::Kind::Mapping;
        st_.push_back(of(K::Test));
        break;
      }
      case Op::MATCH_CLASS: {
        definite_ = true;
        AItem names = pop(), cls = pop();
        AItem s = pop();
        if (s.kind != K::Subject || cls.kind != K::Expr || names.kind != K::Expr) bad("MATCH_CLASS operands");
        auto* c = names.expr->as<ast::Constant>();
        auto* t = c && c->value ? c->value->as<TupleValue>() : nullptr;
        if (!t) bad("MATCH_CLASS without its attribute names");
        PNode& n = fresh(s.node);
        n.kind = PNode::Kind::Class;
        n.value = cls.expr;
        n.nargs = i.arg;
        for (const ObjectRef& o : t->items) {
          auto* str = o ? o->as<StrValue>() : nullptr;
          if (!str) bad("a keyword attribute that is no string");
          n.kwd.push_back(str->utf8);
        }
        st_.push_back(of(K::Attrs, s.node));
        if (row_.match_pushes_success) st_.push_back(of(K::Test));
        break;
      }
      case Op::MATCH_KEYS: {
        definite_ = true;
        AItem& keys = top();
        AItem& s = top(2);
        if (keys.kind != K::Expr || s.kind != K::Subject || nodes_[s.node].kind != PNode::Kind::Mapping)
          bad("MATCH_KEYS operands");
        PNode& n = nodes_[s.node];
        if (n.has_keys) bad("keys matched twice");
        n.has_keys = true;
        if (auto* c = keys.expr->as<ast::Constant>(); c && c->value && c->value->is<TupleValue>()) {
          for (const ObjectRef& o : c->value->as<TupleValue>()->items) n.keys.push_back(ast::constant(o));
        } else if (auto* tu = keys.expr->as<ast::Tuple>()) {
          n.keys = tu->elts;
        } else {
          bad("a mapping pattern's keys");
        }
        const int node = s.node;
        keys = of(K::Keys, node);
        st_.push_back(of(K::Values, node));
        if (row_.match_pushes_success) st_.push_back(of(K::Test));
        break;
      }
      case Op::COPY_DICT_WITHOUT_KEYS: {
        AItem& keys = top();
        if (keys.kind != K::Keys) bad("COPY_DICT_WITHOUT_KEYS without keys");
        keys = of(K::Rest, keys.node);
        break;
      }
      case Op::BUILD_MAP:
        if (i.arg != 0) bad("a dict built in pattern code");
        st_.push_back(of(K::EmptyMap));
        break;
      case Op::DICT_UPDATE: {
        AItem s = pop();
        if (s.kind != K::Subject || nodes_[s.node].kind != PNode::Kind::Mapping || i.arg == 0) bad("DICT_UPDATE in pattern code");
        AItem& target = top(i.arg);
        if (target.kind != K::EmptyMap) bad("DICT_UPDATE in pattern code");
        target = of(K::Rest, s.node);
        break;
      }
      case Op::DELETE_SUBSCR: {
        AItem key = pop(), map = pop();
        if (key.kind != K::Key || map.kind != K::Rest || key.node != map.node) bad("DELETE_SUBSCR in pattern code");
        break;
      }
      case Op::UNPACK_SEQUENCE:
      case Op::UNPACK_EX:
        unpack(i);
        break;
      case Op::STORE_FAST:
      case Op::STORE_NAME:
      case Op::STORE_GLOBAL:
      case Op::STORE_DEREF: {
        std::string name = stored_name();
        store(pop(), name);
        break;
      }
      case Op::STORE_FAST_STORE_FAST: {
        ResolvedArg a = resolve_argument(g_.code(), i);
        store(pop(), a.text);
        store(pop(), a.second);
        break;
      }
      case Op::POP_JUMP_IF_FALSE:
      case Op::POP_JUMP_FORWARD_IF_FALSE:
        if (pop().kind != K::Test) bad("a jump on something that is not a pattern test");
        failure(i);
        break;
      case Op::POP_JUMP_IF_TRUE:
      case Op::POP_JUMP_FORWARD_IF_TRUE: {
        // 3.12+: the test inverted, its failure a lone jump back to the loop's head.
        if (pop().kind != K::Test) bad("a jump on something that is not a pattern test");
        const BlockId fall = fall_of(g_, pos_.block);
        if (fall == kNoBlock || !i.jump_target || !(through_back_jump(g_, {fall, 0}).block != fall))
          bad("an inverted pattern test");
        auto t = g_.block_at(*i.jump_target);
        if (!t) bad("a jump into no block");
        failure_at(fall);
        pos_ = {*t, 0};
        return;
      }
      case Op::POP_JUMP_IF_NONE:
      case Op::POP_JUMP_FORWARD_IF_NONE: {
        AItem x = pop();
        if (x.kind != K::Attrs && x.kind != K::Values) bad("a None test in pattern code");
        failure(i);
        break;
      }
      case Op::POP_JUMP_IF_NOT_NONE:
      case Op::POP_JUMP_FORWARD_IF_NOT_NONE: {
        AItem x = pop();
        if (x.kind != K::Subject) bad("a None test in pattern code");
        PNode& n = fresh(x.node);
        n.kind = PNode::Kind::Singleton;
        n.singleton = make_object(NoneValue{});
        failure(i);
        break;
      }
      case Op::JUMP_FORWARD:
      case Op::JUMP_ABSOLUTE: {
        if (!is_forward_jump(i)) bad("a backward jump in pattern code");
        auto t = g_.block_at(*i.jump_target);
        if (!t) bad("a jump into no block");
        end_alternative({*t, 0});
        return;
      }
      default:
        bad("'" + std::string(i.name()) + "' in pattern code");
    }
    ++pos_.index;
  }

  // --- rebuilding -----------------------------------------------------------------
  ast::PatternPtr part(const PNode& p, std::int64_t k) {
    auto it = p.parts.find(k);
    return it == p.parts.end() ? ast::wildcard() : build(it->second);
  }
  ast::PatternPtr build(int n, int depth = 0) {
    if (depth > 200) bad("patterns nested too deeply");
    PNode& x = nodes_[n];
    std::vector<int> copies = pattern_copies(n);
    if (x.star) {
      if (x.kind != PNode::Kind::Unknown || !copies.empty()) bad("a starred element with a pattern");
      return ast::match_star(x.capture);
    }
    if (x.capture) {
      if (x.kind != PNode::Kind::Unknown || copies.size() > 1) bad("a capture with a pattern");
      if (copies.empty()) return ast::capture(*x.capture);
      return ast::match_as(build(copies[0], depth + 1), x.capture);
    }
    if (!copies.empty()) {
      if (x.kind != PNode::Kind::Unknown || copies.size() < 2 || !x.popped) bad("a copied subject");
      ast::PatternList alts;
      for (int c : copies) alts.push_back(build(c, depth + 1));
      return ast::match_or(std::move(alts));
    }
    switch (x.kind) {
      case PNode::Kind::Unknown:
        if (!x.popped) bad("a sub-pattern's subject left unused");
        return ast::wildcard();
      case PNode::Kind::Value:
        return ast::match_value(pattern_value(x.value));
      case PNode::Kind::Singleton:
        return ast::match_singleton(x.singleton);
      case PNode::Kind::Sequence: {
        ast::PatternList out;
        if (!x.items.empty()) {
          std::int64_t fixed = 0;
          bool starred = false;
          for (int c : x.items) {
            out.push_back(build(c, depth + 1));
            if (nodes_[c].star) starred = true;
            else ++fixed;
          }
          if (starred ? (fixed > 0 && x.len_ge != fixed) || (fixed == 0 && (x.len_ge || x.len_eq))
                      : x.len_eq != fixed)
            bad("a sequence's length test and unpacking disagree");
          return ast::match_sequence(std::move(out));
        }
        if (x.len_eq) {
          if (!x.by_index.empty() || *x.len_eq < 0 || *x.len_eq > 4096) bad("a sequence pattern");
          for (std::int64_t k = 0; k < *x.len_eq; ++k) out.push_back(ast::wildcard());
          return ast::match_sequence(std::move(out));
        }
        // A starred wildcard: elements taken by index, the rest `_`.
        const std::int64_t size = x.len_ge ? *x.len_ge + 1 : 1;
        if (size < 1 || size > 4096) bad("a sequence pattern");
        std::int64_t star = 0;
        for (auto& [k, c] : x.by_index)
          if (k >= 0) star = std::max(star, k + 1);
        for (auto& [k, c] : x.by_index)
          if ((k >= 0 && k >= size - 1) || (k < 0 && size + k <= star)) bad("a sequence's element indices");
        for (std::int64_t k = 0; k < size; ++k) {
          if (k == star) {
            out.push_back(ast::match_star());
            continue;
          }
          auto it = x.by_index.find(k < star ? k : k - size);
          out.push_back(it == x.by_index.end() ? ast::wildcard() : build(it->second, depth + 1));
        }
        return ast::match_sequence(std::move(out));
      }
      case PNode::Kind::Mapping: {
        if (x.has_keys && x.len_ge && *x.len_ge != std::int64_t(x.keys.size()) && !x.keys.empty())
          bad("a mapping's length test and keys disagree");
        if (x.unpacked_parts && x.nparts != x.keys.size()) bad("a mapping's values and keys disagree");
        ast::PatternList values;
        for (std::size_t k = 0; k < x.keys.size(); ++k) values.push_back(part(x, std::int64_t(k)));
        return ast::match_mapping(x.keys, std::move(values), x.rest);
      }
      case PNode::Kind::Class: {
        if (x.unpacked_parts && x.nparts != x.nargs + x.kwd.size()) bad("a class pattern's attributes");
        ast::PatternList pos, kw;
        for (std::size_t k = 0; k < x.nargs; ++k) pos.push_back(part(x, std::int64_t(k)));
        for (std::size_t k = 0; k < x.kwd.size(); ++k) kw.push_back(part(x, std::int64_t(x.nargs + k)));
        return ast::match_class(x.value, std::move(pos), x.kwd, std::move(kw));
      }
    }
    bad("a pattern");
  }

  const cfg::Graph& g_;
  lift::Lifter& lifter_;
  const lift::VersionRow& row_;
  CodePos pos_;
  int root_ = -1;
  std::vector<PNode> nodes_;
  std::vector<AItem> st_;
  std::vector<Failure> failures_;
  std::vector<OrScope> scopes_;
  std::vector<BlockId> blocks_;
  bool definite_ = false;
};

}  // namespace

std::optional<CaseShape> walk_case(const cfg::Graph& graph, lift::Lifter& lifter, const lift::VersionRow& row,
                                   CodePos start, std::string& why, bool& definite) {
  Walk w(graph, lifter, row);
  try {
    CaseShape s = w.run(start);
    s.definite = w.definite();
    definite = definite || s.definite;
    return s;
  } catch (const WalkError& e) {
    why = e.what;
    definite = definite || w.definite();
    return std::nullopt;
  }
}

// --- the statement ------------------------------------------------------------------

// An instruction a guard can start with that no pattern code does (a call's
// NULL, a local or global load followed by more than a comparison...): loads
// of names, which a value pattern starts with too, are told apart by the walk.
bool walks_nothing(const Instruction& i) {
  switch (i.op()) {
    case Op::LOAD_FAST: case Op::LOAD_FAST_CHECK: case Op::LOAD_FAST_BORROW: case Op::LOAD_GLOBAL:
    case Op::LOAD_NAME: case Op::LOAD_DEREF: case Op::LOAD_CONST: case Op::PUSH_NULL: case Op::LOAD_FAST_LOAD_FAST:
    case Op::LOAD_SMALL_INT:
      return true;
    default:
      return false;
  }
}

namespace {
// Where a case's pattern code can start in `ins` from `first` on: the
// subject's copy, or (the last case) the first instruction that tests it.
std::optional<std::size_t> case_start_at(std::span<const Instruction> ins, std::size_t p, std::size_t first) {
  const Op op = ins[p].op();
  if (op == Op::DUP_TOP || (op == Op::COPY && ins[p].arg == 1)) {
    if (p + 1 >= ins.size()) return std::nullopt;
    const Op next = ins[p + 1].op();
    // What a pattern starts with: a value or class load, a MATCH_*, a copy, a capture or a wildcard.
    switch (next) {
      case Op::LOAD_CONST: case Op::LOAD_SMALL_INT: case Op::LOAD_NAME: case Op::LOAD_GLOBAL: case Op::LOAD_FAST:
      case Op::LOAD_FAST_CHECK: case Op::LOAD_FAST_BORROW: case Op::LOAD_DEREF: case Op::LOAD_CLASSDEREF:
      case Op::MATCH_SEQUENCE: case Op::MATCH_MAPPING: case Op::DUP_TOP: case Op::COPY: case Op::STORE_FAST:
      case Op::STORE_NAME: case Op::STORE_GLOBAL: case Op::STORE_DEREF: case Op::POP_TOP:
      case Op::POP_JUMP_IF_NOT_NONE: case Op::POP_JUMP_FORWARD_IF_NOT_NONE:
        return p;
      default:
        return std::nullopt;
    }
  }
  if (op == Op::MATCH_SEQUENCE || op == Op::MATCH_MAPPING) return p;
  if (op == Op::MATCH_CLASS) {
    // `cls` (a name and attributes), the attribute names' tuple, MATCH_CLASS.
    if (p < first + 2 || ins[p - 1].op() != Op::LOAD_CONST) return std::nullopt;
    std::size_t q = p - 2;
    while (q > first && ins[q].op() == Op::LOAD_ATTR) --q;
    switch (ins[q].op()) {
      case Op::LOAD_NAME: case Op::LOAD_GLOBAL: case Op::LOAD_FAST: case Op::LOAD_FAST_CHECK:
      case Op::LOAD_FAST_BORROW: case Op::LOAD_DEREF: case Op::LOAD_CLASSDEREF:
        return q;
      default:
        return std::nullopt;
    }
  }
  return std::nullopt;
}
}  // namespace

std::optional<Structurer::Resume> Structurer::structure_match(BlockId b, std::size_t first, BlockId stop, Seq& out) {
  auto ins = graph_.instructions(b);
  const lift::VersionRow& row = lift::version_row(code_.traits->minor);
  if (!row.match_statements) return std::nullopt;
  for (std::size_t p = first; p < ins.size(); ++p) {
    auto start = case_start_at(ins, p, first);
    if (!start) continue;
    std::string why;
    bool definite = false;
    auto shape = walk_case(graph_, lifter_, row, {b, *start}, why, definite);
    if (!shape) {
      if (definite) fail(b, "match statement: " + why);
      continue;
    }
    // A lone case that cannot fail is plain stores (`x = y = v` is `case x as y`).
    if (!shape->copied && !shape->landing && !shape->definite) continue;
    // A first case that cannot fail needs a guard: a test, with no store
    // or copy before it in its block (cheap to rule out `x = y = v`).
    if (!shape->landing && !shape->definite) {
      auto ai = graph_.instructions(shape->after.block);
      bool plain = !ai.empty() && ai.back().jump_target.has_value();
      for (std::size_t k = shape->after.index; plain && k < ai.size(); ++k) {
        const Op op = ai[k].op();
        plain = op != Op::STORE_FAST && op != Op::STORE_NAME && op != Op::STORE_GLOBAL && op != Op::STORE_DEREF &&
                op != Op::DUP_TOP && op != Op::COPY && op != Op::STORE_ATTR && op != Op::STORE_SUBSCR;
      }
      if (!plain) continue;
    }
    if (auto r = match_from(b, first, *start, std::move(*shape), stop, out)) return r;
  }
  return guard_only_match(b, first, stop, out);
}

// 3.12+: a match whose first case is `case _ if g:` starts with no copy of
// the subject: the block computes the subject and the guard, whose success
// pops the subject and whose failure goes on to the next case's pattern.
std::optional<Structurer::Resume> Structurer::guard_only_match(BlockId b, std::size_t first, BlockId stop, Seq& out) {
  auto ins = graph_.instructions(b);
  if (ins.empty() || !ins.back().jump_target || first >= ins.size()) return std::nullopt;
  const Op last = ins.back().op();
  if (last != Op::POP_JUMP_IF_FALSE && last != Op::POP_JUMP_IF_TRUE && last != Op::POP_JUMP_IF_NONE &&
      last != Op::POP_JUMP_IF_NOT_NONE)
    return std::nullopt;
  // Cheap first: one way starts by popping (the subject), the other with a pattern.
  auto first_real = [&](BlockId x) -> const Instruction* {
    if (x == kNoBlock) return nullptr;
    for (const Instruction& i : graph_.instructions(x))
      if (i.op() != Op::NOP && i.op() != Op::NOT_TAKEN) return &i;
    return nullptr;
  };
  const Instruction* a = first_real(jump_successor(b));
  const Instruction* c = first_real(fall_successor(b));
  if (!a || !c || (a->op() != Op::POP_TOP && c->op() != Op::POP_TOP)) return std::nullopt;
  lift::BlockEffect eff;
  try {
    eff = lifter_.run(graph_, b, out.stack, first, ins.size());
  } catch (const Error&) {
    return std::nullopt;
  }
  // (Not a kept value tested itself: 3.12+'s `x and y` is COPY 1, a jump, POP_TOP.)
  if (eff.term.kind != TK::Branch || eff.term.exc_match || eff.stack.size() != out.stack.size() + 1 ||
      eff.stack.back().kind != Item::Kind::Value || !eff.stack.back().expr ||
      eff.stack.back().expr == eff.term.cond)
    return std::nullopt;
  // (Statements in the block come before the subject, unless lifting spilled it.)
  if (auto* n = eff.stack.back().expr->as<ast::Name>(); n && lifter_.temporaries().count(n->id)) return std::nullopt;
  BlockId taken = jump_successor(b), fall = fall_successor(b);
  Cond cond = eff.term.jump_if ? Cond{eff.term.cond, taken, fall} : Cond{eff.term.cond, fall, taken};
  std::vector<BlockId> used;
  cond = collapse_unmarked(b, cond, eff.stack, used);
  if (const Instruction* f = first_real(cond.f); f && f->op() == Op::POP_TOP) {  // `case _ if not x`
    std::swap(cond.t, cond.f);
    cond.expr = negate(cond.expr);
  }
  const Instruction* t = first_real(cond.t);
  if (!t || t->op() != Op::POP_TOP) return std::nullopt;
  // The body follows its guard: the pop is where the guard falls through to
  // (a chained comparison's cleanup pop is where it jumps: `a == b == c`).
  bool follows = fall_successor(b) == cond.t;
  for (BlockId u : used) follows = follows || fall_successor(u) == cond.t;
  if (!follows) return std::nullopt;
  std::size_t k = 0;
  while (&graph_.instructions(cond.t)[k] != t) ++k;
  const CodePos landing = through_back_jump(graph_, {cond.f, 0});
  std::string why;
  bool definite = false;
  auto next = walk_case(graph_, lifter_, lift::version_row(code_.traits->minor), landing, why, definite);
  // (The next case must test the subject: a pattern that can fail, or a copy for one.)
  if (!next || (!next->definite && !next->landing && !next->copied)) return std::nullopt;
  GuardOnlyCase pre{eff.stmts, eff.stack, cond.expr, {cond.t, k + 1}, landing, used};
  pre.blocks.push_back(b);
  pre.blocks.push_back(cond.t);
  return match_from(b, first, first, std::move(*next), stop, out, &pre);
}

std::optional<Structurer::Resume> Structurer::match_from(BlockId b, std::size_t first, std::size_t start,
                                                         CaseShape shape, BlockId stop, Seq& out,
                                                         const GuardOnlyCase* pre) {
  const lift::VersionRow& row = lift::version_row(code_.traits->minor);
  bool definite = shape.definite;
  auto give_up = [&](const std::string& why) -> std::optional<Resume> {
    if (definite) fail(b, "match statement: " + why);
    return std::nullopt;
  };
  // The code before the match and the subject.
  lift::Stack stack = pre ? pre->stack : out.stack;
  ast::StmtList before = pre ? pre->before : ast::StmtList{};
  if (!pre && start > first) {
    lift::BlockEffect eff;
    try {
      eff = lifter_.run(graph_, b, stack, first, start);
    } catch (const Error& e) {
      return give_up(e.what());
    }
    if (eff.term.kind != TK::Fall) return give_up("the subject");
    before = std::move(eff.stmts);
    stack = std::move(eff.stack);
  }
  if (stack.empty() || stack.back().kind != Item::Kind::Value || !stack.back().expr) return give_up("no subject");
  const ast::ExprPtr subject = stack.back().expr;
  lift::Stack base = stack;
  base.pop_back();

  struct Case {
    CaseShape shape;
    ast::ExprPtr guard;
    CodePos body;
    std::optional<std::string> loaded;  // the body starts after a STORE_FAST_LOAD_FAST that loaded this
  };
  std::vector<Case> cases;
  std::vector<BlockId> blocks;  // the match's own code, marked before the bodies are structured
  if (pre) {
    CaseShape first_case;
    first_case.pattern = ast::wildcard();
    first_case.copied = true;
    first_case.subject_popped = true;
    first_case.landing = pre->landing;
    first_case.landing_depth = 1;
    cases.push_back(Case{std::move(first_case), pre->guard, pre->body, std::nullopt});
    blocks = pre->blocks;
  }
  auto with_loaded = [](lift::Stack s, const std::optional<std::string>& loaded) {
    if (loaded) s.push_back(Item::value(ast::name(*loaded)));
    return s;
  };
  // A guard at `at`: a condition with no statements (its and/or chain collapsed).
  auto guard_at = [&](CodePos at, const lift::Stack& entry, std::size_t depth,
                      std::vector<BlockId>& used) -> std::optional<Cond> {
    lift::BlockEffect eff;
    lift::Stack st = entry;
    std::vector<BlockId> awaits;  // (an `await` in the guard: the blocks after its SEND)
    for (int hops = 0;; ++hops) {
      try {
        eff = lifter_.run(graph_, at.block, st, at.index, graph_.instructions(at.block).size());
      } catch (const Error&) {
        return std::nullopt;
      }
      if (!eff.stmts.empty() || hops > 16) break;
      if (eff.term.kind == TK::Fall && !graph_.last_instruction(at.block).jump_target) {
        // (A guard that goes on into the next block: the SEND of an await starts one.)
        st = std::move(eff.stack);
        at = {fall_successor(at.block), 0};
        // (Not into a loop: a `while` starting the body is no guard. An await's SEND loop is.)
        if (at.block == kNoBlock || (loops_.loop_of_header(at.block) != cfg::kNoLoop &&
                                     graph_.last_instruction(at.block).op() != Op::SEND))
          return std::nullopt;
        awaits.push_back(at.block);
        continue;
      }
      if (eff.term.kind != TK::Send) break;
      // As sequence_raw: [receiver, value] → the await's result; on after the SEND loop.
      if (eff.stack.size() < 2) return std::nullopt;
      eff.stack.pop_back();
      st = std::move(eff.stack);
      at = {jump_successor(at.block), 0};
      if (at.block == kNoBlock) return std::nullopt;
      awaits.push_back(at.block);
    }
    if (!eff.stmts.empty() || eff.term.kind != TK::Branch || eff.term.exc_match || eff.stack.size() != depth)
      return std::nullopt;
    used.insert(used.end(), awaits.begin(), awaits.end());
    BlockId taken = jump_successor(at.block), fall = fall_successor(at.block);
    Cond c = eff.term.jump_if ? Cond{eff.term.cond, taken, fall} : Cond{eff.term.cond, fall, taken};
    c = collapse_unmarked(at.block, c, eff.stack, used);
    // (A chain can come out as the guard negated: `not n or flag` is `n and not flag` failing.)
    if (auto first = graph_.instructions(c.t); !first.empty() && first.front().op() != Op::POP_TOP) {
      auto other = graph_.instructions(c.f);
      if (!other.empty() && other.front().op() == Op::POP_TOP && depth == stack.size() && depth > base.size()) {
        std::swap(c.t, c.f);
        c.expr = negate(c.expr);
      }
    }
    return c;
  };
  auto first_real = [&](BlockId x) {
    auto xi = graph_.instructions(x);
    std::size_t k = 0;
    while (k < xi.size() && (xi[k].op() == Op::NOP || xi[k].op() == Op::EXTENDED_ARG)) ++k;
    return k;
  };
  for (int guard_count = 0;; ++guard_count) {
    if (guard_count > 10000) return give_up("too many cases");
    Case c{std::move(shape), nullptr, {}, std::nullopt};
    blocks.insert(blocks.end(), c.shape.blocks.begin(), c.shape.blocks.end());
    if (c.shape.or_last) {
      // `case A | B: return x` as the last case: B's failures pop the
      // subject, A is the case before with the same copied code.
      std::vector<BlockId> my_blocks, prev_blocks;
      auto mine = exit_code(graph_, c.shape.after, my_blocks);
      Case* prev = cases.empty() ? nullptr : &cases.back();
      if (prev && prev->shape.copied && prev->shape.subject_popped && !prev->guard && !prev->loaded &&
          !c.shape.loaded && mine && exit_code(graph_, prev->body, prev_blocks) == mine) {
        blocks.insert(blocks.end(), prev_blocks.begin(), prev_blocks.end());
        c.shape.pattern = ast::match_or({prev->shape.pattern, c.shape.pattern});
        c.body = c.shape.after;
        cases.pop_back();
        cases.push_back(std::move(c));
        break;
      }
      // (Or a case before a `case _ if g:` that starts by popping the subject.)
      if (!c.shape.alt_landing) return give_up("an or-pattern's last alternative");
      c.shape.or_last = false;
      c.shape.copied = true;
      c.shape.landing = c.shape.alt_landing;
      c.shape.landing_depth = 1;
    }
    if (c.shape.copied) {
      if (c.shape.subject_popped) {
        c.body = c.shape.after;
        c.loaded = c.shape.loaded;
      } else {
        // The guard, then the subject's pop, then the body.
        // (The subject is only popped after the guard: an opaque value, so
        // that a guard rebinding the subject's name does not spill it.)
        lift::Stack held = stack;
        held.back() = Item::of(Item::Kind::Marker);
        lift::Stack entry = with_loaded(held, c.shape.loaded);
        std::vector<BlockId> used;
        auto g = guard_at(c.shape.after, entry, stack.size(), used);
        if (!g) return give_up("a case whose subject stays after its pattern");
        const CodePos guard_fails = through_back_jump(graph_, {g->f, 0});
        if (c.shape.landing && !(*c.shape.landing == guard_fails))
          return give_up("a guard that fails elsewhere than its pattern (" + std::to_string(guard_fails.block) + " vs " + std::to_string(c.shape.landing->block) + ":" + std::to_string(c.shape.landing->index) + ")");
        if (!c.shape.landing) c.shape.landing = guard_fails;
        std::size_t k = first_real(g->t);
        auto ti = graph_.instructions(g->t);
        if (k >= ti.size() || ti[k].op() != Op::POP_TOP) return give_up("a guarded case that keeps its subject");
        c.guard = g->expr;
        c.body = {g->t, k + 1};
        blocks.push_back(c.shape.after.block);
        blocks.insert(blocks.end(), used.begin(), used.end());
        blocks.push_back(g->t);
      }
      if (!c.shape.landing) return give_up("a case before the last that cannot fail");
      CodePos next = *c.shape.landing;
      cases.push_back(std::move(c));
      std::string why;
      auto s = walk_case(graph_, lifter_, row, next, why, definite);
      if (!s) {
        // (3.12+: `case _ if g:` is its guard alone, the subject under it.)
        auto ni = graph_.instructions(next.block);
        if (next.index >= ni.size() || !walks_nothing(ni[next.index])) return give_up(why);
        s.emplace();
        s->pattern = ast::wildcard();
        s->copied = true;
        s->after = next;
      }
      shape = std::move(*s);
      continue;
    }
    c.body = c.shape.after;
    c.loaded = c.shape.loaded;
    cases.push_back(std::move(c));
    break;
  }
  Case& last = cases.back();
  // A last `case _` after others is a default only when unguarded, and a
  // default takes no pop of the subject: this one has a guard, which fails
  // to what follows (the default, or the match's end).
  if (auto* as = last.shape.pattern->as<ast::MatchAs>();
      as && !as->pattern && !as->name && !last.shape.landing && cases.size() > 1) {
    std::vector<BlockId> used;
    lift::Stack entry = with_loaded(base, last.loaded);
    if (auto g = guard_at(last.body, entry, base.size(), used)) {
      last.guard = g->expr;
      blocks.push_back(last.body.block);
      blocks.insert(blocks.end(), used.begin(), used.end());
      last.shape.landing = through_back_jump(graph_, {g->f, 0});
      last.body = {g->t, 0};
      last.loaded.reset();
    }
  }
  // Where the cases meet, and whether a `case _:` follows the last pattern.
  std::vector<BlockId> arms;
  for (const Case& c : cases) arms.push_back(c.body.block);
  if (last.shape.landing) arms.push_back(last.shape.landing->block);
  std::vector<BlockId> own = blocks;
  for (const Case& c : cases)
    if (c.body.index > 0) own.push_back(c.body.block);
  const BlockId follow = match_follow(b, arms, stop, own);
  std::optional<CodePos> default_start;
  std::optional<CodePos> resume;
  BlockId body_stop = follow;
  // The line of instruction `p` (nullopt without one).
  auto line_at = [&](CodePos p) -> std::optional<int> {
    auto pi = graph_.instructions(p.block);
    if (p.index >= pi.size()) return std::nullopt;
    const std::uint32_t off = pi[p.index].offset;
    for (const LineRange& r : code_.lines)
      if (off >= r.start && off < r.end) return r.line;
    return std::nullopt;
  };
  if (last.shape.landing) {
    const CodePos land = *last.shape.landing;
    // The last case's guard fails where its pattern does. (So does an `if`
    // that starts its body: that one starts on a line after the pattern's.)
    auto pattern_line = last.body.index > 0 ? line_at({last.body.block, last.body.index - 1}) : std::nullopt;
    auto test_line = line_at(last.body);
    if (!(pattern_line && test_line && *test_line > *pattern_line)) {
      std::vector<BlockId> used;
      lift::Stack entry = with_loaded(base, last.loaded);
      // (3.12+ may give the guard's failure its own copy of a small exit.)
      auto same_exit = [&](BlockId f) {
        std::vector<BlockId> mine, theirs;
        auto a = exit_code(graph_, {f, 0}, mine);
        auto c = exit_code(graph_, land, theirs);
        if (!a || !c || *a != *c) return false;
        used.insert(used.end(), mine.begin(), mine.end());
        return true;
      };
      if (auto g = guard_at(last.body, entry, base.size(), used);
          g && (through_back_jump(graph_, {g->f, 0}) == land || (g->f != land.block && same_exit(g->f)))) {
        last.guard = g->expr;
        blocks.push_back(last.body.block);
        blocks.insert(blocks.end(), used.begin(), used.end());
        last.body = {g->t, 0};
        last.loaded.reset();
      }
    }
    // What follows the last pattern is a `case _:` (a NOP for its line, or
    // code before where the cases meet) unless a case's body goes there:
    // then it is the code after the match.
    bool reached_by_body = false;
    if (land.index == 0)
      graph_.for_each_predecessor(land.block, kFlowEdges, [&](const cfg::Edge& e) {
        if (std::find(blocks.begin(), blocks.end(), e.from) == blocks.end()) reached_by_body = true;
      });
    auto li = graph_.instructions(land.block);
    const bool nop = land.index < li.size() && li[land.index].op() == Op::NOP;
    if (!reached_by_body && (nop || (follow != kNoBlock && !(land.block == follow && land.index == 0)))) {
      default_start = land;
    } else {
      resume = land;
      // (Not a loop's head: a case that goes back there is a `continue`.)
      if (land.index == 0 && can_merge_at(land.block)) body_stop = land.block;
    }
  }
  // The match's own code is done: mark it, then structure the bodies.
  std::sort(blocks.begin(), blocks.end());
  blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
  // (A match that starts inside its block, after another statement or a
  // case's stores, shares it: it is marked already.)
  std::erase_if(blocks, [&](BlockId x) { return x == b && first > 0 && emitted_[x]; });
  for (BlockId x : blocks)
    if (emitted_[x]) return give_up("pattern code reached twice");
  for (BlockId x : blocks) mark(x);
  definite = true;  // blocks are marked: no way back
  std::vector<ast::MatchCase> out_cases;
  bool open = false;
  auto body_of = [&](CodePos at, const std::optional<std::string>& loaded) {
    lift::Stack entry = with_loaded(base, loaded);
    Seq s = sequence(at.block, body_stop, std::move(entry), false, at.index);
    if (s.open) {
      if (s.stack.size() != base.size()) fail(at.block, "match statement: a case body leaves values on the stack");
      open = true;
    }
    if (s.stmts.empty()) s.stmts.push_back(ast::pass());
    return std::move(s.stmts);
  };
  for (Case& c : cases) out_cases.push_back(ast::match_case(c.shape.pattern, body_of(c.body, c.loaded), c.guard));
  if (default_start) out_cases.push_back(ast::match_case(ast::wildcard(), body_of(*default_start, std::nullopt)));
  // 3.10+ copies the implicit `return None` at the end of the code (and 3.12+
  // a small block before it) into each case that goes on to it: the same
  // statements ending every case are the code after the match.
  ast::StmtList after_match;
  auto text = [](const ast::StmtPtr& st) { return unparse(ast::StmtList{st}); };
  auto is_return_none = [](const ast::StmtPtr& st) {
    auto* r = st->as<ast::Return>();
    if (!r) return false;
    if (!r->value) return true;
    auto* c = r->value->as<ast::Constant>();
    return c && c->value && c->value->is<NoneValue>();
  };
  auto strip = [&](std::size_t n) {
    for (ast::MatchCase& c : out_cases) {
      c.body.resize(c.body.size() - n);
      if (c.body.empty()) c.body.push_back(ast::pass());
    }
  };
  if (resume && !open) {
    // (Or the code after the match, where its last pattern fails, is that
    // small exit: each case that ends with it went on to it.)
    std::vector<BlockId> exit_blocks;
    ast::StmtList tail;
    if (exit_code(graph_, *resume, exit_blocks) &&
        std::all_of(exit_blocks.begin(), exit_blocks.end(), [&](BlockId x) { return x == resume->block; })) {
      try {
        lift::BlockEffect eff =
            lifter_.run(graph_, resume->block, base, resume->index, graph_.instructions(resume->block).size());
        if (eff.term.kind == TK::Exit && !eff.stmts.empty() && eff.stmts.size() <= 2 && is_return_none(eff.stmts.back()))
          tail = std::move(eff.stmts);
      } catch (const Error&) {
      }
    }
    bool all = !tail.empty();
    for (const ast::MatchCase& c : out_cases) {
      all = all && c.body.size() >= tail.size();
      for (std::size_t k = 0; all && k < tail.size(); ++k)
        all = text(c.body[c.body.size() - tail.size() + k]) == text(tail[k]);
    }
    if (all) strip(tail.size());
  } else if (!resume && !open && out_cases.size() >= 2) {
    std::size_t common = 0;
    for (bool more = true; more && common < 2;) {
      const auto& first_body = out_cases.front().body;
      if (first_body.size() <= common) break;
      const std::string want = text(first_body[first_body.size() - 1 - common]);
      for (const ast::MatchCase& c : out_cases)
        more = more && c.body.size() > common && text(c.body[c.body.size() - 1 - common]) == want;
      if (more) ++common;
    }
    if (common > 0 && is_return_none(out_cases.front().body.back())) {
      const auto& first_body = out_cases.front().body;
      after_match.assign(first_body.end() - std::ptrdiff_t(common), first_body.end());
      strip(common);
    }
  }
  out.stmts.insert(out.stmts.end(), before.begin(), before.end());
  out.stmts.push_back(ast::match(subject, std::move(out_cases)));
  out.stmts.insert(out.stmts.end(), after_match.begin(), after_match.end());
  out.stack = base;
  if (resume) return Resume{resume->block, resume->index};
  // (Cases that go on out of the try body around the match: its exit is
  // where they meet, as with an if's arms.)
  if (open && body_stop == kNoBlock && !(!regions_.empty() && regions_.back().exit != kNoBlock))
    fail(b, "match statement: cases that go on to no common place");
  if (open && body_stop == kNoBlock) return Resume{kNoBlock, 0};
  if (!open) return Resume{kNoBlock, 0};
  return Resume{body_stop, 0};
}

// Where a match's arms (its case bodies, and what follows its last pattern)
// meet: the block after the match post-dominates it; when some arms leave
// (return, raise, break), the earliest block two arms reach.
BlockId Structurer::match_follow(BlockId b, const std::vector<BlockId>& arms, BlockId stop,
                                 const std::vector<BlockId>& own) const {
  // (Not a block of the match's own code, nor one a body starts inside: a
  // match whose cases cannot fail is post-dominated by its last body.)
  auto mine = [&](BlockId x) { return std::find(own.begin(), own.end(), x) != own.end(); };
  if (BlockId p = pdom_.idom(b); p != kNoBlock && can_merge_at(p) && !mine(p) &&
                                 (stop == kNoBlock || p == stop || pdom_.dominates(stop, p)))
    return p;
  const std::vector<BlockId>& around = handler_chain(b);
  std::unordered_map<BlockId, int> reached;
  for (BlockId arm : arms) {
    if (arm >= graph_.size()) continue;
    auto seen = block_marks();
    std::vector<BlockId> work;
    auto visit = [&](BlockId x) {
      if (x >= graph_.size() || seen[x] || !can_merge_at(x) || rpo_index_[x] == 0xffffffffu) return;
      seen[x] = true;
      work.push_back(x);
    };
    visit(arm);
    while (!work.empty()) {
      BlockId x = work.back();
      work.pop_back();
      if (x != arm) ++reached[x];
      if (x == stop) continue;
      graph_.for_each_successor(x, kFlowEdges, [&](const cfg::Edge& e) { visit(e.to); });
      if (BlockId h = handler_inside(x, around); h != kNoBlock) visit(h);
    }
  }
  BlockId best = kNoBlock;
  for (auto [x, n] : reached)
    if (n >= 2 && !mine(x) && (best == kNoBlock || rpo_index_[x] < rpo_index_[best])) best = x;
  return best;
}

}  // namespace unveil::structure
