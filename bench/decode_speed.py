"""Speed of reading + decoding: every code object of this Python's whole Lib/.

    python bench/decode_speed.py
    python tools/crossversion.py --no-install run -- {python} bench/decode_speed.py

Compiles and marshals every Lib/**/*.py first (not timed), then times, in CPU
seconds, the C++ core reading each marshal stream and decoding every code
object in it with every argument resolved (unveil._core.decode_stats builds
no Python objects). Prints one table row: version, files, code objects,
instructions, CPU seconds, instructions per second.
"""
import marshal
import os
import sys
import sysconfig
import time
import warnings

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from dis_equivalence import compile_file, lib_files  # noqa: E402

from unveil import _core  # noqa: E402


def main() -> None:
    minor = sys.version_info[1]
    blobs = []
    for path in lib_files(sysconfig.get_paths()["stdlib"]):
        code = compile_file(path)
        if code is not None:
            blobs.append(marshal.dumps(code))
    best = None
    for _ in range(3):  # best of three, to keep noise from other processes out
        code_objects = instructions = 0
        start = time.process_time()
        for data in blobs:
            n_code, n_ins = _core.decode_stats(data, minor)
            code_objects += n_code
            instructions += n_ins
        elapsed = time.process_time() - start
        best = elapsed if best is None else min(best, elapsed)
    rate = instructions / best if best else float("inf")
    print(f"| 3.{minor} | {len(blobs)} | {code_objects} | {instructions} | {best:.3f} | {rate / 1e6:.1f} M/s |")


if __name__ == "__main__":
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        main()
