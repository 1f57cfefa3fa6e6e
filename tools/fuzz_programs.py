"""Differential fuzzing of the decompiler with random structured programs.

Generates random functions that nest if/elif/else, for and while loops (with
else, break and continue), try/except/else/finally, with statements,
returns and raises, all bounded so that every call ends. With
--expressions, statements and conditions also compute values the way real
code does: conditional expressions, and/or chains used as values, chained
comparisons, walrus, comprehensions with filters, lambdas with defaults
and closures, f-strings, unpacking, displays with ** and *. Each program is
compiled by the running Python, decompiled by the CLI, recompiled, and every
function is called on a grid of arguments in both versions. A function whose
observed behaviour differs (its log of steps, its return value, the
exception it raises) is a *silent miscompile*: the worst thing a decompiler
can do, since its output looks plausible and is wrong.

    python tools/fuzz_programs.py --cli build/cpp-release/cli/unveil-decompile
    python tools/fuzz_programs.py --programs 2000 --seed 7 --show 3   # the installed CLI
    python tools/fuzz_programs.py --expressions --programs 500       # richer values
    python3 tools/crossversion.py --no-install run -- {python} tools/fuzz_programs.py

Prints, per run: functions generated, outputs that do not compile, functions
unveil gave up on (its fallback raises), behaviour differences, and the
share of functions whose bytecode is equal after the round trip. Exit status
1 when any output does not compile or any function behaves differently.
"""
import argparse
import importlib.util
import os
import py_compile
import random
import re
import signal
import subprocess
import sys
import tempfile
import types
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FALLBACK_MARK = "unveil could not decompile"


