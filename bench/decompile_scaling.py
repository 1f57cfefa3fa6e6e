"""How decompile time grows with function size.

    python bench/decompile_scaling.py                       # 1k, 10k, 100k instructions
    python bench/decompile_scaling.py --sizes 1000 10000    # quicker
    python tools/crossversion.py --no-install run -- {python} bench/decompile_scaling.py

For each shape, a synthetic function of about 1k, 10k and 100k instructions
is generated as source and compiled with the running Python; then
`unveil.decompile` of its code object is timed in CPU time of this process
(generating and compiling are not timed), in --repeat rounds (30). A round
times one call of each size, each right after an untimed call of the same
size (so that every timed call finds the caches as the call before it left
them, as a run of calls of one size would). The table gives, per size, the
best run and the median; and per 10x step the ratio of the best runs, of the
medians, and the median over rounds of each round's own ratio ("paired").
The paired ratio compares calls made a few milliseconds apart, so a machine
that changes speed during the run (a shared one does, by 20-50% from one
minute to the next) moves it much less than the ratio of two sizes timed a
minute apart; the verdict is on it. (Every size gets the same number of
runs: the best of 200 runs of a small size against the best of 20 of a big
one, as an earlier version took, favours the small one, as the chance of a
quiet run grows with the number of runs.) Shapes:

* straight: assignments and arithmetic, no jumps;
* branchy: a run of if/elif/else statements with and/or conditions;
* loops: for/while loops nested three deep with break, continue and if/else.

The size is the number of instructions `dis` lists (caches excluded). Each
shape runs in a child process with a --timeout, so that a hang or a crash is
reported, not suffered. The table gives milliseconds per call and, per
10x step, the time ratio (target: at most 12x); "per 10x" scales the ratio
by the actual instruction ratio, which is close to 10 but not exactly.

The 100k sizes do not fit in the caches, and on a shared machine their time
moves more than the 10k sizes' do. `--count` gives the
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
from typing import Callable, Dict, List, Optional, Sequence

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from decompile_vs_depyf import FALLBACK_MARK  # noqa: E402  (what unveil prints for code it gives up on)

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


def child_once(shape: str, target: int) -> Dict[str, object]:
    """One call, for callgrind to count exactly."""
    import unveil

    code = function_code(shape, blocks_for(shape, target))
    text = unveil.decompile(code)
    return {"instructions": instruction_count(code), "seconds": 0.0, "lines": text.count("\n"),
            "fallback": FALLBACK_MARK in text}


def child_rounds(shape: str, targets: List[int], repeat: int) -> List[Dict[str, object]]:
    """Every size of `shape`, timed in `repeat` rounds of one call each (see the module's doc)."""
    import unveil

    codes = [function_code(shape, blocks_for(shape, t)) for t in targets]
    texts = [unveil.decompile(code) for code in codes]  # (the module's one-time set-up is not timed)
    times: List[List[float]] = [[] for _ in codes]
    for _ in range(repeat):
        for code, runs in zip(codes, times):
            unveil.decompile(code)  # leaves the caches as a run of this size would
            start = time.process_time()
            unveil.decompile(code)
            runs.append(time.process_time() - start)
        if sum(runs[-1] for runs in times) > 60:  # slow calls are measured well enough by fewer rounds
            break
    return [{"instructions": instruction_count(code), "seconds": min(runs), "median": statistics.median(runs),
             "runs": runs, "lines": text.count("\n"), "fallback": FALLBACK_MARK in text}
            for code, runs, text in zip(codes, times, texts)]


def run_child(args: List[str], timeout: float, wrap: Sequence[str] = ()) -> object:
    """The JSON a child prints, or {"error": ...} for a timeout, a crash or an exit status."""
    cmd = [*wrap, sys.executable, os.path.abspath(__file__), *args]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timeout: no result within {timeout:g}s"}
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        return {"error": f"exit status {done.returncode}: {last}"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure_rounds(shape: str, targets: List[int], repeat: int, timeout: float) -> List[Dict[str, object]]:
    result = run_child(["--child", shape, *map(str, targets), "--repeat", str(repeat)], timeout)
    return [result] * len(targets) if isinstance(result, dict) else result  # type: ignore[list-item]


def measure_count(shape: str, target: int, timeout: float) -> Dict[str, object]:
    """One call's machine instructions inside the C++ call (callgrind), in "seconds"."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        wrap = ["valgrind", "--tool=callgrind", "--toggle-collect=*decompile_live*", f"--callgrind-out-file={out}"]
        result = run_child(["--child", shape, str(target), "--once"], timeout, wrap)
        assert isinstance(result, dict)
        if "error" in result:
            return result
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
    parser.add_argument("--repeat", type=int, default=30, help="timed rounds per shape")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per shape's child")
    parser.add_argument("--count", action="store_true",
                        help="machine instructions executed (callgrind) instead of time")
    parser.add_argument("--child", nargs="+", metavar="SHAPE SIZE", help=argparse.SUPPRESS)
    parser.add_argument("--once", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        shape, targets = args.child[0], [int(t) for t in args.child[1:]]
        out = child_once(shape, targets[0]) if args.once else child_rounds(shape, targets, args.repeat)
        print(json.dumps(out))
        return 0

    version = "%d.%d" % sys.version_info[:2]
    what = "machine instructions of one call" if args.count else f"{args.repeat} rounds of one call per size"
    print(f"Python {sys.version.split()[0]}: unveil.decompile of one synthetic function, {what}\n")
    if args.count:
        print("| Python | shape | instructions | machine instructions | per instruction | ratio | per 10x | output lines |")
        print("|---|---|---|---|---|---|---|---|")
    else:
        print("| Python | shape | instructions | best ms | median ms | µs/instruction (best) "
              "| per 10x: best | median | paired | output lines |")
        print("|---|---|---|---|---|---|---|---|---|---|")
    worst: Dict[str, float] = {}
    for shape in args.shapes:
        if args.count:
            results = [measure_count(shape, t, args.timeout) for t in args.sizes]
        else:
            results = measure_rounds(shape, args.sizes, args.repeat, args.timeout)
        previous: Optional[Dict[str, object]] = None
        for target, r in zip(args.sizes, results):
            if "error" in r:
                print(f"| {version} | {shape} | ~{target} | FAILED: {r['error']} | | | | | | |")
                previous = None
                continue
            n, t = int(r["instructions"]), float(r["seconds"])  # type: ignore[arg-type]
            steps: Dict[str, str] = {}
            if previous is not None:
                per10 = 10 / (n / int(previous["instructions"]))  # type: ignore[arg-type]
                ratios = {"best": t / float(previous["seconds"])}  # type: ignore[arg-type]
                if not args.count:
                    ratios["median"] = float(r["median"]) / float(previous["median"])  # type: ignore[arg-type]
                    ratios["paired"] = statistics.median(
                        b / a for a, b in zip(previous["runs"], r["runs"]))  # type: ignore[arg-type, call-overload]
                for kind, ratio in ratios.items():
                    worst[kind] = max(worst.get(kind, 0.0), ratio * per10)
                    steps[kind] = f"{ratio * per10:.1f}x"
            mark = " (fallback)" if r["fallback"] else ""
            if args.count:
                raw = f"{t / float(previous['seconds']):.1f}x" if previous else ""  # type: ignore[arg-type]
                cost = f"{t:.0f} | {t / n:.0f} | {raw} | {steps.get('best', '')}"
            else:
                median = float(r["median"])  # type: ignore[arg-type]
                cost = (f"{t * 1e3:.3g} | {median * 1e3:.3g} | {t / n * 1e6:.2f} | {steps.get('best', '')} "
                        f"| {steps.get('median', '')} | {steps.get('paired', '')}")
            print(f"| {version} | {shape} | {n} | {cost} | {r['lines']}{mark} |", flush=True)
            previous = r
    if worst:
        print()
        if args.count:
            verdict("machine-instruction", worst["best"])
        else:
            verdict("time, paired rounds (median of each round's own ratio)", worst["paired"])
            print(f"  (best runs: {worst['best']:.1f}x; medians: {worst['median']:.1f}x)")
    return 0


def verdict(measured: str, worst: float) -> None:
    print(f"worst {measured} ratio per 10x instructions: {worst:.1f}x (target <= {TARGET:g}x): "
          f"{'met' if worst <= TARGET else 'NOT met'}")


if __name__ == "__main__":
    sys.exit(main())
