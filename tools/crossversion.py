"""Run a command under every pyenv Python 3.8-3.13, each with unveil installed.

    python tools/crossversion.py install            # venv + pip install . per version
    python tools/crossversion.py pytest [ARGS...]   # tests/python under each version
    python tools/crossversion.py equivalence [ARGS] # tools/dis_equivalence.py per version
    python tools/crossversion.py run -- CMD...      # any command; {python} is replaced

Virtual environments live in .venvs/py3X (ignored by git). Use --versions 3.11,3.12
to select. Exits non-zero if any version failed.
"""
import argparse
import glob
import os
import subprocess
import sys
from typing import Dict, List

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VERSIONS = ["3.8", "3.9", "3.10", "3.11", "3.12", "3.13"]


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


def run(cmd: List[str], **kwargs) -> int:
    print("+", " ".join(cmd), flush=True)
    return subprocess.call(cmd, cwd=ROOT, **kwargs)


def install(version: str, base_python: str, pgo: bool = True) -> int:
    py = venv_python(version)
    if not os.path.exists(py):
        if run([base_python, "-m", "venv", os.path.dirname(os.path.dirname(py))]):
            return 1
    if run([py, "-m", "pip", "install", "-q", "pytest"]):
        return 1
    # --no-pgo: one build instead of build, train, rebuild (cmake/ProfileGuided.cmake).
    no_pgo = [] if pgo else ["--config-settings=cmake.define.UNVEIL_PGO=OFF"]
    return run([py, "-m", "pip", "install", "-q", *no_pgo, "."])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--versions", default=",".join(VERSIONS))
    parser.add_argument("--no-install", action="store_true", help="use the venvs as they are")
    parser.add_argument("--no-pgo", action="store_true",
                        help="install without the profile-guided build (faster to build, slower to run)")
    parser.add_argument("action", choices=["install", "pytest", "equivalence", "run"])
    parser.add_argument("args", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    extra = [a for a in args.args if a != "--"]

    failed = []
    for version, base in interpreters(args.versions.split(",")).items():
        print(f"=== Python {version} ===", flush=True)
        if not args.no_install and install(version, base, pgo=not args.no_pgo):
            failed.append(version + " (install)")
            continue
        if args.action == "install":
            continue
        py = venv_python(version)
        if args.action == "pytest":
            cmd = [py, "-m", "pytest", "-q", *extra]
        elif args.action == "equivalence":
            cmd = [py, os.path.join("tools", "dis_equivalence.py"), *extra]
        else:
            cmd = [py if a == "{python}" else a for a in extra]
        if run(cmd):
            failed.append(version)
    if failed:
        print("crossversion: failed on " + ", ".join(failed), file=sys.stderr)
        return 1
    print("crossversion: all versions passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
