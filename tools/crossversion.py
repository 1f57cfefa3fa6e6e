"""Run a command under every pyenv Python 3.8-3.13, each with unveil installed.

    python tools/crossversion.py install            # venv + pip install . per version
    python tools/crossversion.py pytest [ARGS...]   # tests/python under each version
    python tools/crossversion.py equivalence [ARGS] # tools/dis_equivalence.py per version
    python tools/crossversion.py run -- CMD...      # any command; {python} is replaced

Virtual environments live in .venvs/py3X (ignored by git); the wheel each
install builds stays in build/wheels. Use --versions 3.11,3.12
to select. --jobs 2 runs two versions at a time (each version's output is
printed whole, in version order, when it is done). Exits non-zero if any
version failed.
"""
import argparse
import glob
import io
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Dict, List, Optional, TextIO, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VERSIONS = ["3.8", "3.9", "3.10", "3.11", "3.12", "3.13"]
WHEELS = os.path.join(ROOT, "build", "wheels")  # the wheels `install` builds, one per version


def pyenv_root() -> str:
    try:
        return subprocess.run(["pyenv", "root"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return os.path.expanduser("~/.pyenv")


def interpreters(wanted: List[str]) -> Dict[str, str]:
    found = {}
    for version in wanted:
        candidates = sorted(glob.glob(os.path.join(pyenv_root(), "versions", version + ".*", "bin", "python")))
        if not candidates:
            raise SystemExit(f"crossversion: no pyenv Python {version} under {pyenv_root()}/versions")
        found[version] = candidates[-1]
    return found


def venv_python(version: str) -> str:
    return os.path.join(ROOT, ".venvs", "py" + version.replace(".", ""), "bin", "python")


def run(cmd: List[str], out: Optional[TextIO] = None) -> int:
    """Runs `cmd` in the repository; with `out`, its output goes there instead
    of to this process's own stdout and stderr (a version run beside others)."""
    print("+", " ".join(cmd), file=out or sys.stdout, flush=True)
    if out is None:
        return subprocess.call(cmd, cwd=ROOT)
    done = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out.write(done.stdout)
    return done.returncode


def wheel_of(version: str) -> str:
    """The wheel `install` built last for `version`, in WHEELS ("" if none)."""
    tag = "cp" + version.replace(".", "")
    found = glob.glob(os.path.join(WHEELS, f"unveil-*-{tag}-{tag}-*.whl"))
    return max(found, key=os.path.getmtime) if found else ""


def install(version: str, base_python: str, pgo: bool = True, out: Optional[TextIO] = None) -> int:
    py = venv_python(version)
    if not os.path.exists(py):
        if run([base_python, "-m", "venv", os.path.dirname(os.path.dirname(py))], out):
            return 1
    if run([py, "-m", "pip", "install", "-q", "pytest"], out):
        return 1
    # --no-pgo: one build instead of build, train, rebuild (cmake/ProfileGuided.cmake).
    no_pgo = [] if pgo else ["--config-settings=cmake.define.UNVEIL_PGO=OFF"]
    # Built as a wheel kept in WHEELS, so that other venvs of the same Python
    # (scripts/test.sh's torch stages) install it instead of building again:
    # every build compiles nanobind anew, in a temporary folder ccache misses.
    if run([py, "-m", "pip", "wheel", "-q", "--no-deps", "-w", WHEELS, *no_pgo, "."], out):
        return 1
    return run([py, "-m", "pip", "install", "-q", "--force-reinstall", "--no-deps", wheel_of(version)], out)


def one_version(version: str, base: str, args: argparse.Namespace, extra: List[str],
                out: Optional[TextIO]) -> Optional[str]:
    """Installs and runs the action under one Python; what failed, or None."""
    if not args.no_install and install(version, base, pgo=not args.no_pgo, out=out):
        return version + " (install)"
    if args.action == "install":
        return None
    py = venv_python(version)
    if args.action == "pytest":
        cmd = [py, "-m", "pytest", "-q", *extra]
    elif args.action == "equivalence":
        cmd = [py, os.path.join("tools", "dis_equivalence.py"), *extra]
    else:
        cmd = [py if a == "{python}" else a for a in extra]
    return version if run(cmd, out) else None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--versions", default=",".join(VERSIONS))
    parser.add_argument("--no-install", action="store_true", help="use the venvs as they are")
    parser.add_argument("--no-pgo", action="store_true",
                        help="install without the profile-guided build (faster to build, slower to run)")
    parser.add_argument("--jobs", type=int, default=1, help="versions run at a time")
    parser.add_argument("action", choices=["install", "pytest", "equivalence", "run"])
    parser.add_argument("args", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    extra = [a for a in args.args if a != "--"]

    failed: List[str] = []
    versions = interpreters(args.versions.split(","))
    if args.jobs <= 1:
        for version, base in versions.items():
            print(f"=== Python {version} ===", flush=True)
            failure = one_version(version, base, args, extra, None)
            if failure:
                failed.append(failure)
    else:
        # Each version writes into its own buffer; they are printed in order.
        def job(item: Tuple[str, str]) -> Tuple[str, Optional[str]]:
            buffer = io.StringIO()
            failure = one_version(item[0], item[1], args, extra, buffer)
            return buffer.getvalue(), failure

        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            # Newest first: newer Pythons take longest (3.13's dis is three
            # times 3.8's), and starting the long jobs first leaves no core
            # idle at the end. The output still comes in version order.
            futures = {item[0]: pool.submit(job, item) for item in reversed(versions.items())}
            for version in versions:
                output, failure = futures[version].result()
                print(f"=== Python {version} ===", flush=True)
                sys.stdout.write(output)
                sys.stdout.flush()
                if failure:
                    failed.append(failure)
    if failed:
        print("crossversion: failed on " + ", ".join(failed), file=sys.stderr)
        return 1
    print("crossversion: all versions passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
