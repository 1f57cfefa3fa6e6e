"""How decompile time grows with function size.

    python bench/decompile_scaling.py                       # 1k, 10k, 100k instructions
    python bench/decompile_scaling.py --sizes 1000 10000    # quicker
    python tools/crossversion.py --no-install run -- {python} bench/decompile_scaling.py

For each shape, a synthetic function of about 1k, 10k and 100k instructions
is generated as source and compiled with the running Python; then
`unveil.decompile` of its code object is timed: --repeat runs (30) at
every size, in CPU time of this process (generating and compiling are not
timed); the table gives the best run and the median, and the ratios of both.
(Every size gets the same number of runs: the best of 200 runs of a small
size against the best of 20 of a big one, as an earlier version took, favours
the small one on a shared machine, where the chance of a quiet run grows with
the number of runs.) Shapes:

* straight: assignments and arithmetic, no jumps;
* branchy: a run of if/elif/else statements with and/or conditions;
* loops: for/while loops nested three deep with break, continue and if/else.

The size is the number of instructions `dis` lists (caches excluded). Each
(shape, size) runs in a child process with a --timeout, so that a hang or a
crash is reported, not suffered. The table gives milliseconds per call and, per
10x step, the time ratio (target: at most 12x); "per 10x" scales the ratio
by the actual instruction ratio, which is close to 10 but not exactly.

The 100k sizes do not fit in the caches, and on a shared machine their time
moves by 20% from one minute to the next while the 10k sizes stay put, so
the time ratio wanders around 12x with the same build. `--count` gives the
same table in machine instructions executed inside the C++ call (callgrind,
one call each; needs valgrind and a module with its symbols, i.e. a
RelWithDebInfo build): that ratio says whether the work itself grows
linearly, whatever the caches do.
"""
import argparse
import dis
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Callable, Dict, List, Optional

VARS = 24  # locals the generated code cycles through
TARGET = 12.0  # at most this much time per 10x instructions (issue 3)


def _v(i: int) -> str:
    return f"v{i % VARS}"


def straight_block(i: int) -> List[str]:
    return [f"{_v(i)} = {_v(i + 1)} + {_v(i + 2)} * {i % 7 + 1}",
            f"{_v(i + 3)} = ({_v(i)} - {i % 5}) // 3"]


def branchy_block(i: int) -> List[str]:
    return [f"if {_v(i)} > {i % 9} and {_v(i + 1)}:",
            f"    {_v(i + 2)} = {_v(i)} + 1",
            f"elif {_v(i + 3)} < {i % 4} or not {_v(i + 4)}:",
            f"    {_v(i + 5)} -= 2",
            "else:",
            f"    {_v(i + 6)} = {_v(i + 7)} if {_v(i + 8)} else {i % 3}"]


def loops_block(i: int) -> List[str]:
    return [f"for a{i % 3} in range({_v(i)}):",
            f"    while {_v(i + 1)} < {i % 11 + 2}:",
            f"        for b in range({_v(i + 2)}):",
            f"            if b > {i % 5}:",
            "                break",
            f"            elif b == {i % 3}:",
            "                continue",
            f"            {_v(i + 3)} += b",
            f"        {_v(i + 1)} += 1",
            "    else:",
            f"        {_v(i + 4)} = a{i % 3}"]


SHAPES: Dict[str, Callable[[int], List[str]]] = {
    "straight": straight_block,
    "branchy": branchy_block,
    "loops": loops_block,
}


def source_of(shape: str, blocks: int) -> str:
    lines = [f"def synthetic_{shape}(" + ", ".join(f"v{k}" for k in range(VARS)) + "):"]
    for i in range(blocks):
        lines.extend("    " + line for line in SHAPES[shape](i))
    lines.append("    return v0")
    return "\n".join(lines) + "\n"


def function_code(shape: str, blocks: int):  # -> types.CodeType
    module = compile(source_of(shape, blocks), f"<synthetic {shape}>", "exec", dont_inherit=True)
    return next(c for c in module.co_consts if hasattr(c, "co_code"))


def instruction_count(code) -> int:  # noqa: ANN001
    return sum(1 for _ in dis.get_instructions(code))


def blocks_for(shape: str, target: int) -> int:
    """Blocks that give about ``target`` instructions: counted on 100 blocks,
    so that every size of a shape is the same body repeated."""
    per_block = (instruction_count(function_code(shape, 101)) - instruction_count(function_code(shape, 1))) / 100
    return max(1, round(target / per_block))


