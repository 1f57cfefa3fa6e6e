"""The syntax suite: decompile small programs, recompile them, compare.

Every case under tests/python/syntax/cases/<group>/<name>.py is a tiny module
exercising one construct, with a `main()` entry point and a first line
`# min: 3.X` (the oldest Python whose syntax it needs). For each case the
running Python:

1. compiles the source and decompiles the module code object with
   `unveil.decompile(code)`;
2. checks that the output compiles (*recompiled*);
3. compares the bytecode with unveil.verify (*bytecode-equal*);
4. runs both modules in fresh namespaces, calls `main()` (coroutines with
   asyncio.run, generators and async generators drained), and compares what
   was observed: module-level outcome, return or yielded values, exception
   type and arguments, printed output, and the module's global names
   (*behaviour-equal*).

    python tools/syntax_suite.py                 # against unveil.decompile
    python tools/syntax_suite.py --identity      # the source as output: must be 100%
    python tools/syntax_suite.py --sabotage      # a broken "decompiler": must be less
    python tools/syntax_suite.py --cli           # through `unveil-decompile FILE.pyc`
    python tools/syntax_suite.py -k match --show-diff
    python tools/syntax_suite.py --update-known-failures   # this version's lines
    python tools/crossversion.py --no-install run -- {python} tools/syntax_suite.py

A case may declare `# package: syntaxpkg.sub` to run as a module of that
package (relative imports); by default cases run in the package `syntaxpkg`,
which the runner creates in a temporary directory.

Exit status: 1 when a case fails that tests/python/syntax/known_failures.txt
does not list for this version (in --identity mode: when any case fails).
"""
import argparse
import asyncio
import builtins
import contextlib
import gc
import importlib.util
import inspect
import io
import json
import os
import py_compile
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import types
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

from unveil import FALLBACK_MARK  # what a function unveil gives up on says and raises

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUITE_DIR = os.path.join(ROOT, "tests", "python", "syntax")
CASES_DIR = os.path.join(SUITE_DIR, "cases")
KNOWN_FAILURES = os.path.join(SUITE_DIR, "known_failures.txt")
VERSION = "%d.%d" % sys.version_info[:2]
TIMEOUT_SECONDS = 5.0
PACKAGE = "syntaxpkg"

Decompiler = Callable[[types.CodeType, "Case"], str]


def _load_verify() -> types.ModuleType:
    """unveil.verify, or the same file loaded by path where unveil (and its
    compiled core) is not installed: it only needs the standard library."""
    try:
        from unveil import verify
        return verify
    except ImportError:
        path = os.path.join(ROOT, "python", "unveil", "verify.py")
        spec = importlib.util.spec_from_file_location("unveil_verify", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)  # type: ignore[union-attr]
        return module


verify = _load_verify()


# ---------------------------------------------------------------- cases


@dataclass(frozen=True)
class Case:
    group: str
    name: str
    path: str
    min_version: Tuple[int, int]
    package: str
    source: str

    @property
    def id(self) -> str:
        return f"{self.group}/{self.name}"

    def available(self, version: Tuple[int, int] = sys.version_info[:2]) -> bool:
        return tuple(version) >= self.min_version


_HEADER = re.compile(r"#\s*(min|package):\s*(\S+)")


def parse_case(path: str) -> Case:
    with open(path, encoding="utf-8") as f:
        source = f.read()
    meta: Dict[str, str] = {}
    for line in source.splitlines()[:3]:
        m = _HEADER.match(line)
        if m:
            meta[m.group(1)] = m.group(2)
    if "min" not in meta:
        raise ValueError(f"{path}: the first line must be '# min: 3.X'")
    major, minor = (int(p) for p in meta["min"].split("."))
    group = os.path.basename(os.path.dirname(path))
    name = os.path.splitext(os.path.basename(path))[0]
    return Case(group, name, path, (major, minor), meta.get("package", PACKAGE), source)


def load_cases(root: str = CASES_DIR) -> List[Case]:
    """All cases, sorted by id (whatever the running Python supports)."""
    cases = []
    for group in sorted(os.listdir(root)):
        folder = os.path.join(root, group)
        if os.path.isdir(folder):
            cases.extend(parse_case(os.path.join(folder, n)) for n in sorted(os.listdir(folder))
                         if n.endswith(".py"))
    return cases


