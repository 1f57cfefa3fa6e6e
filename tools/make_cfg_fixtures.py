#!/usr/bin/env python3
"""Compile the CFG test functions with every pyenv Python 3.8-3.13 and write
what each version's `dis` says about them, for tests/cpp/test_cfg.cpp.

For each version 3.X this writes into tests/fixtures/cfg/:

  cfg_3X.pyc            the module below, compiled by that interpreter
                        (timestamp header with mtime 0, so reruns are identical)
  cfg_3X.txt            expectations for every code object in it (format below)
  stack_effects_3X.txt  (3.8-3.10) dis.stack_effect of every opcode for sample
                        opargs, to check the CFG's own table

The expectations are computed here, in Python, from the interpreter's own
`dis`: instructions, jump targets (argval), is_jump_target, the 3.11+
exception table (dis._parse_exception_table), dis.stack_effect for the
block-stack versions. The flow rules (which opnames jump, branch, exit) are
restated here as sets and checked against dis.hasjrel/hasjabs/hasjump;
dominators use the textbook set-intersection dataflow and loops the textbook
natural-loop walk, both different algorithms from the C++ ones. For 3.8-3.10
the stack depths are checked against co_stacksize, which the compiler computed
with the same rules.

Format of cfg_3X.txt, one code object per section, in preorder of co_consts:

  code <index> <co_name>
  leaders <offset>...                  block starts, ascending
  edge <from> <to> <kind>              kind: fallthrough jump branch exception call
  handler <block> <handler> <depth> <pushed> <lasti 0|1>
  entry_depth <block> <depth>          (3.8-3.10)
  unreachable <block>
  idom <block> <idom|->                dominators along all edges
  idom_normal <block> <idom|->         dominators without exception edges
  ipdom <block> <ipdom|exit>           post-dominators along all edges (omitted
                                       when some block cannot reach an exit)
  loop <header> latches <b>... body <b>...
  end

Blocks are named by their start offset.

    python3 tools/make_cfg_fixtures.py [--out tests/fixtures/cfg] [--versions 3.8,3.12]

The script runs itself under each interpreter with --worker.
"""

import argparse
import dis
import glob
import importlib.util
import marshal
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUT = os.path.join(ROOT, "tests", "fixtures", "cfg")
VERSIONS = ["3.8", "3.9", "3.10", "3.11", "3.12", "3.13"]

# ---------------------------------------------------------------------------
# The functions. Every construct the structurer must rebuild, once or twice.

SOURCE_COMMON = '''
def if_else(a):
    if a:
        x = 1
    else:
        x = 2
    return x


def if_elif_else(a, b):
    if a:
        r = 'a'
    elif b:
        r = 'b'
    else:
        r = 'c'
    return r


def bool_ops(a, b, c):
    if a and (b or c):
        return 1
    return a or b and c


def chained_compare(a, b, c):
    return a < b < c


def ternary(a, b):
    return (a if b else -a) + (1 if a and b else 2)


def while_else(n):
    while n > 0:
        n -= 1
        if n == 5:
            break
        if n % 2:
            continue
        g(n)
    else:
        n = -1
    return n


def while_true():
    i = 0
    while True:
        i += 1
        if i > 10:
            break
    return i


def while_complex(a, b):
    while a and not b or g():
        a = h(a)
    return a


def for_else(xs):
    for x in xs:
        if x:
            break
    else:
        return None
    return x


def for_continue(xs):
    total = 0
    for x in xs:
        if x < 0:
            continue
        total += x
    return total


def nested_loops(rows):
    out = []
    for row in rows:
        for cell in row:
            if cell is None:
                break
            out.append(cell)
        while out and out[-1] == 0:
            out.pop()
    return out


def try_except(a):
    try:
        g(a)
    except ValueError as e:
        h(e)
    except (TypeError, KeyError):
        return 1
    except:
        raise
    return 0


def try_except_else_finally(a):
    try:
        x = g(a)
    except ValueError:
        x = None
    else:
        x += 1
    finally:
        h()
    return x


def try_finally_return(a):
    try:
        return g(a)
    finally:
        h()


def loop_try_finally(xs):
    for x in xs:
        try:
            if x:
                break
            if xs:
                continue
            return 2
        finally:
            g()
    return 3


def finally_control(xs):
    for x in xs:
        try:
            g(x)
        finally:
            if x:
                break
    try:
        g(xs)
    finally:
        return 1


def try_in_loop(xs):
    for x in xs:
        try:
            g(x)
        except KeyError:
            continue
        except ValueError:
            break
        h(x)


def nested_try(a):
    try:
        try:
            g(a)
        finally:
            h(a)
    except Exception:
        try:
            k(a)
        except Exception:
            pass
    return a


def with_stmt(path):
    with open(path) as f:
        data = f.read()
    return data


def with_return(a, b):
    with a as x, b as y:
        if x:
            return y
        g(x, y)


async def async_with(cm):
    async with cm as c:
        await c.go()
    return c


async def async_for(src):
    out = []
    async for item in src:
        if item:
            continue
        out.append(await item)
    return out


def generator(xs):
    for x in xs:
        try:
            yield x
        except GeneratorExit:
            return
    yield from xs


def comprehension(xs):
    return [x * 2 for x in xs if x], {k: v for k, v in xs}, list(y for y in xs)


def raise_cond(a):
    if a is None:
        raise ValueError(a)
    assert a, 'no a'
    return a


def straight(a):
    global G
    G = a
    del a
    return G


def lambdas(xs):
    return sorted(xs, key=lambda x: x if x else -1)
'''

