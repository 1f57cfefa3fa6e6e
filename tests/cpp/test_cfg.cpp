// The control-flow graph (core/cfg) against what each interpreter's `dis` says
// (tests/fixtures/cfg, written by tools/make_cfg_fixtures.py), plus hand-built
// code objects for irreducible flow, scale and bad input.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "assembler.h"
#include "python_snippets.h"
#include "cfg/dominators.h"
#include "cfg/dump.h"
#include "cfg/flow.h"
#include "cfg/graph.h"
#include "cfg/loops.h"
#include "decode/decode.h"
#include "fixtures.h"
#include "read/marshal.h"
#include "read/pyc.h"
#include "support/error.h"

namespace unveil::cfg {
namespace {

const std::string kFixtures = std::string(UNVEIL_FIXTURES_DIR) + "/cfg/";

using testing::read_fixture;

// ---------------------------------------------------------------------------
// Expectations file (format in tools/make_cfg_fixtures.py).

struct ExpectedLoop {
  std::set<std::uint32_t> latches, body;
};

struct Expected {
  int index = -1;
  std::string name;
  std::vector<std::uint32_t> leaders;
  std::multiset<std::tuple<std::uint32_t, std::uint32_t, std::string>> edges;
  std::map<std::uint32_t, std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, bool>> handlers;
  std::map<std::uint32_t, std::uint32_t> depths;
  std::set<std::uint32_t> unreachable;
  std::map<std::uint32_t, std::string> idom, idom_normal, ipdom;
  std::map<std::uint32_t, ExpectedLoop> loops;
};

std::vector<Expected> parse_expectations(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << "cannot open " << path;
  std::vector<Expected> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string key;
    words >> key;
    if (key == "code") {
      out.emplace_back();
      words >> out.back().index >> out.back().name;
      continue;
    }
    Expected& e = out.back();
    std::uint32_t a = 0, b = 0, c = 0, d = 0, f = 0;
    std::string s;
    if (key == "leaders") {
      while (words >> a) e.leaders.push_back(a);
    } else if (key == "edge") {
      words >> a >> b >> s;
      e.edges.emplace(a, b, s);
    } else if (key == "handler") {
      words >> a >> b >> c >> d >> f;
      e.handlers[a] = {b, c, d, f != 0};
    } else if (key == "entry_depth") {
      words >> a >> b;
      e.depths[a] = b;
    } else if (key == "unreachable") {
      words >> a;
      e.unreachable.insert(a);
    } else if (key == "idom" || key == "idom_normal" || key == "ipdom") {
      words >> a >> s;
      (key == "idom" ? e.idom : key == "idom_normal" ? e.idom_normal : e.ipdom)[a] = s;
    } else if (key == "loop") {
      words >> a >> s;  // "latches"
      ExpectedLoop& loop = e.loops[a];
      std::set<std::uint32_t>* into = &loop.latches;
      while (words >> s) {
        if (s == "body") {
          into = &loop.body;
        } else {
          into->insert(static_cast<std::uint32_t>(std::stoul(s)));
        }
      }
    } else if (key != "end") {
      ADD_FAILURE() << "unknown line in " << path << ": " << line;
    }
  }
  return out;
}

void collect_code(const std::shared_ptr<const CodeObject>& code,
                  std::vector<std::shared_ptr<const CodeObject>>& out) {
  out.push_back(code);
  for (const ObjectRef& c : code->consts) {
    if (const auto* v = c->as<CodeValue>()) collect_code(v->code, out);
  }
}

// ---------------------------------------------------------------------------
// Graph -> the same vocabulary (blocks named by start offset).

std::string name_of(const Graph& g, BlockId id, BlockId exit = kNoBlock) {
  if (id == kNoBlock) return "-";
  if (id == exit) return "exit";
  return std::to_string(g.block(id).begin);
}

std::map<std::uint32_t, std::string> idoms(const Graph& g, const DominatorTree& t) {
  std::map<std::uint32_t, std::string> out;
  for (const Block& b : g.blocks()) {
    if (t.contains(b.id)) out[b.begin] = name_of(g, t.idom(b.id), t.virtual_exit());
  }
  return out;
}

// Brute-force dominance frontier from its definition: y is in DF(x) when x
// dominates a predecessor of y (in the tree's direction) but not strictly y.
std::vector<std::set<BlockId>> frontier_by_definition(const Graph& g, const DominatorTree& t) {
  std::vector<std::set<BlockId>> df(t.node_count());
  auto visit = [&](BlockId y, BlockId pred) {
    if (!t.contains(pred)) return;
    for (BlockId x = 0; x < g.size(); ++x) {
      if (t.dominates(x, pred) && !t.strictly_dominates(x, y)) df[x].insert(y);
    }
  };
  for (const Block& y : g.blocks()) {
    if (!t.contains(y.id)) continue;
    if (t.is_post()) {
      g.for_each_successor(y.id, t.filter(), [&](const Edge& e) { visit(y.id, e.to); });
    } else {
      g.for_each_predecessor(y.id, t.filter(), [&](const Edge& e) { visit(y.id, e.from); });
    }
  }
  return df;
}

// The largest depth compile.c's stackdepth() reaches (co_stacksize) from our
// entry depths, with our stack-effect table.
std::uint32_t max_depth(const Graph& g) {
  std::int64_t top = 0;
  for (const Block& b : g.blocks()) {
    if (!b.entry_depth) continue;
    std::int64_t depth = *b.entry_depth;
    for (const Instruction& ins : g.instructions(b.id)) {
      const auto nojump = block_stack_effect(ins.name(), ins.arg, false);
      const auto jump = block_stack_effect(ins.name(), ins.arg, true);
      EXPECT_TRUE(nojump && jump) << ins.name();
      if (!nojump || !jump) return 0;
      top = std::max(top, depth + *nojump);
      if (ins.jump_target) top = std::max(top, depth + *jump);
      depth += *nojump;
    }
  }
  return static_cast<std::uint32_t>(top);
}

void check_code(const DecodedCode& code, const Expected& want) {
  SCOPED_TRACE("code object " + std::to_string(want.index) + " " + want.name);
  ASSERT_EQ(code.code->name, want.name);
  const Graph g = build_graph(code);

  std::vector<std::uint32_t> leaders;
  for (const Block& b : g.blocks()) leaders.push_back(b.begin);
  EXPECT_EQ(leaders, want.leaders);

  std::multiset<std::tuple<std::uint32_t, std::uint32_t, std::string>> edges;
  for (const Edge& e : g.edges()) {
    edges.emplace(g.block(e.from).begin, g.block(e.to).begin, std::string(edge_kind_name(e.kind)));
  }
  EXPECT_EQ(edges, want.edges);

  std::map<std::uint32_t, std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, bool>> handlers;
  std::map<std::uint32_t, std::uint32_t> depths;
  std::set<std::uint32_t> unreachable;
  for (const Block& b : g.blocks()) {
    if (b.handler) {
      handlers[b.begin] = {g.block(b.handler->block).begin, b.handler->depth, b.handler->pushed,
                           b.handler->lasti};
      EXPECT_TRUE(g.block(b.handler->block).is_handler);
    }
    if (b.entry_depth) depths[b.begin] = *b.entry_depth;
    if (!b.reachable) unreachable.insert(b.begin);
  }
  EXPECT_EQ(handlers, want.handlers);
  EXPECT_EQ(depths, want.depths);
  EXPECT_EQ(unreachable, want.unreachable);
  // `reachable` is reachability along every edge (post-dominators take it as that).
  std::vector<bool> seen(g.size(), false);
  std::vector<BlockId> work{g.entry()};
  seen[g.entry()] = true;
  while (!work.empty()) {
    const BlockId b = work.back();
    work.pop_back();
    g.for_each_successor(b, EdgeFilter::all(), [&](const Edge& e) {
      if (!seen[e.to]) {
        seen[e.to] = true;
        work.push_back(e.to);
      }
    });
  }
  for (const Block& b : g.blocks()) EXPECT_EQ(b.reachable, seen[b.id]) << b.begin;
  if (!code.traits->has_exception_table()) {
    EXPECT_EQ(max_depth(g), static_cast<std::uint32_t>(code.code->stacksize));
  }

  const auto dom = DominatorTree::dominators(g);
  EXPECT_EQ(idoms(g, dom), want.idom);
  EXPECT_EQ(idoms(g, DominatorTree::dominators(g, EdgeFilter::normal())), want.idom_normal);
  const auto pdom = DominatorTree::post_dominators(g);
  if (!want.ipdom.empty()) {
    EXPECT_EQ(idoms(g, pdom), want.ipdom);
    EXPECT_TRUE(pdom.forced_exits().empty());
  }
  // Every reachable block has a post-dominator, forced or not.
  for (const Block& b : g.blocks()) {
    if (b.reachable) {
      EXPECT_TRUE(pdom.contains(b.id)) << b.begin;
    }
  }

  // Frontiers: the CHK walk against the definition, both directions.
  for (const DominatorTree* t : {&dom, &pdom}) {
    const auto fast = t->frontiers();
    const auto slow = frontier_by_definition(g, *t);
    for (BlockId b = 0; b < g.size(); ++b) {
      EXPECT_EQ(std::set<BlockId>(fast[b].begin(), fast[b].end()), slow[b])
          << "frontier of " << g.block(b).begin << (t->is_post() ? " (post)" : "");
    }
  }

  const LoopForest loops = LoopForest::find(g, dom);
  EXPECT_TRUE(loops.reducible());
  std::map<std::uint32_t, ExpectedLoop> found;
  for (LoopId l = 0; l < loops.loops().size(); ++l) {
    const Loop& loop = loops.loop(l);
    ExpectedLoop& e = found[g.block(loop.header).begin];
    for (BlockId b : loop.latches) e.latches.insert(g.block(b).begin);
    for (BlockId b : loops.body(l)) {
      e.body.insert(g.block(b).begin);
      EXPECT_TRUE(loops.contains(l, b));
      EXPECT_TRUE(dom.dominates(loop.header, b));
    }
    if (loop.parent != kNoLoop) {
      EXPECT_TRUE(loops.contains(loop.parent, loop.header));
      EXPECT_EQ(loop.depth, loops.loop(loop.parent).depth + 1);
    }
    for (std::uint32_t e : loops.exits(g, l)) EXPECT_FALSE(loops.contains(l, g.edge(e).to));
  }
  EXPECT_EQ(found.size(), want.loops.size());
  for (const auto& [header, loop] : want.loops) {
    SCOPED_TRACE("loop at " + std::to_string(header));
    ASSERT_TRUE(found.count(header));
    EXPECT_EQ(found[header].latches, loop.latches);
    EXPECT_EQ(found[header].body, loop.body);
  }

  const std::string text = dump_graph(g, DumpOptions{true, true, true, true});
  EXPECT_NE(text.find("B0 [0,"), std::string::npos);
}

class CfgVersions : public ::testing::TestWithParam<int> {};

TEST_P(CfgVersions, MatchesDis) {
  const int minor = GetParam();
  const std::string tag = "3" + std::to_string(minor);
  const auto bytes = read_fixture(kFixtures + "cfg_" + tag + ".pyc");
  const PycFile pyc = read_pyc(bytes);
  ASSERT_EQ(pyc.header.version->minor, minor);
  std::vector<std::shared_ptr<const CodeObject>> codes;
  collect_code(pyc.module->as<CodeValue>()->code, codes);
  const auto want = parse_expectations(kFixtures + "cfg_" + tag + ".txt");
  ASSERT_EQ(codes.size(), want.size());
  ASSERT_GE(codes.size(), 30u);
  for (std::size_t i = 0; i < codes.size(); ++i) {
    const DecodedCode code = decode(codes[i], *pyc.header.version);
    check_code(code, want[i]);
  }
}

INSTANTIATE_TEST_SUITE_P(AllPythons, CfgVersions, ::testing::Values(8, 9, 10, 11, 12, 13),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return "py3" + std::to_string(info.param);
                         });

