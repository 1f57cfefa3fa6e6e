"""unveil demo (foundation stage): read and disassemble bytecode of any version.

1. Disassembles a live function of the running Python with the C++ core.
2. Compiles the same source with every other pyenv Python it finds and reads
   those .pyc files too: one reader for 3.8-3.14, whichever Python runs it.
The torch.compile demo arrives with the torch layer.
"""
import glob
import os
import subprocess
import sys
import tempfile

import unveil

SOURCE = '''
def scale(xs, factor=2, *, clip=None):
    out = []
    for x in xs:
        y = x * factor
        if clip is not None and y > clip:
            y = clip
        out.append(y)
    return out
'''


def main() -> None:
    namespace: dict = {}
    exec(compile(SOURCE, "<demo>", "exec"), namespace)
    print(f"# Python {sys.version.split()[0]}: unveil.disassemble(scale)")
    print(unveil.disassemble(namespace["scale"]))

    out_dir = tempfile.mkdtemp(prefix="unveil-demo-")
    src = os.path.join(out_dir, "scale.py")
    with open(src, "w") as f:
        f.write(SOURCE)
    root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    for python in sorted(glob.glob(os.path.join(root, "versions", "3.*", "bin", "python"))):
        version = python.split(os.sep)[-3]
        pyc = os.path.join(out_dir, f"scale-{version}.pyc")
        code = f"import py_compile; py_compile.compile({src!r}, cfile={pyc!r}, doraise=True)"
        if subprocess.call([python, "-c", code], stderr=subprocess.DEVNULL) != 0:
            continue
        try:
            header = unveil.pyc_header(pyc)
            listing = unveil.disassemble_pyc(pyc)
        except unveil.UnveilError as e:  # e.g. 3.6/3.7 pycs: not supported
            print(f"# {version}: {e}")
            continue
        n = sum(1 for line in listing.splitlines() if line.strip()[:1].isdigit() or ">>" in line)
        print(f"# {version}: magic {header['magic']} -> Python {header['python']}, {n} listing lines")
    print(f"\nThe .pyc files are in {out_dir}; try: unveil-decompile --disasm {out_dir}/scale-3.8.18.pyc")


if __name__ == "__main__":
    main()