SOURCE_310 = '''

def match_stmt(cmd):
    match cmd:
        case [x, y]:
            return x + y
        case {'k': v}:
            return v
        case Point(x=0) | None:
            return 0
        case str() if cmd:
            return 1
        case _:
            return -1
'''

SOURCE_311 = '''

def except_star(a):
    try:
        g(a)
    except* ValueError:
        h()
    except* TypeError as e:
        k(e)
    return a
'''


def source_for(version_info):
    src = SOURCE_COMMON
    if version_info >= (3, 10):
        src += SOURCE_310
    if version_info >= (3, 11):
        src += SOURCE_311
    return src


# ---------------------------------------------------------------------------
# Flow rules, restated (core/cfg/flow.cpp has the C++ table).

EXIT = {"RETURN_VALUE", "RETURN_CONST", "RAISE_VARARGS", "RERAISE", "INTERPRETER_EXIT"}
JUMP = {"JUMP_FORWARD", "JUMP_ABSOLUTE", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT",
        "JUMP", "JUMP_NO_INTERRUPT"}
BRANCH = {"POP_JUMP_IF_FALSE", "POP_JUMP_IF_TRUE", "POP_JUMP_IF_NONE", "POP_JUMP_IF_NOT_NONE",
          "POP_JUMP_FORWARD_IF_FALSE", "POP_JUMP_FORWARD_IF_TRUE",
          "POP_JUMP_FORWARD_IF_NONE", "POP_JUMP_FORWARD_IF_NOT_NONE",
          "POP_JUMP_BACKWARD_IF_FALSE", "POP_JUMP_BACKWARD_IF_TRUE",
          "POP_JUMP_BACKWARD_IF_NONE", "POP_JUMP_BACKWARD_IF_NOT_NONE",
          "JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP", "JUMP_IF_NOT_EXC_MATCH",
          "FOR_ITER", "SEND"}
SETUP = {"SETUP_FINALLY", "SETUP_WITH", "SETUP_ASYNC_WITH", "SETUP_CLEANUP"}
MONITORING_ONLY_JUMPS = {"END_ASYNC_FOR"}  # 3.14; never compiled here

BY_NORMAL, BY_CALL, BY_EXCEPTION = 1, 2, 4
HANDLER_PUSHES = 6


def check_flow_sets():
    jumping = set()
    for attr in ("hasjrel", "hasjabs", "hasjump"):
        jumping |= {dis.opname[op] for op in getattr(dis, attr, [])}
    known = JUMP | BRANCH | SETUP | {"CALL_FINALLY"} | MONITORING_ONLY_JUMPS
    missing = sorted(name for name in jumping if name not in known and not name.startswith("<"))
    if missing:
        raise SystemExit("make_cfg_fixtures: no flow class for jump opcodes %s" % missing)


# ---------------------------------------------------------------------------
# Expectations for one code object.

class Block:
    def __init__(self, start):
        self.start = start
        self.instrs = []  # non-EXTENDED_ARG instructions
        self.end = None

    @property
    def last(self):
        return self.instrs[-1]