// The versions whose handlers come from the block stack need stack depths.
class CfgBlockStack : public ::testing::TestWithParam<int> {};

TEST_P(CfgBlockStack, StackEffectsMatchDis) {
  const int minor = GetParam();
  const std::string path = kFixtures + "stack_effects_3" + std::to_string(minor) + ".txt";
  ASSERT_FALSE(find_version(minor)->has_exception_table());
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  std::string line;
  int checked = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string name;
    std::uint32_t arg = 0;
    std::int64_t nojump = 0, jump = 0;
    words >> name >> arg >> nojump >> jump;
    const auto ours_nojump = block_stack_effect(name, arg, false);
    const auto ours_jump = block_stack_effect(name, arg, true);
    ASSERT_TRUE(ours_nojump && ours_jump) << name;
    EXPECT_EQ(*ours_nojump, nojump) << name << " " << arg;
    EXPECT_EQ(*ours_jump, jump) << name << " " << arg << " (jump)";
    ++checked;
  }
  EXPECT_GT(checked, 500);
}

INSTANTIATE_TEST_SUITE_P(AllPythons, CfgBlockStack, ::testing::Values(8, 9, 10),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return "py3" + std::to_string(info.param);
                         });

// 3.8 enters the cleanup of `except E as name:` both by an exception inside the
// handler (block stack: two except-handler entries) and, for a `return` in
// it, by CALL_FINALLY after POP_EXCEPT (block stack: the call's entry alone).
// Both install the same handlers; the graph builds, and the cleanup's
// END_FINALLY only re-raises or returns to the call (no fall-through).
TEST(CfgBlockStack38, ExceptAsNameWithReturn) {
  const auto data = testing::marshal_snippet(
      "3.8.18", "def f(s):\n    try:\n        s()\n    except OSError as why:\n        s(why)\n"
                "        return\n    s(1)\n");
  if (data.empty()) GTEST_SKIP() << "no Python 3.8";
  const VersionTraits& v = *find_version(8);
  std::vector<std::shared_ptr<const CodeObject>> codes;
  collect_code(read_marshal(data, v)->as<CodeValue>()->code, codes);
  ASSERT_EQ(codes.size(), 2u);
  const DecodedCode code = decode(codes[1], v);
  const Graph g = build_graph(code);
  int end_finally = 0;
  for (const Block& b : g.blocks()) {
    if (!b.reachable || g.last_instruction(b.id).name() != "END_FINALLY") continue;
    ++end_finally;
    g.for_each_successor(b.id, EdgeFilter::all(), [&](const Edge& e) {
      EXPECT_EQ(e.kind, EdgeKind::Exception) << "END_FINALLY at " << b.begin;
    });
  }
  EXPECT_EQ(end_finally, 2);  // the cleanup's and the one ending `except` matching
}