def available_cases(root: str = CASES_DIR) -> List[Case]:
    return [c for c in load_cases(root) if c.available()]


def read_known_failures(path: str = KNOWN_FAILURES, version: str = VERSION) -> Dict[str, str]:
    """case id -> reason, for the lines `3.X group/name  # reason` (or `*`
    for every version) that apply to ``version``."""
    known: Dict[str, str] = {}
    if not os.path.exists(path):
        return known
    with open(path, encoding="utf-8") as f:
        for line in f:
            text, _, reason = line.partition("#")
            parts = text.split()
            if len(parts) == 2 and parts[0] in (version, "*"):
                known[parts[1]] = reason.strip()
    return known


# ---------------------------------------------------------- the package


_PACKAGE_FILES = {
    "__init__.py": "VALUE = 'package'\n",
    "helpers.py": (
        "__all__ = ['double', 'NAME', 'Box']\n"
        "NAME = 'helpers'\n"
        "_hidden = 'hidden'\n"
        "def double(x):\n    return 2 * x\n"
        "class Box:\n    def __init__(self, v):\n        self.v = v\n"
        "    def __repr__(self):\n        return 'Box(%r)' % (self.v,)\n"
    ),
    "sub/__init__.py": "SUBVALUE = 7\n",
    "sub/leaf.py": "def leaf():\n    return 'leaf'\nLEAF = 'LEAF'\n",
}


_active: List[str] = []


@contextlib.contextmanager
def package_on_path() -> Iterator[str]:
    """The package `syntaxpkg` (with helpers.py, sub/, sub/leaf.py) in a
    temporary directory on sys.path, for the relative-import cases; nested
    uses share the outer one."""
    if _active:
        yield _active[-1]
        return
    tmp = tempfile.mkdtemp(prefix="syntax-suite-")
    for rel, text in _PACKAGE_FILES.items():
        full = os.path.join(tmp, PACKAGE, rel)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)
    sys.path.insert(0, tmp)
    _active.append(tmp)
    try:
        yield tmp
    finally:
        _active.pop()
        sys.path.remove(tmp)
        _forget_package()
        shutil.rmtree(tmp, ignore_errors=True)


def _forget_package() -> None:
    for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
        del sys.modules[name]


# ----------------------------------------------------------- observing