def _load_verify() -> types.ModuleType:
    path = os.path.join(ROOT, "python", "unveil", "verify.py")
    spec = importlib.util.spec_from_file_location("unveil_verify", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


verify = _load_verify()

PRELUDE = '''
class CM:
    """Logs entry and exit; suppresses the exception when asked to."""
    def __init__(self, log, tag, suppress=False):
        self.log, self.tag, self.suppress = log, tag, suppress
    def __enter__(self):
        self.log.append(("enter", self.tag))
        return self.tag
    def __exit__(self, kind, value, tb):
        self.log.append(("exit", self.tag, kind.__name__ if kind else None))
        return self.suppress
'''

CONDITIONS = [
    "a > {n}", "a < {n}", "b == {n}", "a % 2 == 0", "b", "not b", "a and b", "a or b",
    "a > {n} and b", "a < {n} or not b", "{n} < a < {m}", "k > {n}", "k % 3 == 1", "a + b > {n}",
]


# --expressions: values (of a, b, k) and conditions that real code computes.
VALUES = [
    "a if {c} else a + {n}", "(a and b) or k", "a or b and k", "-a if a < 0 else a",
    "len([x for x in range(a % 4) if x % 2 == k % 2])", "sum(x for x in range({n}) if x > a)",
    "int({c})", "max(a, b, k) - min(a, k)", "a if not b else (k if a > k else b)",
    "(t := a + {n}) * 2 - t", "[a, *range(k % 3), b][-1]", "{{'a': a, **{{'k': k}}}}['k'] + a",
    "sorted({{a % 3, k, {n}}})[0]", "(lambda x, y={n}: x * y + k)(a)", "a << 1 if a >= 0 else a",
    "next((x for x in (a, b, k) if x), {n})", "{n} < a <= {m} or b",
]
EXPRESSION_CONDITIONS = [
    "(a if b else k) > {n}", "not (a and not b)", "a in ({n}, {m}) and b not in (0,)",
    "(t := a - {n}) > 0 and t < {m}", "any(x > {n} for x in (a, k))", "a is None or b",
    "[x for x in range(3) if x == a]", "f'{{a}}' == '{n}'", "not b or a > {n} and k < {m}",
]
EXPRESSION_STATEMENTS = [
    "a = {v}", "b = {v}", "log.append({v})", "log.append(f'{{a}}-{{b!r}}-{{k:>3}}')",
    "a, b = b if isinstance(b, int) else int(b), a", "first, *rest = [a, b, k]\nlog.append((first, rest))",
    "log.append({{x: x * a for x in range(k % 3)}})", "log[-1:] = [{v}]",
]


@dataclass
class Generator:
    """Random statements; `k` is the innermost loop's variable (0 outside loops)."""

    rng: random.Random
    tag: int = 0
    counters: int = 0
    expressions: bool = False

    def value(self) -> str:
        n = self.rng.randint(-1, 3)
        return self.rng.choice(VALUES).format(c=self.cond(plain=True), n=n, m=n + self.rng.randint(1, 3))

    def next_tag(self) -> int:
        self.tag += 1
        return self.tag

    def cond(self, plain: bool = False) -> str:
        n = self.rng.randint(-1, 3)
        table = CONDITIONS + EXPRESSION_CONDITIONS if self.expressions and not plain else CONDITIONS
        return self.rng.choice(table).format(n=n, m=n + self.rng.randint(1, 3))

    def block(self, depth: int, in_loop: bool, in_finally: bool, size: Optional[int] = None) -> List[str]:
        count = size if size is not None else self.rng.randint(1, 3)
        lines: List[str] = []
        for _ in range(count):
            lines += self.statement(depth, in_loop, in_finally)
            last = lines[-1].strip() if lines else ""
            if last.startswith(("return", "raise", "break", "continue")):
                break
        return lines

    def statement(self, depth: int, in_loop: bool, in_finally: bool) -> List[str]:
        simple = [
            lambda: [f"log.append({self.next_tag()})"],
            lambda: [f"a = a + {self.rng.randint(1, 2)}"],
            lambda: [f"b = not b" if self.rng.random() < 0.5 else f"log.append((a, b, k))"],
        ]
        if self.expressions:
            simple += [lambda: self.rng.choice(EXPRESSION_STATEMENTS).format(v=self.value()).split("\n")] * 3
        results = ['a', 'b', 'k', str(self.next_tag()), 'None', 'log[-1:]'] + ([self.value()] if self.expressions else [])
        leaves = [
            lambda: [f"return {self.rng.choice(results)}"],
            lambda: [f"raise {self.rng.choice(['ValueError', 'KeyError'])}({self.next_tag()})"],
        ]
        if in_loop:
            leaves += [lambda: ["break"], lambda: ["continue"]]
        compound = [self.if_stmt, self.for_stmt, self.while_stmt, self.try_except, self.try_finally, self.with_stmt]
        roll = self.rng.random()
        if depth <= 0 or roll < 0.35:
            return self.rng.choice(simple)()
        if roll < 0.5:
            return [f"if {self.cond()}:"] + indent(self.rng.choice(leaves)())
        return self.rng.choice(compound)(depth - 1, in_loop, in_finally)

    def if_stmt(self, depth: int, in_loop: bool, in_finally: bool) -> List[str]:
        lines = [f"if {self.cond()}:"] + indent(self.block(depth, in_loop, in_finally))
        for _ in range(self.rng.choice([0, 0, 1, 2])):
            lines += [f"elif {self.cond()}:"] + indent(self.block(depth, in_loop, in_finally))
        if self.rng.random() < 0.5:
            lines += ["else:"] + indent(self.block(depth, in_loop, in_finally))
        return lines

    def loop_else(self, depth: int, in_loop: bool, in_finally: bool) -> List[str]:
        if self.rng.random() < 0.3:
            return ["else:"] + indent(self.block(depth, in_loop, in_finally, 1))
        return []

    def for_stmt(self, depth: int, in_loop: bool, in_finally: bool) -> List[str]:
        head = f"for k in range({self.rng.randint(0, 3)}):"
        return [head] + indent(self.block(depth, True, False)) + self.loop_else(depth, in_loop, in_finally)

    def while_stmt(self, depth: int, in_loop: bool, in_finally: bool) -> List[str]:
        self.counters += 1
        c = f"n{self.counters}"
        start = [f"{c} = {self.rng.randint(0, 3)}"]
        if self.rng.random() < 0.3:
            body = [f"{c} -= 1", f"if {c} < 0:", "    break"] + self.block(depth, True, False)
            return start + ["while True:"] + indent(body)
        test = f"{c} > 0" if self.rng.random() < 0.6 else f"{c} > 0 and ({self.cond()})"
        body = [f"{c} -= 1"] + self.block(depth, True, False)
        return start + [f"while {test}:"] + indent(body) + self.loop_else(depth, in_loop, in_finally)

    def try_except(self, depth: int, in_loop: bool, in_finally: bool) -> List[str]:
        lines = ["try:"] + indent(self.block(depth, in_loop, in_finally))
        kinds = self.rng.sample(["ValueError", "KeyError", "(KeyError, ValueError)", "Exception"], self.rng.randint(1, 2))
        for kind in kinds:
            named = self.rng.random() < 0.4
            lines += [f"except {kind}{' as e' if named else ''}:"]
            body = [f"log.append(('caught', e.args))"] if named else []
            lines += indent(body + self.block(depth, in_loop, in_finally))
        if self.rng.random() < 0.15:
            lines += ["except:"] + indent(self.block(depth, in_loop, in_finally))
        if self.rng.random() < 0.3:
            lines += ["else:"] + indent(self.block(depth, in_loop, in_finally))
        if self.rng.random() < 0.3:
            lines += ["finally:"] + indent(self.block(depth, in_loop, True))
        return lines

    def try_finally(self, depth: int, in_loop: bool, in_finally: bool) -> List[str]:
        return (["try:"] + indent(self.block(depth, in_loop, in_finally)) + ["finally:"] +
                indent(self.block(depth, in_loop, True)))

    def with_stmt(self, depth: int, in_loop: bool, in_finally: bool) -> List[str]:
        suppress = "True" if self.rng.random() < 0.3 else "False"
        target = " as w" if self.rng.random() < 0.5 else ""
        return [f"with CM(log, {self.next_tag()}, {suppress}){target}:"] + indent(self.block(depth, in_loop, in_finally))


def indent(lines: List[str]) -> List[str]:
    return ["    " + line for line in lines]


def program(seed: int, functions: int, expressions: bool = False) -> str:
    rng = random.Random(seed)
    out = [PRELUDE]
    for f in range(functions):
        gen = Generator(rng, expressions=expressions)
        body = ["k = 0"] + gen.block(rng.randint(2, 4), False, False, rng.randint(2, 4))
        out += [f"def f{f}(a, b, log):"] + indent(body) + [""]
    return "\n".join(out) + "\n"


ARGUMENTS = [(a, b) for a in (-1, 0, 1, 2, 3, 5) for b in (0, 1, 2)]


class Timeout(BaseException):
    """A call ran past its time: every generated loop is bounded, so the output loops where the original did not."""


def _on_alarm(signum: int, frame: Any) -> None:
    raise Timeout()


def observe(fn: Any, a: int, b: int) -> Tuple[Any, ...]:
    log: List[Any] = []
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, 2.0)
    try:
        result: Tuple[Any, ...] = ("return", repr(fn(a, b, log)))
    except Timeout:
        result = ("timeout",)
    except Exception as e:  # the behaviour being compared
        result = ("raise", type(e).__name__, repr(e.args))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    return result + (repr(log[:200]),)