// 3.11+: every net effect against the interpreter's own dis.stack_effect (no
// fixture: the pyenv Python is asked directly), and 3.14's against the popped
// and pushed counts of its generated metadata (shared/reference), where ours
// may pop less (a lower bound: only what the instruction itself needs).
struct DisEffect {
  std::string name;
  std::uint32_t arg = 0;
  std::int64_t nojump = 0, jump = 0, popped = -1;  // popped: 3.14 only
};

// Runs `script` (written to a temporary file) with `python`, then `args`.
std::vector<DisEffect> ask_python(const std::string& python, const std::string& script,
                                  const std::string& args = "") {
  const auto dir = std::filesystem::temp_directory_path();
  const std::string stem = "unveil_effects_" + std::to_string(::getpid());
  const std::string src = (dir / (stem + ".py")).string(), out = (dir / (stem + ".txt")).string();
  std::ofstream(src) << script;
  std::vector<DisEffect> effects;
  if (std::system((python + " " + src + " " + args + " > " + out).c_str()) == 0) {
    std::ifstream in(out);
    DisEffect e;
    while (in >> e.name >> e.arg >> e.nojump >> e.jump >> e.popped) effects.push_back(e);
  }
  std::filesystem::remove(src);
  std::filesystem::remove(out);
  return effects;
}