class CaseTimeout(BaseException):
    """A case ran longer than TIMEOUT_SECONDS (a BaseException so that the
    case's own `except Exception` cannot swallow it)."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise CaseTimeout(f"ran longer than {seconds}s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def shown(value: Any) -> str:
    """A stable text for a value: its repr without memory addresses."""
    try:
        text = repr(value)
    except Exception as e:  # a broken __repr__ is an observation too
        text = f"<repr raised {type(e).__name__}>"
    return _ADDRESS.sub(" at 0x?", text)


def _exception(e: BaseException) -> Tuple[str, ...]:
    return ("raised", type(e).__name__, shown(e.args))


async def _drain_async(agen: Any, out: List[Any]) -> None:
    async for value in agen:
        out.append(shown(value))


def _call_main(main: Any) -> List[Any]:
    result = main()
    events: List[Any] = []
    if inspect.iscoroutine(result):
        result = asyncio.run(result)
    if inspect.isasyncgen(result):
        values: List[Any] = []
        try:
            asyncio.run(_drain_async(result, values))
        finally:
            events.append(("yielded", values))
        return events
    if inspect.isgenerator(result):
        values = []
        try:
            while True:
                values.append(shown(next(result)))
        except StopIteration as stop:
            events.append(("yielded", values))
            events.append(("returned", shown(stop.value)))
        except BaseException:
            events.append(("yielded", values))
            raise
        return events
    events.append(("returned", shown(result)))
    return events


_SIMPLE = (int, float, complex, str, bytes, bool, type(None), tuple, list, dict, set, frozenset)


def observe(code: types.CodeType, case: Case) -> Dict[str, Any]:
    """Run ``code`` as the module of ``case`` and return what could be seen."""
    _forget_package()
    namespace: Dict[str, Any] = {
        "__name__": case.package + "." + case.name,
        "__package__": case.package,
        "__file__": case.path,
        "__builtins__": builtins,
    }
    events: List[Any] = []
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            with time_limit(TIMEOUT_SECONDS):
                try:
                    exec(code, namespace)
                    events.append(("module", "ok"))
                    main = namespace.get("main")
                    if callable(main):
                        events.extend(_call_main(main))
                    else:
                        events.append(("main", "missing"))
                except (KeyboardInterrupt, CaseTimeout):
                    raise
                except BaseException as e:
                    events.append(_exception(e))
        except CaseTimeout as e:
            events.append(("timeout", str(e)))
        names = {k: (shown(v) if isinstance(v, _SIMPLE) else type(v).__name__)
                 for k, v in namespace.items() if not k.startswith("__")}
        # Free the module now (its functions and the namespace form cycles),
        # so that finalisers of what main left behind, such as unfinished
        # generators, run here with their output captured.
        namespace.clear()
        if any(e[0] in ("raised", "timeout") for e in events):
            gc.collect()  # tracebacks keep frames alive in cycles
    return {"events": events, "output": out.getvalue(), "globals": names}


def first_difference(a: Dict[str, Any], b: Dict[str, Any]) -> str:
    for key in a:
        if a[key] != b.get(key):
            return f"{key}: original {a[key]!r}, decompiled {b.get(key)!r}"
    return ""


# -------------------------------------------------------------- checking


@dataclass
class CaseResult:
    case: Case
    decompiled: Optional[str] = None
    recompiled: bool = False
    bytecode_equal: bool = False
    behaviour_equal: bool = False
    problems: List[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return self.recompiled and self.bytecode_equal and self.behaviour_equal

    @property
    def stage(self) -> str:
        """The first check that failed, or 'passed'."""
        if self.decompiled is None:
            return "decompile"
        if not self.recompiled:
            return "recompile"
        if not self.bytecode_equal:
            return "bytecode" if self.behaviour_equal else "bytecode+behaviour"
        return "behaviour" if not self.behaviour_equal else "passed"


def _compile(source: str, path: str) -> types.CodeType:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return compile(source, path, "exec", dont_inherit=True)


def run_case(case: Case, decompiler: Decompiler) -> CaseResult:
    """Judge one case: decompile, recompile, compare bytecode and behaviour."""
    result = CaseResult(case)
    original = _compile(case.source, case.path)
    try:
        result.decompiled = decompiler(original, case)
    except Exception as e:
        result.problems.append(f"decompile failed: {type(e).__name__}: {e}")
        return result
    try:
        recompiled = _compile(result.decompiled, case.path)
    except (SyntaxError, ValueError) as e:
        result.problems.append(f"output does not compile: {type(e).__name__}: {e}")
        return result
    result.recompiled = True
    differences = verify.compare_code(original, recompiled)
    result.bytecode_equal = not differences
    result.problems.extend(differences[:3])
    with package_on_path():
        before = observe(original, case)
        after = observe(recompiled, case)
    result.behaviour_equal = before == after
    if not result.behaviour_equal:
        result.problems.append("behaviour differs: " + first_difference(before, after))
    return result


def identity(code: types.CodeType, case: Case) -> str:
    """The perfect 'decompiler': the original source."""
    return case.source


_SWAPS = [(" + ", " - "), (" == ", " != "), (" < ", " > "), ("True", "False"), (" and ", " or ")]


def sabotage(code: types.CodeType, case: Case) -> str:
    """A deliberately broken 'decompiler': its output compiles but means
    something else wherever one of a few operators occurs."""
    text = case.source
    for a, b in _SWAPS:
        text = text.replace(a, b)
    return text


def unveil_decompiler(code: types.CodeType, case: Case) -> str:
    import unveil
    return unveil.decompile(code)


def cli_decompiler(cli: List[str]) -> Decompiler:
    """Decompile with the command line instead: `CLI FILE.pyc` must print the source."""

    def decompile(code: types.CodeType, case: Case) -> str:
        with tempfile.TemporaryDirectory(prefix="syntax-suite-cli-") as tmp:
            pyc = os.path.join(tmp, case.name + ".pyc")
            py_compile.compile(case.path, cfile=pyc, doraise=True)
            done = subprocess.run(cli + [pyc], capture_output=True, timeout=60)
        if done.returncode != 0:
            lines = done.stderr.decode(errors="replace").strip().splitlines()
            raise RuntimeError(lines[-1] if lines else f"exit status {done.returncode}")
        return done.stdout.decode("utf-8")

    return decompile


def run_all(cases: List[Case], decompiler: Decompiler) -> List[CaseResult]:
    with package_on_path():
        return [run_case(c, decompiler) for c in cases]


# -------------------------------------------------------------- reporting


def percent(n: int, total: int) -> str:
    return f"{n} ({100.0 * n / total:.1f}%)" if total else "0"


def table(results: List[CaseResult], mode: str, elapsed: float) -> str:
    total = len(results)
    rows = [
        "| Python | mode | cases | recompiled | bytecode-equal | behaviour-equal | passed | time |",
        "|---|---|---|---|---|---|---|---|",
        f"| {VERSION} | {mode} | {total} | {percent(sum(r.recompiled for r in results), total)} | "
        f"{percent(sum(r.bytecode_equal for r in results), total)} | "
        f"{percent(sum(r.behaviour_equal for r in results), total)} | "
        f"{percent(sum(r.passed for r in results), total)} | {elapsed:.1f}s |",
    ]
    return "\n".join(rows)


def failures_by_group(results: List[CaseResult], known: Dict[str, str], details: bool) -> str:
    groups: Dict[str, List[CaseResult]] = {}
    for r in results:
        if not r.passed:
            groups.setdefault(r.case.group, []).append(r)
    lines = []
    for group in sorted(groups):
        total = sum(1 for r in results if r.case.group == group)
        lines.append(f"{group}: {len(groups[group])} of {total} failing")
        for r in groups[group]:
            mark = " (known)" if r.case.id in known else ""
            lines.append(f"  {r.case.name}: {r.stage}{mark}")
            if details:
                lines.extend("      " + p for p in r.problems)
    return "\n".join(lines)


MACHINE_MARK = "control flow rebuilt as a state machine"  # unveil's comment on its general fallback


def silent_miscompile(result: CaseResult) -> bool:
    """Output that compiles and behaves differently without unveil saying it
    gave up anywhere: the one failure a listing does not excuse."""
    return (result.recompiled and not result.behaviour_equal and result.decompiled is not None
            and FALLBACK_MARK not in result.decompiled)


def verdict(result: CaseResult, known: Dict[str, str]) -> Tuple[str, str]:
    """('pass' | 'xfail' | 'fail', message) for a result against the known
    failures: a listed case that passes fails too, so the list cannot rot,
    and a silent miscompile fails even when listed."""
    listed = result.case.id in known
    if result.passed and not listed:
        return "pass", ""
    if result.passed:
        return "fail", f"{result.case.id} now passes on {VERSION}: remove it from known_failures.txt"
    if listed and silent_miscompile(result):
        return "fail", (f"{result.case.id} behaves differently on {VERSION} and unveil did not say it gave up "
                        "(a silent miscompile: listing it does not excuse it):\n" + "\n".join(result.problems))
    if listed:
        return "xfail", f"known failure on {VERSION}: {known[result.case.id] or result.stage}"
    return "fail", (f"{result.case.id} failed at {result.stage}:\n" + "\n".join(result.problems)
                    + "\n--- decompiled ---\n" + (result.decompiled or ""))


def known_failure_lines(results: List[CaseResult]) -> List[str]:
    return [f"{VERSION} {r.case.id}  # {r.stage}" for r in results if not r.passed]


def update_known_failures(results: List[CaseResult], path: str = KNOWN_FAILURES) -> int:
    """Replace this version's lines in ``path`` by the current failures; the
    comment header and other versions' lines stay. Returns the line count."""
    header: List[str] = []
    entries: List[str] = []
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                if line.startswith("#") and not entries:
                    header.append(line)
                elif line.strip() and not line.startswith("#") and line.split()[0] != VERSION:
                    entries.append(line)
    fresh = known_failure_lines(results)

    def order(line: str) -> Tuple[Tuple[int, ...], str]:
        version, case_id = line.split()[:2]
        return (tuple(int(p) for p in version.split(".")) if version != "*" else (0,), case_id)

    out = list(header)
    previous = None
    for line in sorted(entries + fresh, key=order):
        version = line.split()[0]
        if version != previous:
            out.append("")
            previous = version
        out.append(line)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    return len(fresh)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--identity", action="store_true", help="use the original source as the output")
    mode.add_argument("--sabotage", action="store_true", help="use a deliberately broken output")
    mode.add_argument("--cli", nargs="?", const=os.path.join(os.path.dirname(sys.executable), "unveil-decompile"),
                      help="decompile .pyc files with this command (default: unveil-decompile next to this Python)")
    parser.add_argument("--state-machine", action="store_true",
                        help="with --cli: ask for the general fallback (a state machine) wherever it fits. Bytecode "
                             "cannot match then; a case fails when it does not recompile or behaves differently "
                             "without saying unveil gave up")
    parser.add_argument("-k", dest="pattern", default="", help="only cases whose id contains this")
    parser.add_argument("--cases", default=CASES_DIR)
    parser.add_argument("--show-diff", action="store_true", help="print why each case failed")
    parser.add_argument("--show-output", metavar="CASE", help="print the decompiled text of CASE")
    parser.add_argument("--list-failures", action="store_true",
                        help="print the failing cases as known_failures.txt lines")
    parser.add_argument("--update-known-failures", action="store_true",
                        help="rewrite this version's lines of known_failures.txt from these results")
    parser.add_argument("--json", help="write per-case results here")
    args = parser.parse_args(argv)

    if args.identity:
        name, decompiler = "identity", identity
    elif args.sabotage:
        name, decompiler = "sabotage", sabotage
    elif args.cli:
        name, decompiler = "cli", cli_decompiler(args.cli.split() + (["--state-machine"] if args.state_machine else []))
    else:
        name, decompiler = "unveil", unveil_decompiler
        try:
            import unveil
            unveil.decompile  # noqa: B018 - fail early and clearly
        except (ImportError, AttributeError) as e:
            print(f"syntax_suite: unveil.decompile is not available ({e})", file=sys.stderr)
            return 2
    cases = [c for c in available_cases(args.cases) if args.pattern in c.id]
    start = time.perf_counter()
    results = run_all(cases, decompiler)
    elapsed = time.perf_counter() - start
    known = {} if args.identity or args.sabotage else read_known_failures()

    print(table(results, name, elapsed))
    report = failures_by_group(results, known, args.show_diff)
    if report:
        print("\nFailing cases by construct:")
        print(report)
    if args.show_output:
        for r in results:
            if r.case.id == args.show_output:
                print(f"\n--- {r.case.id} decompiled ---\n{r.decompiled}")
    if args.list_failures:
        print("\n" + "\n".join(known_failure_lines(results)))
    if args.update_known_failures and name != "identity" and name != "sabotage" and not args.pattern:
        count = update_known_failures(results)
        print(f"\nknown_failures.txt: {count} lines for {VERSION}")
        known = read_known_failures()
    if args.json:
        with open(args.json, "w") as f:
            json.dump([{"case": r.case.id, "stage": r.stage, "problems": r.problems} for r in results], f, indent=1)
    if args.sabotage:
        return 0
    if args.state_machine:
        bad = [r for r in results if not r.recompiled or silent_miscompile(r)]
        machines = sum(1 for r in results if r.decompiled and MACHINE_MARK in r.decompiled)
        print(f"\nstate machine: {machines} of {len(results)} cases wrote one; "
              f"{len(bad)} do not recompile or behave differently without saying unveil gave up")
        for r in bad:
            print(f"  {r.case.id}: {r.stage}\n" + "\n".join("      " + p for p in r.problems))
        return 1 if bad else 0
    unexpected = [r for r in results if not r.passed and r.case.id not in known]
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