def child(shape: str, target: int, repeat: int, once: bool = False) -> Dict[str, object]:
    import unveil

    code = function_code(shape, blocks_for(shape, target))
    count = instruction_count(code)
    if once:  # under callgrind: one call is counted exactly
        text = unveil.decompile(code)
        return {"instructions": count, "seconds": 0.0, "lines": text.count("\n"),
                "fallback": "unveil could not decompile" in text}
    times: List[float] = []
    text = unveil.decompile(code)  # (a first call, not timed: the module's one-time set-up)
    while len(times) < repeat:
        start = time.process_time()
        text = unveil.decompile(code)
        times.append(time.process_time() - start)
        if times[-1] > 30:  # a slow call is measured well enough once
            break
    lines = text.count("\n")
    fallback = "unveil could not decompile" in text
    return {"instructions": count, "seconds": min(times), "median": statistics.median(times),
            "lines": lines, "fallback": fallback}


def measure(shape: str, target: int, repeat: int, timeout: float, count: bool = False) -> Dict[str, object]:
    """One child's result; with `count`, "seconds" holds the instructions executed instead."""
    cmd = [sys.executable, os.path.abspath(__file__), "--child", shape, str(target), "--repeat", str(repeat)]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        if count:
            cmd = ["valgrind", "--tool=callgrind", "--toggle-collect=*decompile_live*",
                   f"--callgrind-out-file={out}", *cmd, "--once"]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"error": f"timeout: no result within {timeout:g}s"}
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
            return {"error": f"exit status {done.returncode}: {last}"}
        result = json.loads(done.stdout.strip().splitlines()[-1])
        if count:
            with open(out) as f:
                totals = re.findall(r"^(?:summary|totals): (\d+)", f.read(), re.M)
            if not totals or int(totals[0]) == 0:
                return {"error": "no instructions counted inside decompile_live: is the module stripped?"}
            result["seconds"] = float(totals[0])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--shapes", nargs="+", default=list(SHAPES), choices=list(SHAPES))
    parser.add_argument("--repeat", type=int, default=30, help="timed runs per (shape, size)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per (shape, size) child")
    parser.add_argument("--count", action="store_true",
                        help="machine instructions executed (callgrind) instead of time")
    parser.add_argument("--child", nargs=2, metavar=("SHAPE", "SIZE"), help=argparse.SUPPRESS)
    parser.add_argument("--once", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child[0], int(args.child[1]), args.repeat, args.once)))
        return 0

    version = "%d.%d" % sys.version_info[:2]
    what = "machine instructions of one call" if args.count else f"{args.repeat} runs per size"
    print(f"Python {sys.version.split()[0]}: unveil.decompile of one synthetic function, {what}\n")
    if args.count:
        print("| Python | shape | instructions | machine instructions | per instruction | ratio | per 10x | output lines |")
        print("|---|---|---|---|---|---|---|---|")
    else:
        print("| Python | shape | instructions | best ms | µs/instruction | time ratio | per 10x "
              "| median ms | median per 10x | output lines |")
        print("|---|---|---|---|---|---|---|---|---|---|")
    worst = worst_median = 0.0
    for shape in args.shapes:
        previous: Optional[Dict[str, object]] = None
        for target in args.sizes:
            r = measure(shape, target, args.repeat, args.timeout, args.count)
            if "error" in r:
                print(f"| {version} | {shape} | ~{target} | FAILED: {r['error']} | | | | |")
                previous = None
                continue
            n, t = int(r["instructions"]), float(r["seconds"])  # type: ignore[arg-type]
            ratio = per10 = median_per10 = ""
            if previous is not None:
                size_ratio = n / int(previous["instructions"])  # type: ignore[arg-type]
                raw = t / float(previous["seconds"])  # type: ignore[arg-type]
                scaled = raw * 10 / size_ratio
                worst = max(worst, scaled)
                ratio, per10 = f"{raw:.1f}x", f"{scaled:.1f}x"
                if not args.count:
                    m = float(r["median"]) / float(previous["median"]) * 10 / size_ratio  # type: ignore[arg-type]
                    worst_median = max(worst_median, m)
                    median_per10 = f"{m:.1f}x"
            mark = " (fallback)" if r["fallback"] else ""
            if args.count:
                cost = f"{t:.0f} | {t / n:.0f} | {ratio} | {per10}"
            else:
                median = float(r["median"])  # type: ignore[arg-type]
                cost = f"{t * 1e3:.3g} | {t / n * 1e6:.2f} | {ratio} | {per10} | {median * 1e3:.3g} | {median_per10}"
            print(f"| {version} | {shape} | {n} | {cost} | {r['lines']}{mark} |", flush=True)
            previous = r
    if worst:
        print()
        verdict("machine-instruction" if args.count else "time (best run)", worst)
    if worst_median:
        verdict("time (median run)", worst_median)
    return 0


def verdict(measured: str, worst: float) -> None:
    print(f"worst {measured} ratio per 10x instructions: {worst:.1f}x (target <= {TARGET:g}x): "
          f"{'met' if worst <= TARGET else 'NOT met'}")


if __name__ == "__main__":
    sys.exit(main())