constexpr const char* kDisEffects = R"(import dis
has_arg = set(getattr(dis, "hasarg", range(dis.HAVE_ARGUMENT, 256)))
for name, op in dis.opmap.items():
    if op >= 256 or name.startswith("INSTRUMENTED_"):
        continue
    for a in (0, 1, 2, 3, 4, 5, 8, 255, 256, 258, 0x1ff) if op in has_arg else (0,):
        arg = a if op in has_arg else None
        try:
            print(name, a, dis.stack_effect(op, arg, jump=False), dis.stack_effect(op, arg, jump=True), -1)
        except ValueError:
            pass
)";

constexpr const char* kJsonEffects = R"(import json, sys
table = json.load(open(sys.argv[1]))["stack_effect"]
for name, e in table.items():
    for a in (0, 1, 2, 3, 4, 5, 8, 255, 256, 258, 0x1ff):
        popped, pushed = eval(e["popped"], {"oparg": a}), eval(e["pushed"], {"oparg": a})
        print(name, a, pushed - popped, pushed - popped, popped)
)";

class CfgTableEffects : public ::testing::TestWithParam<int> {};

TEST_P(CfgTableEffects, MatchTheInterpreter) {
  const int minor = GetParam();
  const VersionTraits& v = *find_version(minor);
  std::vector<DisEffect> effects;
  if (minor == 14) {
    const std::string json = std::string(UNVEIL_FIXTURES_DIR) +
                             "/../../../shared/reference/opcodes/opcodes_314.json";
    if (!std::filesystem::exists(json)) GTEST_SKIP() << json << " is missing";
    effects = ask_python("python3", kJsonEffects, json);
  } else {
    const std::string python = testing::pyenv_python(minor == 11   ? "3.11.7"
                                                     : minor == 12 ? "3.12.1"
                                                                   : "3.13.0");
    if (!std::filesystem::exists(python)) GTEST_SKIP() << python << " is missing";
    effects = ask_python(python, kDisEffects);
  }
  std::set<std::string> names;
  for (int op = 0; op < 256; ++op) {
    if (v.op(static_cast<std::uint8_t>(op)).known()) names.insert(std::string(v.op(op).name));
  }
  int checked = 0;
  for (const DisEffect& e : effects) {
    // Only real opcodes of this version; after an exit nothing reads the stack.
    if (!names.count(e.name) || flow_of(e.name).flow == Flow::Exit) continue;
    SCOPED_TRACE("3." + std::to_string(minor) + " " + e.name + " " + std::to_string(e.arg));
    const auto ours = table_stack_effect(e.name, minor, e.arg);
    if (e.name == "ENTER_EXECUTOR") {
      EXPECT_FALSE(ours) << "never in co_code";
      continue;
    }
    ASSERT_TRUE(ours);
    // The frame resumes after RETURN_GENERATOR with the sent value pushed
    // (stack_effect.cpp); 3.11-3.12's dis counts 0.
    const std::int64_t fix = e.name == "RETURN_GENERATOR" && minor < 13 ? 1 : 0;
    EXPECT_EQ(ours->pushed - ours->popped, e.nojump + fix);
    EXPECT_EQ(ours->pushed_on_jump - ours->popped, e.jump + fix) << "(jump)";
    if (e.popped >= 0) {
      EXPECT_LE(ours->popped, e.popped);
    }
    ++checked;
  }
  EXPECT_GT(checked, 300);
}

// Every opcode of a 3.11+ table has an effect, but the ones that never appear in
// co_code (the interpreter's instrumented copies and ENTER_EXECUTOR).
TEST_P(CfgTableEffects, EveryOpcodeHasOne) {
  const VersionTraits& v = *find_version(GetParam());
  for (int op = 0; op < 256; ++op) {
    const OpcodeInfo& info = v.op(static_cast<std::uint8_t>(op));
    if (!info.known() || info.name.starts_with("INSTRUMENTED_") || info.name == "ENTER_EXECUTOR") {
      continue;
    }
    EXPECT_TRUE(table_stack_effect(info.name, v.minor, info.has_arg() ? 1 : 0)) << info.name;
  }
}

INSTANTIATE_TEST_SUITE_P(AllPythons, CfgTableEffects, ::testing::Values(11, 12, 13, 14),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return "py3" + std::to_string(info.param);
                         });

// Every opcode that carries a jump in any version's table has a flow class.
TEST(CfgFlow, EveryJumpOpcodeIsClassified) {
  for (const VersionTraits* v : all_versions()) {
    for (const OpcodeInfo& op : v->opcodes) {
      if (!op.known() || op.jump == JumpKind::None) continue;
      const FlowInfo f = flow_of(op.name);
      const bool moves = f.flow == Flow::Jump || f.flow == Flow::Branch || f.flow == Flow::Setup ||
                         f.flow == Flow::CallFinally;
      EXPECT_TRUE(moves || f.jump_is_annotation) << "3." << v->minor << " " << op.name;
    }
  }
  EXPECT_EQ(flow_of("RETURN_VALUE").flow, Flow::Exit);
  EXPECT_EQ(flow_of("END_FINALLY").flow, Flow::EndFinally);
  EXPECT_EQ(flow_of("LOAD_FAST").flow, Flow::Normal);
  EXPECT_FALSE(flow_listed("LOAD_FAST"));
}