MACHINE_MARK = "control flow rebuilt as a state machine"  # unveil's comment on its general fallback


def function_text(source: str, function: str) -> str:
    """The lines of ``def function`` in ``source`` (up to the next top-level line)."""
    lines = source.splitlines()
    for k, line in enumerate(lines):
        if line.startswith(f"def {function}("):
            end = next((j for j in range(k + 1, len(lines)) if lines[j] and not lines[j][0].isspace()), len(lines))
            return "\n".join(lines[k:end])
    return ""


def run_module(source: str, filename: str) -> Dict[str, Any]:
    namespace: Dict[str, Any] = {"__name__": "fuzzed"}
    exec(compile(source, filename, "exec"), namespace)
    return namespace


@dataclass
class Tally:
    functions: int = 0
    equal: int = 0
    fallback: int = 0
    machines: int = 0  # functions written as the general fallback (a state machine)
    not_compiling: int = 0
    behaviour: List[Tuple[int, str, str]] = field(default_factory=list)  # seed, function, what differed
    reasons: Dict[str, int] = field(default_factory=dict)  # why unveil gave up, offsets left out


def sabotaged(source: str) -> str:
    """A broken "decompiler" for checking the checker: every `a = a + 1` adds 3."""
    return source.replace("a = a + 1", "a = a + 3")