class Analysis:
    def __init__(self, co):
        self.co = co
        self.table = sys.version_info >= (3, 11)
        instrs = list(dis.get_instructions(co))
        size = len(co.co_code)
        self.ends = {}
        for i, ins in enumerate(instrs):
            self.ends[ins.offset] = instrs[i + 1].offset if i + 1 < len(instrs) else size
        # Group EXTENDED_ARG prefixes with what they prefix.
        self.groups = []  # (group start, instruction)
        start = None
        for ins in instrs:
            if ins.opname == "EXTENDED_ARG":
                if start is None:
                    start = ins.offset
                continue
            self.groups.append((ins.offset if start is None else start, ins))
            start = None
        self.size = size
        self.entries = self.close_jump_holes(dis._parse_exception_table(co)) if self.table else []
        self.dis_targets = {ins.offset for ins in instrs if ins.is_jump_target}
        self.split()
        self.edges = []
        self.handlers = {}
        self.depths = {}
        self.reachable = set()
        self.falls_off = set()
        if self.table:
            self.table_handlers()
            self.static_edges(end_finally_falls=set())
            self.reachable = self.search({self.blocks[0].start}, all_kinds=True)
        else:
            self.block_stack()
        assert not self.falls_off & self.reachable, "control falls off the end"

    def close_jump_holes(self, entries):
        """Joins two entries with the same handler when only jumps lie between them.

        3.12+ leaves instructions without a location out of the table even when
        the same handler covers both sides; a jump cannot raise, so core/cfg
        treats the hole as covered (FOR_ITER and SEND branch but can raise).
        """
        entries = sorted(entries, key=lambda e: e.start)
        merged = []
        for e in entries:
            if merged:
                prev = merged[-1]
                gap = [ins for _, ins in self.groups if prev.end <= ins.offset < e.start]
                if ((prev.target, prev.depth, prev.lasti) == (e.target, e.depth, e.lasti)
                        and all(ins.opname in JUMP | BRANCH and ins.opname not in ("FOR_ITER", "SEND")
                                for ins in gap)):
                    merged[-1] = prev._replace(end=e.end)
                    continue
            merged.append(e)
        return merged

    # -- blocks -----------------------------------------------------------

    def group_at_or_after(self, offset):
        for start, ins in self.groups:
            if ins.offset >= offset:
                return start
        return None

    def split(self):
        leaders = {0}

        def mark(offset):
            start = self.group_at_or_after(offset)
            if start is not None:
                leaders.add(start)

        for start, ins in self.groups:
            name = ins.opname
            if name in JUMP | BRANCH | SETUP or name == "CALL_FINALLY":
                mark(ins.argval)
            if name in JUMP | BRANCH | SETUP | EXIT or name in (
                    "CALL_FINALLY", "END_FINALLY", "POP_BLOCK"):
                mark(self.ends[ins.offset])
        for e in self.entries:
            mark(e.start)
            mark(e.end)
            mark(e.target)
        missing = {t for t in self.dis_targets if self.group_at_or_after(t) not in leaders}
        assert not missing, "dis marks targets %s that start no block" % sorted(missing)
        self.blocks = []
        for start, ins in self.groups:
            if start in leaders:
                self.blocks.append(Block(start))
            self.blocks[-1].instrs.append(ins)
        for b in self.blocks:
            b.end = self.ends[b.last.offset]
        self.by_start = {b.start: b for b in self.blocks}
        self.next_of = {}
        for i, b in enumerate(self.blocks):
            self.next_of[b.start] = self.blocks[i + 1].start if i + 1 < len(self.blocks) else None

    def successors(self, b, end_finally_falls):
        """Static successors (without exception edges)."""
        name, out = b.last.opname, []
        nxt = self.next_of[b.start]
        if name in EXIT:
            pass
        elif name in JUMP:
            out.append((b.last.argval, "jump"))
        elif name in BRANCH:
            out += [(nxt, "fallthrough"), (b.last.argval, "branch")]
        elif name == "CALL_FINALLY":
            out += [(nxt, "fallthrough"), (b.last.argval, "call")]
        elif name == "END_FINALLY":
            if b.start in end_finally_falls:
                out.append((nxt, "fallthrough"))
        else:
            out.append((nxt, "fallthrough"))
        if any(t is None for t, _ in out):
            self.falls_off.add(b.start)  # fine in dead code (3.8 leaves some)
        return [(t, k) for t, k in out if t is not None]

    def static_edges(self, end_finally_falls):
        for b in self.blocks:
            for to, kind in self.successors(b, end_finally_falls):
                self.edges.append((b.start, to, kind))
            if b.start in self.handlers:
                self.edges.append((b.start, self.handlers[b.start][0], "exception"))

    def search(self, roots, all_kinds):
        succ = {}
        for f, t, k in self.edges:
            if all_kinds or k != "exception":
                succ.setdefault(f, []).append(t)
        seen, stack = set(roots), list(roots)
        while stack:
            for t in succ.get(stack.pop(), []):
                if t not in seen:
                    seen.add(t)
                    stack.append(t)
        return seen

    # -- 3.11+ handlers ---------------------------------------------------

    def table_handlers(self):
        for b in self.blocks:
            covering = [e for e in self.entries if e.start <= b.instrs[0].offset < e.end]
            assert len(covering) <= 1
            for ins in b.instrs:
                inner = [e for e in self.entries if e.start <= ins.offset < e.end]
                assert inner == covering, "block at %d has two handlers" % b.start
            if covering:
                e = covering[0]
                self.handlers[b.start] = (e.target, e.depth, 1 + int(e.lasti), int(e.lasti))

    # -- 3.8-3.10 handlers: the block stack -------------------------------

    def block_stack(self):
        effect = lambda ins, jump: dis.stack_effect(
            ins.opcode, ins.arg if ins.opcode >= dis.HAVE_ARGUMENT else None, jump=jump)
        state = {}  # block -> [depth, weak, stack]; stack entries ("S", handler, level) / ["F", kinds]
        work = []
        end_finally_falls = set()

        def merge(to, stack, depth, weak):
            assert depth >= 0
            if to not in state:
                state[to] = [depth, weak, [list(e) for e in stack]]
                work.append(to)
                return
            s = state[to]
            assert len(s[2]) == len(stack), "block stacks differ at %d" % to
            changed = False
            for mine, theirs in zip(s[2], stack):
                assert mine[0] == theirs[0]
                if mine[0] == "S":
                    assert mine == list(theirs), "handlers differ at %d" % to
                elif mine[1] | theirs[1] != mine[1]:
                    mine[1] |= theirs[1]
                    changed = True
            if not weak:
                if s[1]:
                    changed |= s[0] != depth
                    s[0], s[1] = depth, False
                else:
                    assert s[0] == depth, "depths %d/%d at %d" % (s[0], depth, to)
            elif s[1] and depth > s[0]:
                s[0], changed = depth, True
            if changed:
                work.append(to)

        start_depth = 1 if self.groups[0][1].opname == "GEN_START" else 0
        merge(0, [], start_depth, False)
        while work:
            start = work.pop()
            b = self.by_start[start]
            depth, _, stack = state[start]
            stack = [list(e) for e in stack]
            setups = [i for i, e in enumerate(stack) if e[0] == "S"]
            if setups:
                i = setups[-1]
                _, handler, level = stack[i]
                self.handlers[start] = (handler, level, HANDLER_PUSHES, 0)
                merge(handler, stack[:i] + [["F", BY_EXCEPTION]], level + HANDLER_PUSHES, False)
            popped = 0
            for n, ins in enumerate(b.instrs):
                name = ins.opname
                if name == "POP_BLOCK":
                    assert stack and stack[-1][0] == "S"
                    stack.pop()
                elif name in ("POP_EXCEPT", "END_ASYNC_FOR"):
                    assert stack and stack[-1][0] == "F" and stack[-1][1] & BY_EXCEPTION
                    stack.pop()
                elif name == "BEGIN_FINALLY":
                    stack.append(["F", BY_NORMAL])
                elif name in ("POP_FINALLY", "END_FINALLY"):
                    assert stack and stack[-1][0] == "F"
                    popped = stack.pop()[1]
                elif name == "WITH_CLEANUP_FINISH":
                    assert stack and stack[-1][0] == "F"
                    if stack[-1][1] & BY_EXCEPTION:
                        stack[-1][1] |= BY_NORMAL
                if n + 1 < len(b.instrs):
                    depth += effect(ins, False)
            last = b.last
            nxt = self.next_of[start]
            name = last.opname
            if name in SETUP:
                level = depth + effect(last, True) - HANDLER_PUSHES
                merge(nxt, stack + [["S", last.argval, level]], depth + effect(last, False), False)
            elif name in JUMP:
                merge(last.argval, stack, depth + effect(last, True), False)
            elif name in BRANCH:
                merge(nxt, stack, depth + effect(last, False), False)
                merge(last.argval, stack, depth + effect(last, True), False)
            elif name == "CALL_FINALLY":
                merge(nxt, stack, depth + effect(last, False), False)
                merge(last.argval, stack + [["F", BY_CALL]], depth + effect(last, True), True)
            elif name == "END_FINALLY":
                if popped & BY_NORMAL:
                    end_finally_falls.add(start)
                    merge(nxt, stack, depth + effect(last, False), False)
            elif name not in EXIT:
                merge(nxt, stack, depth + effect(last, False), False)
        self.reachable = set(state)
        self.depths = {s: v[0] for s, v in state.items()}
        self.static_edges(end_finally_falls)
        self.check_stacksize(effect)
        # Every SETUP's handler protects something that can be reached.
        setups = {b.last.argval for b in self.blocks if b.last.opname in SETUP and b.start in state}
        assert setups <= {h[0] for h in self.handlers.values()}, "unused SETUP handlers"

    def check_stacksize(self, effect):
        """The compiler's co_stacksize is the largest depth its stackdepth()
        reaches with the same effects; ours must agree."""
        top = 0
        for start in self.reachable:
            depth = self.depths[start]
            for ins in self.by_start[start].instrs:
                top = max(top, depth + effect(ins, False))
                if ins.opname in JUMP | BRANCH | SETUP or ins.opname == "CALL_FINALLY":
                    top = max(top, depth + effect(ins, True))
                depth += effect(ins, False)
        assert top == self.co.co_stacksize, "max depth %d != co_stacksize %d in %s" % (
            top, self.co.co_stacksize, self.co.co_name)

    # -- dominators and loops -------------------------------------------------

    def dominators(self, kinds, reverse=False):
        """Textbook iterative dataflow on sets. Returns idom per node (None for
        the root), or None when post-dominators are undefined."""
        nodes = self.search({0}, all_kinds="exception" in kinds)
        preds = {n: set() for n in nodes}
        succs = {n: set() for n in nodes}
        for f, t, k in self.edges:
            if k in kinds and f in nodes and t in nodes:
                succs[f].add(t)
                preds[t].add(f)
        root = 0
        if reverse:
            exits = {n for n in nodes if not succs[n]}
            root = "exit"
            preds, succs = succs, preds
            for n in exits:
                preds[n].add(root)
            preds[root], succs[root] = set(), set(exits)
            nodes = nodes | {root}
            reach, stack = {root}, [root]
            while stack:
                for t in succs[stack.pop()]:
                    if t not in reach:
                        reach.add(t)
                        stack.append(t)
            if reach != nodes:
                return None
        dom = {n: set(nodes) for n in nodes}
        dom[root] = {root}
        changed = True
        while changed:
            changed = False
            for n in nodes:
                if n == root:
                    continue
                new = set(nodes)
                for p in preds[n]:
                    new &= dom[p]
                new |= {n}
                if new != dom[n]:
                    dom[n], changed = new, True
        idom = {}
        for n in nodes:
            strict = dom[n] - {n}
            idom[n] = max(strict, key=lambda d: len(dom[d])) if strict else None
        return idom, dom

    def loops(self, dom):
        preds = {}
        for f, t, _ in self.edges:
            if f in dom and t in dom:
                preds.setdefault(t, set()).add(f)
        loops = {}
        for f, t, _ in self.edges:
            if f in dom and t in dom and t in dom[f]:
                loops.setdefault(t, set()).add(f)
        out = []
        for header in sorted(loops):
            body, stack = {header}, [l for l in loops[header] if l != header]
            body |= set(stack)
            while stack:
                for p in preds.get(stack.pop(), ()):
                    if p not in body:
                        body.add(p)
                        stack.append(p)
            out.append((header, sorted(loops[header]), sorted(body)))
        return out

    # -- output ---------------------------------------------------------------

    def lines(self, index):
        out = ["code %d %s" % (index, self.co.co_name)]
        out.append("leaders " + " ".join(str(b.start) for b in self.blocks))
        for f, t, k in self.edges:
            out.append("edge %d %d %s" % (f, t, k))
        for start in sorted(self.handlers):
            if start in self.reachable or self.table:
                out.append("handler %d %d %d %d %d" % ((start,) + self.handlers[start]))
        for start in sorted(self.depths):
            out.append("entry_depth %d %d" % (start, self.depths[start]))
        for b in self.blocks:
            if b.start not in self.reachable:
                out.append("unreachable %d" % b.start)
        idom_all, dom_all = self.dominators({"fallthrough", "jump", "branch", "call", "exception"})
        for n in sorted(idom_all):
            out.append("idom %d %s" % (n, "-" if idom_all[n] is None else idom_all[n]))
        idom_normal, _ = self.dominators({"fallthrough", "jump", "branch", "call"})
        for n in sorted(idom_normal):
            out.append("idom_normal %d %s" % (n, "-" if idom_normal[n] is None else idom_normal[n]))
        post = self.dominators({"fallthrough", "jump", "branch", "call", "exception"}, reverse=True)
        if post is not None:
            ipdom = post[0]
            for n in sorted(k for k in ipdom if k != "exit"):
                out.append("ipdom %d %s" % (n, ipdom[n]))
        for header, latches, body in self.loops(dom_all):
            out.append("loop %d latches %s body %s" % (
                header, " ".join(map(str, latches)), " ".join(map(str, body))))
        out.append("end")
        return out