// ---------------------------------------------------------------------------
// Hand-assembled code objects (tests/cpp/assembler.h).

using testing::Assembler;

bool throws_decode_error(const DecodedCode& code, std::uint32_t offset) {
  try {
    build_graph(code);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Decode) << e.what();
    EXPECT_EQ(e.offset(), std::optional<std::size_t>(offset)) << e.what();
    return true;
  }
  return false;
}

// `if not x: goto target`, each optionally at a label: the 3.12 tests the
// synthetic graphs below are made of.
constexpr int kNoLabel = -1;
struct TestStep {
  int at;  // the label bound to the LOAD_FAST, or kNoLabel
  int target;
};
void emit_tests(Assembler& a, std::initializer_list<TestStep> steps) {
  for (const TestStep& step : steps) {
    if (step.at != kNoLabel) a.bind(step.at);
    a.op("LOAD_FAST", 0);
    a.jump("POP_JUMP_IF_FALSE", step.target);
  }
}

// uses(op): the opcodes of the code, EXTENDED_ARG not counted.
TEST(CfgSynthetic, UsesListsTheCodesOpcodes) {
  Assembler a(12);
  const int out = a.label();
  a.op("LOAD_FAST", 300);  // an EXTENDED_ARG prefix
  a.jump("POP_JUMP_IF_FALSE", out);
  a.op("RETURN_CONST", 0);
  a.bind(out);
  a.op("RETURN_CONST", 0);
  const DecodedCode code = a.decoded();
  const Graph g = build_graph(code);
  EXPECT_TRUE(g.uses(Op::LOAD_FAST));
  EXPECT_TRUE(g.uses(Op::POP_JUMP_IF_FALSE));
  EXPECT_TRUE(g.uses(Op::RETURN_CONST));
  EXPECT_FALSE(g.uses(Op::EXTENDED_ARG));
  EXPECT_FALSE(g.uses(Op::GET_ANEXT));
  EXPECT_FALSE(g.uses(Op::STORE_FAST));
}

// entry ─┬─> A ⇄ B <─┬ (two entries into the A/B cycle: neither dominates the other)
TEST(CfgSynthetic, IrreducibleCycleIsReported) {
  Assembler a(12);
  const int la = a.label(), lb = a.label(), out1 = a.label(), out2 = a.label();
  emit_tests(a, {{kNoLabel, lb}, {la, out1}, {lb, out2}});
  a.jump("JUMP_BACKWARD", la);
  for (int out : {out1, out2}) {
    a.bind(out);
    a.op("RETURN_CONST", 0);
  }
  const DecodedCode code = a.decoded();
  const Graph g = build_graph(code);
  const auto dom = DominatorTree::dominators(g);
  const LoopForest loops = LoopForest::find(g, dom);

  const BlockId A = *g.block_containing(4), B = *g.block_containing(8);
  EXPECT_EQ(dom.idom(A), 0u);
  EXPECT_EQ(dom.idom(B), 0u);
  EXPECT_FALSE(loops.reducible());
  ASSERT_EQ(loops.irreducible().size(), 1u);
  const IrreducibleRegion& r = loops.irreducible()[0];
  std::set<BlockId> blocks(r.blocks.begin(), r.blocks.end());
  EXPECT_TRUE(blocks.count(A) && blocks.count(B));
  EXPECT_EQ(r.entries, (std::vector<BlockId>{A, B}));
  EXPECT_TRUE(loops.loops().empty()) << "the retreating edge is not a back edge";
  EXPECT_NE(dump_graph(g).find("irreducible:"), std::string::npos);
}

// A natural loop with an irreducible region nested in it stays a loop.
TEST(CfgSynthetic, IrreducibleInsideLoop) {
  Assembler a(12);
  const int head = a.label(), la = a.label(), lb = a.label(), done = a.label(), next = a.label();
  emit_tests(a, {{head, done}, {kNoLabel, lb}, {la, next}, {lb, next}});
  a.jump("JUMP_BACKWARD", la);
  a.bind(next);
  a.jump("JUMP_BACKWARD", head);
  a.bind(done);
  a.op("RETURN_CONST", 0);
  const DecodedCode code = a.decoded();
  const Graph g = build_graph(code);
  const auto dom = DominatorTree::dominators(g);
  const LoopForest loops = LoopForest::find(g, dom);
  ASSERT_EQ(loops.loops().size(), 1u);
  EXPECT_EQ(loops.loop(0).header, 0u);
  ASSERT_EQ(loops.irreducible().size(), 1u);
  for (BlockId b : loops.irreducible()[0].blocks) EXPECT_TRUE(loops.contains(0, b));
}