def check(seed: int, functions: int, cli: List[str], tmp: str, tally: Tally, mode: str = "cli",
          expressions: bool = False) -> None:
    source = program(seed, functions, expressions)
    path = os.path.join(tmp, f"p{seed}.py")
    with open(path, "w") as f:
        f.write(source)
    pyc = path + "c"
    py_compile.compile(path, cfile=pyc, doraise=True)
    tally.functions += functions
    if mode == "cli":
        done = subprocess.run(cli + [pyc], capture_output=True, text=True, timeout=120)
        out, status, errors = done.stdout, done.returncode, done.stderr
    else:
        out, status, errors = (source if mode == "identity" else sabotaged(source)), 0, ""
    try:
        recompiled = compile(out, path, "exec")
    except SyntaxError as e:
        tally.not_compiling += functions
        tally.behaviour.append((seed, "<module>", f"does not compile: {e} (exit {status}: {errors[-300:]})"))
        return
    for line in out.splitlines():
        if "unveil: could not decompile" in line:
            reason = re.sub(r" at offset \d+ \(0x[0-9a-f]+\)", "", line.split(": ", 2)[-1].strip())
            tally.reasons[reason] = tally.reasons.get(reason, 0) + 1
    original = compile(source, path, "exec")
    codes = {c.co_name: c for c in original.co_consts if isinstance(c, types.CodeType)}
    again = {c.co_name: c for c in recompiled.co_consts if isinstance(c, types.CodeType)}
    theirs, ours = run_module(source, path), run_module(out, path)
    for f in range(functions):
        name = f"f{f}"
        if name in again and FALLBACK_MARK in repr(again[name].co_consts):
            tally.fallback += 1
            continue
        if name in again and MACHINE_MARK in function_text(out, name):
            tally.machines += 1
        if name in codes and name in again and not verify.compare_code(codes[name], again[name]):
            tally.equal += 1
        for a, b in ARGUMENTS:
            want, got = observe(theirs[name], a, b), observe(ours[name], a, b)
            if want != got:
                tally.behaviour.append((seed, name, f"f({a}, {b}): original {want}, decompiled {got}"))
                break


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", default=os.path.join(os.path.dirname(sys.executable), "unveil-decompile"),
                        help="the unveil-decompile executable (default: the one next to this Python)")
    parser.add_argument("--programs", type=int, default=300)
    parser.add_argument("--functions", type=int, default=8, help="functions per program")
    parser.add_argument("--seed", type=int, default=0, help="first program's seed")
    parser.add_argument("--show", type=int, default=10, help="behaviour differences to print")
    parser.add_argument("--expressions", action="store_true",
                        help="also generate value-computing statements and conditions (a different program per seed)")
    parser.add_argument("--state-machine", action="store_true",
                        help="ask unveil for the general fallback (a state machine) wherever it fits: tests it on every function")
    checks = parser.add_mutually_exclusive_group()
    checks.add_argument("--identity", action="store_const", dest="mode", const="identity",
                        help="the source as output: must give 100%% and no difference")
    checks.add_argument("--sabotage", action="store_const", dest="mode", const="sabotage",
                        help="a broken decompiler: must report differences")
    args = parser.parse_args()
    tally = Tally()
    with tempfile.TemporaryDirectory(prefix="unveil-fuzz-programs-") as tmp:
        for seed in range(args.seed, args.seed + args.programs):
            cli = args.cli.split() + (["--state-machine"] if args.state_machine else [])
            check(seed, args.functions, cli, tmp, tally, args.mode or "cli", args.expressions)
    version = "%d.%d" % sys.version_info[:2]
    share = 100.0 * tally.equal / max(1, tally.functions)
    print(f"Python {version} ({args.mode or 'cli'}): {args.programs} programs (seeds {args.seed}..{args.seed + args.programs - 1}), "
          f"{tally.functions} functions")
    print(f"  outputs that do not compile: {tally.not_compiling} functions")
    print(f"  unveil gave up (fallback):   {tally.fallback}")
    print(f"  state machines:              {tally.machines}")
    print(f"  behaviour differences:       {len(tally.behaviour)}")
    print(f"  bytecode-equal:              {tally.equal} ({share:.2f}%)")
    for reason, count in sorted(tally.reasons.items(), key=lambda kv: -kv[1])[: args.show]:
        print(f"    gave up {count}x: {reason}")
    for seed, name, what in tally.behaviour[: args.show]:
        print(f"    seed {seed} {name}: {what}")
    return 1 if tally.behaviour else 0


if __name__ == "__main__":
    sys.exit(main())