def code_objects(co):
    out = [co]
    for c in co.co_consts:
        if hasattr(c, "co_code"):
            out.extend(code_objects(c))
    return out


def stack_effect_lines():
    out = []
    for name, op in sorted(dis.opmap.items()):
        args = [0] if op < dis.HAVE_ARGUMENT else [0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 255, 256,
                                                    257, 300, 65535, 65539]
        for arg in args:
            try:
                values = [dis.stack_effect(op, arg if op >= dis.HAVE_ARGUMENT else None,
                                           jump=j) for j in (False, True)]
            except ValueError:
                continue
            out.append("%s %d %d %d" % (name, arg, values[0], values[1]))
    return out


def worker(out_dir):
    check_flow_sets()
    tag = "%d%d" % sys.version_info[:2]
    source = source_for(sys.version_info)
    module = compile(source, "cfg_fixture.py", "exec")
    data = marshal.dumps(module)
    header = importlib.util.MAGIC_NUMBER + (0).to_bytes(4, "little") + (0).to_bytes(4, "little")
    header += len(source.encode()).to_bytes(4, "little")
    with open(os.path.join(out_dir, "cfg_%s.pyc" % tag), "wb") as f:
        f.write(header + data)
    lines = []
    for index, co in enumerate(code_objects(module)):
        lines += Analysis(co).lines(index)
    with open(os.path.join(out_dir, "cfg_%s.txt" % tag), "w") as f:
        f.write("# Generated by tools/make_cfg_fixtures.py with Python %s; do not edit.\n"
                % sys.version.split()[0])
        f.write("\n".join(lines) + "\n")
    if sys.version_info < (3, 11):
        with open(os.path.join(out_dir, "stack_effects_%s.txt" % tag), "w") as f:
            f.write("# dis.stack_effect(op, arg, jump=False/True) of Python %s: name arg nojump jump\n"
                    % sys.version.split()[0])
            f.write("\n".join(stack_effect_lines()) + "\n")


def interpreters(wanted):
    root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    found = {}
    for version in wanted:
        candidates = sorted(glob.glob(os.path.join(root, "versions", version + ".*", "bin", "python")))
        if not candidates:
            raise SystemExit("make_cfg_fixtures: no pyenv Python %s" % version)
        found[version] = candidates[-1]
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=DEFAULT_OUT)
    parser.add_argument("--versions", default=",".join(VERSIONS))
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.out)
        return
    os.makedirs(args.out, exist_ok=True)
    for version, python in interpreters(args.versions.split(",")).items():
        subprocess.run([python, os.path.abspath(__file__), "--worker", "--out", args.out], check=True)
        print("make_cfg_fixtures: wrote Python %s fixtures" % version)


if __name__ == "__main__":
    main()