// 100k blocks in a chain of diamonds, a 100k-deep dominator tree: everything
// must stay iterative and about linear.
TEST(CfgSynthetic, HundredThousandBlocks) {
  Assembler a(12);
  constexpr int kDiamonds = 50000;  // 2 blocks each (the join starts the next test)
  for (int i = 0; i < kDiamonds; ++i) {
    const int join = a.label();
    a.op("LOAD_FAST", 0);
    a.jump("POP_JUMP_IF_FALSE", join);
    a.op("NOP");
    a.bind(join);
    a.op("NOP");
  }
  a.op("RETURN_CONST", 0);
  const DecodedCode code = a.decoded();
  // No timing here (timings live in bench/); a quadratic step or a recursion
  // shows up as a test that never ends or a stack overflow.
  const Graph g = build_graph(code);
  ASSERT_GE(g.size(), 100000u);
  const auto dom = DominatorTree::dominators(g);
  const auto pdom = DominatorTree::post_dominators(g);
  const LoopForest loops = LoopForest::find(g, dom);
  const auto df = dom.frontiers();
  EXPECT_FALSE(dump_graph(g).empty());
  EXPECT_TRUE(loops.loops().empty());
  const BlockId last = static_cast<BlockId>(g.size() - 1);
  EXPECT_TRUE(dom.dominates(0, last));
  EXPECT_EQ(dom.idom(last), last - 2);  // the last test, not the skipped NOP
  EXPECT_EQ(pdom.idom(0), 2u);  // the first join
  EXPECT_EQ(df[1], (std::vector<BlockId>{2}));
  EXPECT_EQ(reverse_post_order(g).size(), g.size());
}

// 3000 loops nested in each other: the nesting forest must not be quadratic
// and nothing may recurse.
TEST(CfgSynthetic, DeeplyNestedLoops) {
  Assembler a(12);
  constexpr int kDepth = 3000;
  std::vector<int> heads(kDepth), exits(kDepth);
  for (int i = 0; i < kDepth; ++i) {
    heads[i] = a.label();
    exits[i] = a.label();
    a.bind(heads[i]);
    a.op("LOAD_FAST", 0);
    a.jump("POP_JUMP_IF_FALSE", exits[i]);
  }
  a.jump("JUMP_BACKWARD", heads[kDepth - 1]);
  for (int i = kDepth - 1; i >= 1; --i) {
    a.bind(exits[i]);
    a.jump("JUMP_BACKWARD", heads[i - 1]);
  }
  a.bind(exits[0]);
  a.op("RETURN_CONST", 0);
  const DecodedCode code = a.decoded();
  const Graph g = build_graph(code);
  const auto dom = DominatorTree::dominators(g);
  const LoopForest loops = LoopForest::find(g, dom);
  ASSERT_EQ(loops.loops().size(), static_cast<std::size_t>(kDepth));
  EXPECT_TRUE(loops.reducible());
  LoopId inner = 0;
  for (LoopId l = 0; l < loops.loops().size(); ++l) {
    if (loops.loop(l).depth > loops.loop(inner).depth) inner = l;
  }
  EXPECT_EQ(loops.loop(inner).depth, static_cast<std::uint32_t>(kDepth));
  EXPECT_EQ(loops.innermost(loops.loop(inner).header), inner);
  EXPECT_EQ(loops.loop(0).depth, 1u);
  EXPECT_EQ(loops.loop(0).children, (std::vector<LoopId>{1}));
  EXPECT_TRUE(loops.contains(0, loops.loop(inner).header));
  EXPECT_EQ(loops.exits(g, inner).size(), 1u);
}

// An infinite loop has no exit: post-dominators link it to the virtual exit.
TEST(CfgSynthetic, InfiniteLoopGetsPostDominators) {
  Assembler a(12);
  const int top = a.label();
  a.op("NOP");
  a.bind(top);
  a.op("NOP");
  a.jump("JUMP_BACKWARD", top);
  const DecodedCode code = a.decoded();
  const Graph g = build_graph(code);
  const auto pdom = DominatorTree::post_dominators(g);
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(pdom.forced_exits().size(), 1u);
  EXPECT_TRUE(pdom.contains(0) && pdom.contains(1));
  EXPECT_EQ(pdom.idom(0), 1u);
  EXPECT_EQ(pdom.idom(1), pdom.virtual_exit());
}

// A graph of one block has a tree of one node (dominators build it directly).
TEST(CfgSynthetic, SingleBlockTrees) {
  for (const bool loops_to_itself : {false, true}) {
    SCOPED_TRACE(loops_to_itself ? "jumps to itself" : "returns");
    Assembler a(12);
    const int top = a.label();
    a.bind(top);
    a.op("NOP");
    if (loops_to_itself) {
      a.jump("JUMP_BACKWARD", top);
    } else {
      a.op("LOAD_FAST", 0);
      a.op("RETURN_VALUE");
    }
    const DecodedCode code = a.decoded();
    const Graph g = build_graph(code);
    ASSERT_EQ(g.size(), 1u);
    for (const EdgeFilter filter : {EdgeFilter::all(), EdgeFilter::normal(), EdgeFilter()}) {
      const auto dom = DominatorTree::dominators(g, filter);
      const bool self = loops_to_itself && filter.accepts(EdgeKind::Jump);
      EXPECT_EQ(dom.node_count(), 1u);
      EXPECT_EQ(dom.root(), 0u);
      EXPECT_FALSE(dom.is_post());
      EXPECT_TRUE(dom.contains(0) && dom.dominates(0, 0) && !dom.strictly_dominates(0, 0));
      EXPECT_EQ(dom.idom(0), kNoBlock);
      EXPECT_TRUE(dom.children(0).empty());
      EXPECT_EQ(std::vector<BlockId>(dom.order().begin(), dom.order().end()), std::vector<BlockId>{0});
      EXPECT_TRUE(dom.forced_exits().empty());
      const auto df = dom.frontiers();
      ASSERT_EQ(df.size(), 1u);
      EXPECT_EQ(df[0], self ? std::vector<BlockId>{0} : std::vector<BlockId>{});
      const LoopForest loops = LoopForest::find(g, dom);
      ASSERT_EQ(loops.loops().size(), self ? 1u : 0u);
      if (self) {
        EXPECT_EQ(loops.loop(0).header, 0u);
        EXPECT_EQ(loops.loop(0).latches, std::vector<BlockId>{0});
      }
    }
  }
}

