"""Decompile the Dynamo-generated corpus (shared/corpus/dynamo-hf, CPython 3.10).

Run with Python 3.10 and unveil installed:

    python tools/crossversion.py --no-install --versions 3.10 run -- {python} tools/dynamo_corpus.py

For every transformed code object (and its nested code) it rebuilds a real
code object from the `dynamo-code/1` record (stand-in classes and builtins
bound to real objects), decompiles it with unveil.decompile, and checks that
the output compiles under 3.10. Prints: entries, decompiled without fallback,
output compiles, and the first failures.

Behaviour check (--behaviour, on by default, a few seconds): each transformed
code object and the def unveil prints for it (compiled inside an outer function
that binds the same free variables) run as functions on the same kind of fresh
globals, where every name the original loads is a recording Tracer (builtins
stay real: super must, and the others only call the Tracer's protocols), the
arguments are Tracers, `__class__` holds a Tracer subclass whose instance is
`self` (so super(__class__, self).m resolves to a recorded Tracer method), and
the format's stand-in classes record their calls. Every operation on a Tracer
(call, attribute, item, arithmetic, comparison, bool, len, iter, ...) appends
an event to one log. bool() answers all-True, all-False and alternating (three
runs each); UNPACK_SEQUENCE/UNPACK_EX get the count their instruction asks
for, other iteration ITER_ITEMS items. Functions the code hands out are called
after the run. Compared: the logs (result tracers renumbered by first
appearance), the return value and the exception (type, normalised message).
Not observable: the order of global and local loads and stores, and paths where
a call raises (no Tracer raises).
"""
import argparse
import ast
import builtins
import collections
import dis
import glob
import os
import pickle
import re
import sys
import types
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

from unveil import FALLBACK_MARK

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CORPUS = os.path.join(HERE, "..", "..", "shared", "corpus", "dynamo-hf")


