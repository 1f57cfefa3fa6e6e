"""Run the standard library's own tests against decompiled modules.

For each module M of a list (pure-Python modules with a `test.test_M`), the
running Python's `Lib/M.py` is compiled, decompiled with the CLI, and put
first on `sys.path`; `test.test_M` then runs against it in a fresh process,
and its summary is compared with the same tests on the original module. This
checks behaviour on real code, where the round trip only compares bytecode.

A module whose tests differ while unveil said it gave up somewhere in it
(its fallback raises "unveil could not decompile ...") is *fallback*; tests
that differ where unveil decompiled every function are a *silent*
difference: output that runs and is wrong.

    python tools/stdlib_tests.py --cli build/cpp-release/cli/unveil-decompile
    python tools/stdlib_tests.py textwrap shlex          # only these modules
    python3 tools/crossversion.py --no-install run -- {python} tools/stdlib_tests.py

Exit status 1 when any module's tests differ silently.
"""
import argparse
import os
import py_compile
import re
import subprocess
import sys
import sysconfig
import tempfile
from typing import List, Tuple

FALLBACK_MARK = "unveil could not decompile"

# Pure-Python modules whose test.test_<name> imports them by name (a module
# the interpreter imports at start-up, such as os or re, would not be
# replaced; packages are left out).
MODULES = [
    "argparse", "base64", "bisect", "bz2", "calendar", "cmd", "code", "codeop", "colorsys", "configparser",
    "contextlib", "copy", "csv", "dataclasses", "difflib", "dis", "filecmp", "fileinput", "fnmatch", "fractions",
    "getopt", "gettext", "glob", "graphlib", "gzip", "heapq", "imaplib", "inspect", "ipaddress", "lzma", "mailbox",
    "netrc", "optparse", "pickletools", "plistlib", "pprint", "queue", "quopri", "reprlib", "sched", "secrets",
    "selectors", "shelve", "shlex", "socketserver", "statistics", "string", "struct", "symtable", "tabnanny",
    "tarfile", "tempfile", "textwrap", "tokenize", "trace", "typing", "uuid", "wave", "zipapp",
]
RUNNER = (
    "import sys; sys.path.insert(0, {dir!r}); import {m}\n"
    "assert {m}.__file__.startswith({dir!r}), 'the original module was imported: ' + {m}.__file__\n"
    "import unittest; unittest.main(module='test.test_{m}', exit=False)\n"
)
SUMMARY = re.compile(r"^(?:OK|FAILED)\b.*$", re.M)


def run_tests(module: str, directory: str, timeout: float) -> Tuple[str, str]:
    """(summary line, whole output) of test.test_<module> with `directory` first on the path."""
    code = RUNNER.format(dir=directory, m=module)
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout,
                              cwd=directory)
    except subprocess.TimeoutExpired:
        return "TIMEOUT", ""
    text = done.stdout + done.stderr
    summaries = SUMMARY.findall(text)
    last = summaries[-1] if summaries else (text.strip().splitlines() or ["no output"])[-1]
    return last, text


def check(module: str, cli: List[str], lib: str, work: str, timeout: float) -> Tuple[str, str, str, int]:
    """(verdict, original summary, decompiled summary, fallbacks) for one module."""
    source = os.path.join(lib, module + ".py")
    original_dir = os.path.join(work, "original", module)
    decompiled_dir = os.path.join(work, "decompiled", module)
    os.makedirs(original_dir)
    os.makedirs(decompiled_dir)
    with open(source, encoding="utf-8") as f, open(os.path.join(original_dir, module + ".py"), "w") as out:
        out.write(f.read())
    pyc = os.path.join(work, module + ".pyc")
    py_compile.compile(source, cfile=pyc, doraise=True)
    done = subprocess.run(cli + [pyc], capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        return "decompile failed", "", done.stderr.strip()[-200:], 0
    with open(os.path.join(decompiled_dir, module + ".py"), "w", encoding="utf-8") as out:
        out.write(done.stdout)
    fallbacks = done.stdout.count(f"raise RuntimeError('{FALLBACK_MARK}")
    theirs, _ = run_tests(module, original_dir, timeout)
    ours, text = run_tests(module, decompiled_dir, timeout)
    if ours == theirs:
        return "same", theirs, ours, fallbacks
    # (A test may run the module in a child process, whose traceback it does
    # not show: with a fallback anywhere in the module, its failures count
    # as the fallback's.)
    return ("fallback" if fallbacks or FALLBACK_MARK in text else "SILENT"), theirs, ours, fallbacks


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("modules", nargs="*", help="modules to check (default: a list of %d)" % len(MODULES))
    parser.add_argument("--cli", default=os.path.join(os.path.dirname(sys.executable), "unveil-decompile"))
    parser.add_argument("--lib", default=sysconfig.get_paths()["stdlib"])
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args()
    version = "%d.%d" % sys.version_info[:2]
    modules = [m for m in (args.modules or MODULES) if os.path.exists(os.path.join(args.lib, m + ".py"))]
    counts = {"same": 0, "fallback": 0, "SILENT": 0, "decompile failed": 0}
    print(f"| Python {version} module | verdict | fallbacks | original | decompiled |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="unveil-stdlib-tests-") as work:
        for module in modules:
            verdict, theirs, ours, fallbacks = check(module, args.cli.split(), args.lib, work, args.timeout)
            counts[verdict] += 1
            print(f"| {module} | {verdict} | {fallbacks} | {theirs} | {ours} |", flush=True)
    print(f"Python {version}: {len(modules)} modules: {counts['same']} same, {counts['fallback']} differ only "
          f"where unveil gave up, {counts['SILENT']} differ silently, {counts['decompile failed']} not decompiled")
    return 1 if counts["SILENT"] or counts["decompile failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