// EXTENDED_ARG prefixes belong to the block of the instruction they prefix.
TEST(CfgSynthetic, ExtendedArgStaysWithItsInstruction) {
  Assembler a(12);
  const int far = a.label();
  a.op("LOAD_FAST", 0);
  a.jump("POP_JUMP_IF_FALSE", far);  // 300 units away: prefixed too
  for (int i = 0; i < 300; ++i) a.op("NOP");
  a.bind(far);
  a.op("LOAD_FAST", 300);  // prefixed: the jump lands on its EXTENDED_ARG
  a.op("RETURN_VALUE");
  const DecodedCode code = a.decoded();
  const Graph g = build_graph(code);
  ASSERT_EQ(g.size(), 3u);
  const std::uint8_t ext = code.traits->extended_arg;
  EXPECT_EQ(g.instructions(0).size(), 3u);  // LOAD_FAST, EXTENDED_ARG, POP_JUMP_IF_FALSE
  EXPECT_EQ(g.instructions(0)[1].opcode, ext);
  const Block& target = g.block(2);
  EXPECT_EQ(code.instructions[target.first].opcode, ext);
  EXPECT_EQ(g.last_instruction(0).jump_target, std::optional<std::uint32_t>(target.begin));
  EXPECT_EQ(g.instructions(2).size(), 3u);  // EXTENDED_ARG, LOAD_FAST, RETURN_VALUE
  ASSERT_EQ(g.block(0).succs.size(), 2u);
  EXPECT_EQ(g.edge(g.block(0).succs[0]), (Edge{0, 1, EdgeKind::FallThrough}));
  EXPECT_EQ(g.edge(g.block(0).succs[1]), (Edge{0, 2, EdgeKind::Branch}));
  EXPECT_EQ(g.block_at(target.begin), std::optional<BlockId>(2));
  EXPECT_EQ(g.block_at(target.begin + 2), std::nullopt);
  EXPECT_EQ(g.block_containing(target.begin + 2), std::optional<BlockId>(2));
  EXPECT_EQ(g.block_containing(target.end), std::nullopt);
}

// A 3.11+ range that starts or ends inside a block splits it.
TEST(CfgSynthetic, TableRangesSplitBlocks) {
  Assembler a(12);
  const int s = a.label(), e = a.label(), h = a.label();
  a.op("NOP");
  a.bind(s);
  a.op("LOAD_FAST", 0);
  a.op("POP_TOP");
  a.bind(e);
  a.op("RETURN_CONST", 0);
  a.bind(h);
  a.op("PUSH_EXC_INFO");
  a.op("RERAISE", 0);
  a.handler(s, e, h, 0, true);
  const DecodedCode code = a.decoded();
  const Graph g = build_graph(code);
  ASSERT_EQ(g.size(), 4u);
  EXPECT_FALSE(g.block(0).handler);
  ASSERT_TRUE(g.block(1).handler);
  EXPECT_EQ(*g.block(1).handler, (Handler{3, 0, true, 2}));
  EXPECT_EQ(g.block(1).handler->entry_depth(), 2u);
  EXPECT_FALSE(g.block(2).handler);
  EXPECT_TRUE(g.block(3).is_handler);
  EXPECT_TRUE(g.block(3).reachable);
  const auto normal = DominatorTree::dominators(g, EdgeFilter::normal());
  EXPECT_FALSE(normal.contains(3)) << "handlers are unreachable without exception edges";
}

TEST(CfgBadInput, OverlappingTableEntries) {
  Assembler a(12);
  const int s = a.label(), m = a.label(), e = a.label(), h = a.label();
  a.bind(s);
  a.op("NOP");
  a.bind(m);
  a.op("NOP");
  a.bind(e);
  a.op("RETURN_CONST", 0);
  a.bind(h);
  a.op("RERAISE", 0);
  a.handler(s, e, h, 0);
  a.handler(m, h, h, 1);
  EXPECT_TRUE(throws_decode_error(a.decoded(), 2));
}

TEST(CfgBadInput, FallingOffTheEnd) {
  Assembler a(12);
  a.op("NOP");
  a.op("LOAD_FAST", 0);
  EXPECT_TRUE(throws_decode_error(a.decoded(), 2));
}

TEST(CfgBadInput, JumpWithoutTarget) {
  Assembler a(12);
  const int l = a.label();
  a.jump("JUMP_FORWARD", l);
  a.bind(l);
  a.op("RETURN_CONST", 0);
  DecodedCode code = a.decoded();
  code.instructions[0].jump_target.reset();  // as a broken decoder might leave it
  EXPECT_TRUE(throws_decode_error(code, 0));
}