class _NoGlobals(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:  # the format has none; refuse any
        raise pickle.UnpicklingError(f"refusing global {module}.{name}")


def standin(qualified: str) -> type:
    module, _, name = qualified.rpartition(".")
    return _StandinMeta(name, (), {"__module__": module, "__qualname__": name})


def constant(value: Any) -> Any:
    if isinstance(value, dict):
        if "__standin__" in value:
            return standin(value["__standin__"])
        if "__builtin__" in value:
            return getattr(builtins, value["__builtin__"])
        if "__code__" in value:
            return build_code(value["__code__"])
        if "co_code" in value:
            return build_code(value)
    if isinstance(value, tuple):
        return tuple(constant(v) for v in value)
    return value


def build_code(record: Dict[str, Any]) -> types.CodeType:
    return types.CodeType(
        record["co_argcount"], record["co_posonlyargcount"], record["co_kwonlyargcount"],
        record["co_nlocals"], record["co_stacksize"], record["co_flags"], record["co_code"],
        tuple(constant(c) for c in record["co_consts"]), record["co_names"], record["co_varnames"],
        record["co_filename"], record["co_name"], record["co_firstlineno"], record["co_linetable"],
        record["co_freevars"], record["co_cellvars"],
    )


# ---------------------------------------------------------------------------
# Behaviour check: run Dynamo's transformed code and unveil's decompiled def in
# an environment of recording stand-ins and compare what they do.
# ---------------------------------------------------------------------------
EVENT_BUDGET = 5000  # per run; a run past it stops with _Budget (loops that never end)
ITER_ITEMS = 2  # items a tracer yields to a for loop, list(), *args, ...
BOOL_MODES = ("true", "false", "alternate")
RAISING_CALLS = 16  # then one more all-True run per call k <= this, in which the k-th call raises
_UNPACK_SEQUENCE = dis.opmap["UNPACK_SEQUENCE"]
_UNPACK_EX = dis.opmap["UNPACK_EX"]
_EXTENDED_ARG = dis.opmap["EXTENDED_ARG"]

Event = Tuple[Any, ...]


class _Budget(BaseException):
    """A run made more than EVENT_BUDGET events (BaseException: the code's own
    `except Exception` must not swallow it)."""


class Recorder:
    """The shared log of one run, and its deterministic answers."""

    def __init__(self, mode: str, raise_at: int = 0) -> None:
        self.mode = mode
        self.raise_at = raise_at  # the call (1-based) that raises, 0 for none
        self.calls = 0
        self.events: List[Event] = []
        self.next_id = 0
        self.bools = 0
        self.escaped: List[types.FunctionType] = []

    def new_label(self) -> str:
        self.next_id += 1
        return f"t{self.next_id}"

    def boolean(self) -> bool:
        self.bools += 1
        if self.mode == "true":
            return True
        if self.mode == "false":
            return False
        return self.bools % 2 == 1

    def add(self, event: Event) -> None:
        if len(self.events) >= EVENT_BUDGET:
            raise _Budget()
        self.events.append(event)


_REC: Optional[Recorder] = None


def _rec() -> Recorder:
    assert _REC is not None, "a tracer was used outside a run"
    return _REC


def describe_value(value: Any) -> Any:
    """A comparable description of a value an operation saw. Uses type(), never
    isinstance: isinstance(tracer, X) would ask the tracer for __class__."""
    kind = type(value)
    if issubclass(kind, Tracer):
        return ("T", object.__getattribute__(value, "_tr_label"))
    if value is None or value is Ellipsis or kind in (bool, int, float, complex, str, bytes):
        return ("c", kind.__name__, repr(value))
    if kind in (tuple, list, set, frozenset):
        items = [describe_value(v) for v in value]
        return (kind.__name__, tuple(sorted(items, key=repr) if kind in (set, frozenset) else items))
    if kind is dict:
        return ("dict", tuple((describe_value(k), describe_value(v)) for k, v in value.items()))
    if kind is slice:
        return ("slice", describe_value(value.start), describe_value(value.stop), describe_value(value.step))
    if kind is types.FunctionType:  # a function the code made: called after the run
        rec = _rec()
        if not any(f is value for f in rec.escaped):
            rec.escaped.append(value)
        return ("function", value.__code__.co_name)
    if isinstance(value, type):
        return ("class", f"{value.__module__}.{value.__qualname__}")
    return ("object", kind.__qualname__)


def _record(op: str, subject: Any, *operands: Any) -> "Tracer":
    rec = _rec()
    result = Tracer(rec.new_label())
    rec.add((op, describe_value(subject)) + tuple(describe_value(o) for o in operands)
            + (describe_value(result),))
    return result


def _note(op: str, subject: Any, *operands: Any) -> None:
    _rec().add((op, describe_value(subject)) + tuple(describe_value(o) for o in operands))


class StandinCallError(RuntimeError):
    """What the call chosen by Recorder.raise_at raises."""


def _call(op: str, subject: Any, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> "Tracer":
    rec = _rec()
    rec.calls += 1
    if rec.calls == rec.raise_at:
        _note(op + " raises", subject, args, kwargs)
        raise StandinCallError(f"stand-in call {rec.calls} raises")
    return _record(op, subject, args, kwargs)


def _unpack_count(frame: types.FrameType) -> Optional[int]:
    """How many items the instruction running in `frame` unpacks (UNPACK_SEQUENCE
    / UNPACK_EX, with their EXTENDED_ARGs), or None for any other instruction."""
    code, at = frame.f_code.co_code, frame.f_lasti
    if at < 0:
        return None
    op, arg, shift, before = code[at], code[at + 1], 8, at - 2
    while before >= 0 and code[before] == _EXTENDED_ARG:
        arg |= code[before + 1] << shift
        shift, before = shift + 8, before - 2
    if op == _UNPACK_SEQUENCE:
        return arg
    if op == _UNPACK_EX:
        return (arg & 0xFF) + (arg >> 8)
    return None


class Tracer:
    """A value whose every operation appends an event to the run's log and
    answers with a new Tracer (or, where Python needs a real value, with a
    fixed one: bool from the run's pattern, len 2, index 1, ...)."""

    __slots__ = ("_tr_label", "_tr_left")

    def __init__(self, label: str) -> None:
        object.__setattr__(self, "_tr_label", label)
        object.__setattr__(self, "_tr_left", ITER_ITEMS)

    def __getattribute__(self, name: str) -> Any:
        if name.startswith("_tr_"):
            return object.__getattribute__(self, name)
        return _record("getattr", self, name)

    def __setattr__(self, name: str, value: Any) -> None:
        _note("setattr", self, name, value)

    def __delattr__(self, name: str) -> None:
        _note("delattr", self, name)

    def __call__(self, *args: Any, **kwargs: Any) -> "Tracer":
        return _call("call", self, args, kwargs)

    def __setitem__(self, key: Any, value: Any) -> None:
        _note("setitem", self, key, value)

    def __delitem__(self, key: Any) -> None:
        _note("delitem", self, key)

    def __bool__(self) -> bool:
        answer = _rec().boolean()
        _note("bool", self, answer)
        return answer

    def __contains__(self, item: Any) -> bool:
        answer = _rec().boolean()
        _note("contains", self, item, answer)
        return answer

    def __instancecheck__(self, instance: Any) -> bool:
        answer = _rec().boolean()
        _note("instancecheck", self, instance, answer)
        return answer

    def __subclasscheck__(self, cls: Any) -> bool:
        answer = _rec().boolean()
        _note("subclasscheck", self, cls, answer)
        return answer

    def __len__(self) -> int:
        _note("len", self, ITER_ITEMS)
        return ITER_ITEMS

    def __index__(self) -> int:
        _note("index", self)
        return 1

    def __int__(self) -> int:
        _note("int", self)
        return 1

    def __float__(self) -> float:
        _note("float", self)
        return 1.0

    def __hash__(self) -> int:
        _note("hash", self)
        return hash(object.__getattribute__(self, "_tr_label"))

    def __str__(self) -> str:
        _note("str", self)
        return f"<{object.__getattribute__(self, '_tr_label')}>"

    def __repr__(self) -> str:
        _note("repr", self)
        return f"<{object.__getattribute__(self, '_tr_label')}>"

    def __format__(self, spec: str) -> str:
        _note("format", self, spec)
        return f"<{object.__getattribute__(self, '_tr_label')}:{spec}>"

    def __iter__(self) -> "Tracer":
        # UNPACK_SEQUENCE/UNPACK_EX get exactly the count they ask for; the
        # decompiled code unpacks with the same instructions, so both agree.
        count = _unpack_count(sys._getframe(1))
        iterator = _record("iter", self)
        object.__setattr__(iterator, "_tr_left", ITER_ITEMS if count is None else count)
        return iterator

    def __next__(self) -> "Tracer":
        left = object.__getattribute__(self, "_tr_left")
        if left <= 0:
            _note("stop", self)
            raise StopIteration
        object.__setattr__(self, "_tr_left", left - 1)
        return _record("next", self)

    def __enter__(self) -> "Tracer":
        return _record("enter", self)

    def __exit__(self, *exc: Any) -> "Tracer":
        return _record("exit", self, exc[0] is not None)


def _tracer_method(name: str) -> Callable[..., Tracer]:
    op = name.strip("_")

    def method(self: Tracer, *operands: Any) -> Tracer:
        return _record(op, self, *operands)
    method.__name__ = name
    return method


_ARITHMETIC = ("add", "sub", "mul", "matmul", "truediv", "floordiv", "mod", "divmod", "pow",
               "lshift", "rshift", "and", "xor", "or")
for _name in ([f"__{n}__" for n in _ARITHMETIC] + [f"__r{n}__" for n in _ARITHMETIC]
              + [f"__i{n}__" for n in _ARITHMETIC if n != "divmod"]
              + ["__lt__", "__le__", "__eq__", "__ne__", "__gt__", "__ge__",
                 "__neg__", "__pos__", "__invert__", "__abs__", "__getitem__", "__round__"]):
    setattr(Tracer, _name, _tracer_method(_name))


class _StandinMeta(type):
    """Stand-in classes from the format: plain classes, but calling one records."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Tracer:
        return _call("new", cls, args, kwargs)


@dataclass
class RunResult:
    events: List[Event]
    outcome: Any  # ("return", description) or ("raise", type name, message)
    calls: int = 0


def _normalise_message(text: str) -> str:
    text = re.sub(r"0x[0-9a-fA-F]+", "0x?", text)
    return re.sub(r"[\w.<>]+\(\)", "<function>()", text)  # qualified names differ by design


def _arguments(code: types.CodeType, owner: type) -> Tuple[List[Any], Dict[str, Any]]:
    """Tracers for the parameters; with a `__class__` cell, `self` (else the
    first one) is an instance of `owner` so that super(__class__, self) resolves."""
    names = code.co_varnames
    positional_names = names[: code.co_argcount]
    instance = None
    if "__class__" in code.co_freevars and positional_names:
        instance = "self" if "self" in positional_names else positional_names[0]
    positional: List[Any] = [(owner if name == instance else Tracer)(f"arg:{name}") for name in positional_names]
    i = code.co_argcount + code.co_kwonlyargcount
    keywords = {name: Tracer(f"arg:{name}") for name in names[code.co_argcount : i]}
    return positional, keywords


def _run(function: types.FunctionType, owner: type, mode: str, raise_at: int = 0) -> RunResult:
    global _REC
    _REC = rec = Recorder(mode, raise_at)
    try:
        def call(fn: types.FunctionType) -> Any:
            args, kwargs = _arguments(fn.__code__, owner)
            try:
                return ("return", describe_value(fn(*args, **kwargs)))
            except _Budget:
                return ("raise", "budget", f"more than {EVENT_BUDGET} events")
            except Exception as e:
                return ("raise", type(e).__name__, _normalise_message(str(e)))

        outcome = call(function)
        done = 0
        while done < len(rec.escaped) and len(rec.events) < EVENT_BUDGET:  # functions the code handed out
            escaped = rec.escaped[done]
            done += 1
            rec.events.append(("call escaped function", escaped.__code__.co_name))
            rec.events.append(("escaped function ended",) + call(escaped))
        return RunResult(rec.events, outcome, rec.calls)
    finally:
        _REC = None


def _renumbered(result: RunResult) -> RunResult:
    """Result tracers renumbered by first appearance, so that labels never
    depend on anything but the order of events."""
    numbers: Dict[str, str] = {}

    def walk(value: Any) -> Any:
        if isinstance(value, tuple):
            if len(value) == 2 and value[0] == "T" and isinstance(value[1], str) and value[1][:1] == "t":
                return ("T", numbers.setdefault(value[1], f"t{len(numbers) + 1}"))
            return tuple(walk(v) for v in value)
        return value

    return RunResult([walk(e) for e in result.events], walk(result.outcome), result.calls)


def _loaded_globals(code: types.CodeType) -> List[str]:
    names = {ins.argval for ins in dis.get_instructions(code)
             if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME", "STORE_GLOBAL", "DELETE_GLOBAL")}
    for inner in code.co_consts:
        if isinstance(inner, types.CodeType):
            names.update(_loaded_globals(inner))
    return sorted(names)


def _non_literals(code: types.CodeType) -> List[Any]:
    found: List[Any] = []
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            found.extend(_non_literals(c))
        elif not _is_literal(c):
            found.append(c)
    return found


def _is_literal(value: Any) -> bool:
    if type(value) is tuple:
        return all(_is_literal(v) for v in value)
    return value is None or value is Ellipsis or type(value) in (bool, int, float, complex, str, bytes, frozenset)


class CannotRun(Exception):
    """The harness cannot run this object (the reason is counted)."""


def _globals_for(code: types.CodeType) -> Dict[str, Any]:
    """Fresh globals: a Tracer per global name the original loads (builtins
    stay real: the Tracer answers the protocols they use), and the names the
    decompiled source gives non-literal constants bound to the same objects."""
    from unveil._live import describe

    env: Dict[str, Any] = {}
    for name in _loaded_globals(code):
        if not hasattr(builtins, name):
            env[name] = Tracer(f"global:{name}")
    for obj in _non_literals(code):
        path = describe(obj).split(".")
        if not all(p.isidentifier() for p in path):
            raise CannotRun(f"constant {describe(obj)!r} has no bindable name")
        if len(path) == 1:
            if getattr(builtins, path[0], None) is not obj:
                env[path[0]] = obj
            continue
        if isinstance(env.get(path[0]), Tracer):
            raise CannotRun(f"constant {describe(obj)} collides with global {path[0]}")
        node = env.setdefault(path[0], types.SimpleNamespace())
        for part in path[1:-1]:
            node = node.__dict__.setdefault(part, types.SimpleNamespace())
        setattr(node, path[-1], obj)
    return env


def _decompiled_code(original: types.CodeType, source: str) -> types.CodeType:
    """The function code compiled from the printed def, nested in an outer
    function that binds the original's free variables (no class around it:
    that would mangle Dynamo's `__resume_at_*` globals)."""
    body = ast.parse(source).body
    outer = ast.parse("def __unveil_behaviour_outer__():\n    pass").body[0]
    assert isinstance(outer, ast.FunctionDef)
    cells: List[ast.stmt] = []
    if original.co_freevars:
        cells = [ast.Assign(targets=[ast.Name(id=n, ctx=ast.Store()) for n in original.co_freevars],
                            value=ast.Constant(value=None))]
    outer.body = cells + body
    module = ast.fix_missing_locations(ast.Module(body=[outer], type_ignores=[]))
    outer_code = next(c for c in compile(module, original.co_filename, "exec").co_consts if isinstance(c, types.CodeType))
    found = [c for c in outer_code.co_consts if isinstance(c, types.CodeType) and c.co_name == original.co_name]
    if len(found) != 1:
        raise CannotRun(f"decompiled source defines {len(found)} functions named {original.co_name}")
    return found[0]


def _function(code: types.CodeType, env: Dict[str, Any], owner: type) -> types.FunctionType:
    cells = tuple(types.CellType(owner if n == "__class__" else Tracer(f"free:{n}")) for n in code.co_freevars)
    return types.FunctionType(code, env, code.co_name, None, cells)


@dataclass
class Comparison:
    equal: bool
    difference: str = ""
    kind: str = ""
    endings: Tuple[str, ...] = ()  # how each run of the original ended: "return" or the exception type
    raising_runs: int = 0  # runs compared in which one stand-in call raised


def _show(event: Any) -> str:
    text = repr(event)
    return text if len(text) <= 240 else text[:237] + "..."


def compare_behaviour(original: types.CodeType, source: str) -> Comparison:
    decompiled = _decompiled_code(original, source)
    endings: List[str] = []
    runs: List[Tuple[str, int]] = [(mode, 0) for mode in BOOL_MODES]
    raising = 0
    while runs:
        mode, raise_at = runs.pop(0)
        owner = type("Owner", (Tracer,), {"__slots__": ()})  # the class in the `__class__` cell
        env = _globals_for(original)
        expected = _renumbered(_run(_function(original, env, owner), owner, mode, raise_at))
        owner = type("Owner", (Tracer,), {"__slots__": ()})
        env = _globals_for(original)
        got = _renumbered(_run(_function(decompiled, env, owner), owner, mode, raise_at))
        if mode == "true" and not raise_at:  # the calls the original makes decide the raising runs
            runs.extend(("true", k) for k in range(1, min(expected.calls, RAISING_CALLS) + 1))
        if raise_at:
            raising += 1
            mode = f"call {raise_at} raises"
        else:
            endings.append("return" if expected.outcome[0] == "return" else expected.outcome[1])
        for k, (a, b) in enumerate(zip(expected.events, got.events)):
            if a != b:
                return Comparison(False, f"[{mode}] event {k}: original {_show(a)} / decompiled {_show(b)}",
                                  f"event {a[0]} vs {b[0]}", tuple(endings), raising)
        if len(expected.events) != len(got.events):
            k = min(len(expected.events), len(got.events))
            extra = expected.events[k:] or got.events[k:]
            who = "original" if len(expected.events) > k else "decompiled"
            return Comparison(False, f"[{mode}] event {k}: only the {who} goes on with {_show(extra[0])}",
                              f"only the {who} does {extra[0][0]}", tuple(endings), raising)
        if expected.outcome != got.outcome:
            return Comparison(False, f"[{mode}] outcome: original {_show(expected.outcome)} / decompiled {_show(got.outcome)}",
                              f"outcome {expected.outcome[0]} vs {got.outcome[0]}", tuple(endings), raising)
    return Comparison(True, endings=tuple(endings), raising_runs=raising)


def load_entries(corpus: str) -> Iterator[Tuple[str, Dict[str, Any]]]:
    """(file name, entry) of every transformed code object in the corpus."""
    files = sorted(f for f in glob.glob(os.path.join(corpus, "*.pkl")) if not f.endswith(".original.pkl"))
    for path in files:
        with open(path, "rb") as f:
            entry = _NoGlobals(f).load()
        if entry.get("kind") == "transformed":
            yield os.path.basename(path), entry


@dataclass
class Survey:
    total: int = 0
    clean: int = 0
    compiles: int = 0
    failures: List[str] = field(default_factory=list)
    reasons: "collections.Counter[str]" = field(default_factory=collections.Counter)
    checked: int = 0
    same: int = 0
    differences: List[str] = field(default_factory=list)
    difference_kinds: "collections.Counter[str]" = field(default_factory=collections.Counter)
    cannot_run: "collections.Counter[str]" = field(default_factory=collections.Counter)
    endings: "collections.Counter[str]" = field(default_factory=collections.Counter)
    raising_runs: int = 0


def survey(corpus: str, behaviour: bool = True,
           alter: Optional[Callable[[str], str]] = None) -> Survey:
    """Decompile every transformed code object, compile the output and (with
    `behaviour`) compare behaviour. `alter` edits each decompiled source before
    the behaviour check (the tests break the output on purpose with it)."""
    import unveil

    s = Survey()
    for name, entry in load_entries(corpus):
        s.total += 1
        try:
            code = build_code(entry["code"])
            source = unveil.decompile(code)
        except Exception as e:  # a failure of ours, counted and shown
            s.failures.append(f"{name}: {type(e).__name__}: {e}")
            continue
        if FALLBACK_MARK not in source:
            s.clean += 1
        else:
            reason = next((ln for ln in source.splitlines() if "could not decompile" in ln), "?")
            s.reasons[reason.split(": ", 2)[-1].split(" at offset")[0]] += 1
        try:
            compile(source, name, "exec")
            s.compiles += 1
        except SyntaxError as e:
            s.failures.append(f"{name}: output does not compile: {e}")
            continue
        if not behaviour:
            continue
        try:
            result = compare_behaviour(code, alter(source) if alter else source)
        except CannotRun as e:
            s.cannot_run[str(e)] += 1
            continue
        s.checked += 1
        s.endings.update(result.endings)
        s.raising_runs += result.raising_runs
        if result.equal:
            s.same += 1
        else:
            s.difference_kinds[result.kind] += 1
            s.differences.append(f"{name}: {result.difference}")
    return s


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default=DEFAULT_CORPUS)
    parser.add_argument("--show", type=int, default=5)
    parser.add_argument("--behaviour", action=argparse.BooleanOptionalAction, default=True,
                        help="run original and decompiled code on recording stand-ins and compare (default: on)")
    args = parser.parse_args()
    if sys.version_info[:2] != (3, 10):
        raise SystemExit("dynamo_corpus: the corpus is CPython 3.10 bytecode; run it with Python 3.10")
    s = survey(args.corpus, args.behaviour)
    print(f"| 3.10 | {s.total} | {s.clean} ({100.0 * s.clean / max(s.total, 1):.1f}%) "
          f"| {s.compiles} ({100.0 * s.compiles / max(s.total, 1):.1f}%) |")
    if args.behaviour:
        print(f"behaviour: checked {s.checked}, equal {s.same} ({100.0 * s.same / max(s.checked, 1):.1f}%), "
              f"differing {s.checked - s.same}, cannot run {sum(s.cannot_run.values())}")
        print(f"   runs of the original ({len(BOOL_MODES)} per object) ended by: "
              + ", ".join(f"{k} x{n}" for k, n in s.endings.most_common())
              + f"; plus {s.raising_runs} runs where stand-in call k <= {RAISING_CALLS} raises")
        for kind, n in s.difference_kinds.most_common(args.show):
            print(f"   difference x{n}: {kind}")
        for line in s.differences[: args.show]:
            print("  ", line)
        for why, n in s.cannot_run.most_common(args.show):
            print(f"   cannot run x{n}: {why}")
    for line in s.failures[: args.show]:
        print("  ", line, file=sys.stderr)
    for reason, n in s.reasons.most_common(args.show):
        print(f"   fallback x{n}: {reason}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