TEST(CfgBadInput, PopBlockWithoutSetup) {
  Assembler a(9);
  a.op("POP_BLOCK");
  a.op("LOAD_CONST", 0);
  a.op("RETURN_VALUE");
  EXPECT_TRUE(throws_decode_error(a.decoded(), 0));
}

TEST(CfgBadInput, PopExceptOutsideHandler) {
  Assembler a(10);
  a.op("POP_EXCEPT");
  a.op("LOAD_CONST", 0);
  a.op("RETURN_VALUE");
  EXPECT_TRUE(throws_decode_error(a.decoded(), 0));
}

TEST(CfgBadInput, StackDepthDiffersAtMerge) {
  Assembler a(9);
  const int join = a.label();
  a.op("LOAD_FAST", 0);
  a.jump("POP_JUMP_IF_FALSE", join);
  a.op("LOAD_CONST", 0);  // one more value on this path
  a.bind(join);
  a.op("LOAD_CONST", 0);
  a.op("RETURN_VALUE");
  EXPECT_TRUE(throws_decode_error(a.decoded(), 6));
}

TEST(CfgBadInput, HandlerDiffersAtMerge) {
  Assembler a(10);
  const int join = a.label(), handler = a.label();
  a.op("LOAD_FAST", 0);
  a.jump("POP_JUMP_IF_FALSE", join);
  a.jump("SETUP_FINALLY", handler);  // only this path is protected
  a.bind(join);
  a.op("LOAD_CONST", 0);
  a.op("RETURN_VALUE");
  a.bind(handler);
  a.op("RERAISE", 0);
  EXPECT_TRUE(throws_decode_error(a.decoded(), 6));
}

TEST(CfgBadInput, BlockStackTooDeep) {
  Assembler a(9);
  std::vector<int> handlers;
  for (int i = 0; i < 21; ++i) {
    handlers.push_back(a.label());
    a.jump("SETUP_FINALLY", handlers.back());
  }
  a.op("LOAD_CONST", 0);
  a.op("RETURN_VALUE");
  for (int h : handlers) {
    a.bind(h);
    a.op("RERAISE");
  }
  EXPECT_TRUE(throws_decode_error(a.decoded(), 40));  // the 21st SETUP_FINALLY
}

TEST(CfgBadInput, StackUnderflow) {
  Assembler a(8);
  a.op("POP_TOP");
  a.op("LOAD_CONST", 0);
  a.op("RETURN_VALUE");
  EXPECT_TRUE(throws_decode_error(a.decoded(), 0));
}

// Random instruction streams: whatever decodes must either give a graph or an
// unveil::Error, never crash or hang.
TEST(CfgBadInput, RandomCodeNeverCrashes) {
  std::mt19937 rng(1234);
  int graphs = 0;
  for (const VersionTraits* v : all_versions()) {
    std::vector<std::uint8_t> known;
    for (int i = 0; i < 256; ++i) {
      if (v->op(static_cast<std::uint8_t>(i)).known() && i != v->cache) known.push_back(i);
    }
    // 3.11+ code must also keep its stack depth consistent, which random code
    // rarely does: enough rounds that every version still gives graphs.
    for (int round = 0; round < 1000; ++round) {
      auto code = std::make_shared<CodeObject>();
      code->version_minor = v->minor;
      const int n = 2 + static_cast<int>(rng() % 40);
      for (int i = 0; i < n; ++i) {
        const std::uint8_t op = known[rng() % known.size()];
        code->code += static_cast<char>(op);
        code->code += static_cast<char>(rng() % 8);
        code->code.append(2 * v->op(op).caches, '\0');
      }
      if (v->has_exception_table() && rng() % 2) {
        const std::uint32_t units = static_cast<std::uint32_t>(code->code.size() / 2);
        const std::uint32_t s = rng() % units, len = 1 + rng() % (units - s), t = rng() % units;
        for (std::uint32_t value : {s | 0x80u, len, t, static_cast<std::uint32_t>(rng() % 6)}) {
          code->exceptiontable += static_cast<char>(value & 0xbf);
        }
      }
      DecodedCode decoded;
      try {
        decoded = decode(code, *v);
      } catch (const Error&) {
        continue;
      }
      try {
        const Graph g = build_graph(decoded);
        const auto dom = DominatorTree::dominators(g);
        LoopForest::find(g, dom);
        DominatorTree::post_dominators(g).frontiers();
        dump_graph(g);
        ++graphs;
      } catch (const Error&) {
      }
    }
  }
  EXPECT_GT(graphs, 50);
}

// The hand-assembled 3.14 fixture (no 3.14 interpreter here) builds too.
TEST(CfgPy314, TryExceptFixture) {
  const auto bytes = read_fixture(std::string(UNVEIL_FIXTURES_DIR) + "/py314/try_except.pyc");
  const PycFile pyc = read_pyc(bytes);
  const DecodedCode code = decode(pyc.module->as<CodeValue>()->code, *pyc.header.version);
  const Graph g = build_graph(code);
  int protected_blocks = 0;
  for (const Block& b : g.blocks()) protected_blocks += b.handler ? 1 : 0;
  EXPECT_GE(protected_blocks, 2);
  const auto dom = DominatorTree::dominators(g);
  EXPECT_TRUE(LoopForest::find(g, dom).loops().empty());
}

}  // namespace
}  // namespace unveil::cfg
