"""Runs each corpus model eagerly, under plain torch.compile, under
unveil.prepare_debug and then under unveil.debug, and compares the results.

    python -m models.harness --sample            # the CI sample
    python -m models.harness --all               # the whole corpus
    python -m models.harness --only hf/bert ...  # chosen models

Each model runs in its own subprocess (``--child NAME``) so that a crash or a
hang costs one model, not the run. The parent writes reports/models/*.json and
*.md (see report.py).
"""
import argparse
import concurrent.futures
import copy
import io
import json
import os
import re
import resource
import subprocess
import sys
import threading
import time
import traceback
import warnings
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
RUNS_LINE = "# Dynamo runs the code compiled from this file"  # see unveil/dynamo/source.py
_SINK = io.StringIO()  # where the forced-break print writes


# ---------------------------------------------------------------- run plans

@dataclass(frozen=True)
class RunConfig:
    mode: str                  # "infer" or "train"
    backend: str               # "eager", "aot_eager" or "inductor"
    dynamic: bool = False
    brk: str = ""              # "", "print" or "if": a wrapper forcing a graph break

    @property
    def label(self) -> str:
        parts = [self.mode, self.backend] + (["dynamic"] if self.dynamic else []) + \
                ([f"break-{self.brk}"] if self.brk else [])
        return "/".join(parts)

    @property
    def bitwise(self) -> bool:
        return self.backend != "inductor"


def plan(name: str, train: bool = True, inductor: bool = False) -> List[RunConfig]:
    """The runs of one model: inference (eager backend) and a training step
    (aot_eager backend, so AOTAutograd's backward runs too), plus its variants;
    ``inductor``: also both with the inductor backend."""
    from . import BREAK_IF, BREAK_PRINT, DYNAMIC, TORCH_AOT_DIFFERS

    runs = [RunConfig("infer", "eager")]
    if train:
        runs.append(RunConfig("train", "aot_eager"))
        if name in TORCH_AOT_DIFFERS:
            runs.append(RunConfig("train", "eager"))
    if name in DYNAMIC:
        runs.append(RunConfig("infer", "eager", dynamic=True))
    if name in BREAK_PRINT:
        runs.append(RunConfig("train" if train else "infer", "eager", brk="print"))
    if name in BREAK_IF:
        runs.append(RunConfig("infer", "eager", brk="if"))
    if inductor:
        runs.append(RunConfig("infer", "inductor"))
        if train:
            runs.append(RunConfig("train", "inductor"))
    return runs


# ---------------------------------------------------------------- results

@dataclass
class RunResult:
    label: str
    verified: bool = False
    frames: int = 0                 # transformed code objects dumped (one per compile)
    resume_frames: int = 0          # of which resume functions
    recompiled: int = 0             # of which compiled from our decompiled source
    not_decompiled: int = 0         # the dump holds the disassembly
    not_recompiled: int = 0         # decompiled, but the source was not used
    graphs: int = 0                 # graphs handed to the backend
    graph_calls: int = 0            # graph executions under prepare_debug
    debug_graph_calls: int = 0      # ... and under debug (must match: else debug ran eagerly)
    graph_breaks: int = 0
    equal: Dict[str, bool] = field(default_factory=dict)  # comparison -> equal
    max_diff: Dict[str, float] = field(default_factory=dict)
    warnings: List[str] = field(default_factory=list)
    failure: str = ""
    note: str = ""                  # why a comparison was waived (a known torch difference)
    seconds: float = 0.0


@dataclass
class ModelResult:
    name: str
    family: str
    built: bool = False
    verified: bool = False
    params: int = 0
    runs: List[RunResult] = field(default_factory=list)
    failure: str = ""
    seconds: float = 0.0


# ---------------------------------------------------------------- helpers

def tensors_of(x: Any) -> List[Any]:
    """Every tensor in a (nested) output: tensors, dicts (ModelOutput too), lists, tuples."""
    import torch

    if isinstance(x, torch.Tensor):
        return [x]
    if isinstance(x, dict):
        return [t for v in x.values() for t in tensors_of(v)]
    if isinstance(x, (list, tuple)):
        return [t for v in x for t in tensors_of(v)]
    return []


def loss_of(out: Any) -> Any:
    floats = [t for t in tensors_of(out) if t.is_floating_point() and t.requires_grad]
    total = floats[0].float().mean()
    for t in floats[1:]:
        total = total + t.float().mean()
    return total


def infer_step(model: Any, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Any:
    return model(*args, **kwargs)


def train_step(model: Any, opt: Any, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Any:
    out = model(*args, **kwargs)
    loss = loss_of(out)
    loss.backward()
    opt.step()
    return out, loss


def make_break_wrapper(inner: Any, kind: str) -> Any:
    """The model inside a module whose forward has a forced graph break after it."""
    import torch

    class BreakWrapper(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, *args: Any, **kwargs: Any) -> Any:
            out = self.inner(*args, **kwargs)
            first = tensors_of(out)[0]
            if kind == "print":
                print("unveil-models: forced graph break", file=_SINK)
                return out, first * 2
            if first.float().mean() > 0:  # data-dependent: Dynamo breaks the graph here
                return out, first * 2
            return out, first - 1

    return BreakWrapper()


class CountingBackend:
    """Wraps a backend to count the graphs it gets and how often they run."""

    def __init__(self, name: str) -> None:
        self.name, self.graphs, self.calls = name, 0, 0

    def __call__(self, gm: Any, example_inputs: Any) -> Callable[..., Any]:
        from torch._dynamo import lookup_backend

        self.graphs += 1
        compiled = lookup_backend(self.name)(gm, example_inputs)

        def run(*args: Any) -> Any:
            self.calls += 1
            return compiled(*args)
        return run


def compare(a: List[Any], b: List[Any], bitwise: bool) -> Tuple[bool, float]:
    """Equal (bitwise, NaNs matching) or within tolerance; and the largest difference."""
    import torch

    if len(a) != len(b):
        return False, float("inf")
    ok, worst = True, 0.0
    for x, y in zip(a, b):
        if x is None or y is None:
            ok = ok and x is None and y is None
            continue
        if x.shape != y.shape or x.dtype != y.dtype:
            return False, float("inf")
        if not x.is_floating_point():
            ok = ok and torch.equal(x, y)
            continue
        both_nan = torch.isnan(x) & torch.isnan(y)
        diff = torch.where(both_nan, torch.zeros_like(x), (x.double() - y.double()).abs())
        d = float(diff.max()) if diff.numel() else 0.0
        worst = max(worst, d if d == d else float("inf"))
        if bitwise:
            ok = ok and bool(torch.equal(torch.where(both_nan, torch.zeros_like(x), x),
                                         torch.where(both_nan, torch.zeros_like(y), y)))
        else:
            ok = ok and bool(torch.allclose(x, y, rtol=1e-3, atol=1e-3, equal_nan=True))
    return ok, worst


def classify_dump(folder: Path) -> Dict[str, Any]:
    """Per transformed file in an unveil dump: did the running code come from it?"""
    manifest = json.loads((folder / "unveil_dump.json").read_text())
    out = {"frames": 0, "resume_frames": 0, "recompiled": 0, "not_decompiled": 0, "not_recompiled": 0}
    for name, meta in manifest.get("files", {}).items():
        if meta.get("kind") != "transformed":
            continue
        text = (folder / name).read_text(encoding="utf-8", errors="replace")
        out["frames"] += 1
        # the manifest entry of a not-recompiled file lacks "fn": take it from the name
        fn = re.sub(r"^__transformed_code_.*?_for_", "", name)
        if fn.startswith("torch_dynamo_resume_in_"):
            out["resume_frames"] += 1
        if "# unveil could not decompile this code" in text:
            out["not_decompiled"] += 1
        elif "# NOTE: this source is NOT what runs" in text:
            out["not_recompiled"] += 1
        elif RUNS_LINE in text:
            out["recompiled"] += 1
        else:
            out["not_decompiled"] += 1
    return out


# ---------------------------------------------------------------- one model (child)

class Subject:
    """A model with its pristine state, handing out identical copies."""

    def __init__(self, model: Any, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> None:
        import torch

        for m in model.modules():  # dropout off: eager and compiled runs must match bitwise
            if isinstance(m, torch.nn.modules.dropout._DropoutNd):
                m.p = 0.0
        self.model, self.args, self.kwargs = model, args, kwargs
        self.state = copy.deepcopy(model.state_dict())

    def fresh(self, brk: str) -> Any:
        m = copy.deepcopy(self.model)
        m.load_state_dict(self.state)
        return make_break_wrapper(m, brk) if brk else m

    def reset(self, m: Any, brk: str) -> None:
        """Back to the pristine state in place (same objects, so Dynamo's guards still hold).
        Non-persistent buffers are not in the state dict, and a model may replace one on its
        first call (timm's ConViT caches ``rel_indices``): they are put back too."""
        import torch

        inner = m.inner if brk else m
        inner.load_state_dict(self.state)
        pristine = dict(self.model.named_modules())
        for name, module in inner.named_modules():
            for key in getattr(module, "_non_persistent_buffers_set", ()):
                now, then = module._buffers.get(key), pristine[name]._buffers.get(key)
                if now is None or then is None or now.shape != then.shape or now.dtype != then.dtype:
                    module._buffers[key] = None if then is None else then.detach().clone()
                else:
                    with torch.no_grad():
                        now.copy_(then)
        for p in m.parameters():
            p.grad = None


def _execute(cfg: RunConfig, model: Any, opt: Any, fn: Callable[..., Any], subject: Subject) -> List[Any]:
    import torch

    torch.manual_seed(1234)
    if cfg.mode == "infer":
        model.eval()
        with torch.no_grad():
            out = fn(model, subject.args, subject.kwargs)
        return [t.detach().clone() for t in tensors_of(out)]
    model.train()
    out, loss = fn(model, opt, subject.args, subject.kwargs)
    got = [loss.detach().clone()] + [t.detach().clone() for t in tensors_of(out)]
    got += [None if p.grad is None else p.grad.detach().clone() for p in model.parameters()]
    got += [p.detach().clone() for p in model.parameters()]
    return got


def _opt(model: Any) -> Any:
    import torch

    return torch.optim.SGD(model.parameters(), lr=0.01)


def run_config(cfg: RunConfig, subject: Subject, dump_dir: Path, torch_differs: str = "") -> RunResult:
    """One run; ``torch_differs``: this model's known reason why plain torch.compile with this
    backend is not bitwise equal to eager (then unveil must still equal plain bitwise)."""
    import torch
    import torch._dynamo
    from torch._dynamo.utils import counters

    import unveil.dynamo as ud

    res = RunResult(cfg.label)
    t0 = time.perf_counter()
    step = infer_step if cfg.mode == "infer" else train_step

    def call(model: Any, opt: Any, fn: Callable[..., Any]) -> List[Any]:
        if cfg.mode == "infer":
            return _execute(cfg, model, None, lambda m, a, k: fn(m, a, k), subject)
        return _execute(cfg, model, opt, fn, subject)

    stage = "eager"
    caught: List[Any] = []
    folder = Path(dump_dir)
    try:
        m = subject.fresh(cfg.brk)
        eager = call(m, _opt(m), step)

        stage = "plain torch.compile"
        torch._dynamo.reset()
        plain_backend = CountingBackend(cfg.backend)
        m = subject.fresh(cfg.brk)
        plain = call(m, _opt(m), torch.compile(step, backend=plain_backend, dynamic=cfg.dynamic))

        stage = "prepare_debug"
        torch._dynamo.reset()
        counters.clear()
        backend = CountingBackend(cfg.backend)
        m = subject.fresh(cfg.brk)
        opt = _opt(m)
        fn = torch.compile(step, backend=backend, dynamic=cfg.dynamic)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with ud.prepare_debug(dump_dir, quiet=True) as folder:
                under_prepare = call(m, opt, fn)
            res.graph_breaks = sum(counters["graph_break"].values())
            res.graphs, res.graph_calls = backend.graphs, backend.calls
            stage = "debug"
            subject.reset(m, cfg.brk)
            with ud.debug(folder, pause=False, quiet=True):
                under_debug = call(m, opt, fn)
            res.debug_graph_calls = backend.calls - res.graph_calls
        for label, got in (("prepare_debug=plain", under_prepare), ("debug=plain", under_debug),
                           ("prepare_debug=eager", under_prepare), ("plain=eager", plain)):
            ref = eager if label.endswith("eager") else plain
            res.equal[label], res.max_diff[label] = compare(got, ref, cfg.bitwise)
    except Exception as exc:
        where = ""
        tb = exc.__traceback__
        while tb is not None:  # innermost frame in a dumped file: our decompiled code raised
            fname = tb.tb_frame.f_code.co_filename
            if Path(fname).parent == Path(folder):
                where = f" in decompiled code {Path(fname).name}:{tb.tb_lineno}"
            tb = tb.tb_next
        msg = str(exc).splitlines()[0] if str(exc) else ""
        res.failure = f"{stage} raised {type(exc).__name__}: {msg}{where}"[:500]
        traceback.print_exc()
    finally:
        torch._dynamo.reset()
    res.warnings = sorted({str(w.message) for w in caught if issubclass(w.category, ud.UnveilDumpWarning)})
    if (Path(folder) / "unveil_dump.json").exists():
        for k, v in classify_dump(Path(folder)).items():
            setattr(res, k, v)
    if not res.failure:
        all_source = res.frames > 0 and res.recompiled == res.frames
        waived = bool(torch_differs) and not res.equal["plain=eager"]
        if waived:
            res.note = f"eager comparison waived: {torch_differs}"
        same = all(res.equal[k] for k in ("prepare_debug=plain", "debug=plain", "prepare_debug=eager")
                   if not (waived and k == "prepare_debug=eager"))
        ran = res.debug_graph_calls == res.graph_calls
        res.verified = all_source and same and ran
    if not res.verified:
        why = [res.failure] if res.failure else []
        if res.frames == 0 and not res.failure:
            why.append("no frame was compiled")
        if res.not_decompiled:
            why.append(f"{res.not_decompiled}/{res.frames} frames not decompiled")
        if res.not_recompiled:
            why.append(f"{res.not_recompiled}/{res.frames} frames decompiled but not recompiled")
        why += [f"results differ: {k}" for k, v in res.equal.items() if not v and k != "plain=eager"]
        if res.equal and res.debug_graph_calls != res.graph_calls:
            why.append(f"debug() ran {res.debug_graph_calls} graphs, prepare_debug {res.graph_calls}")
        res.failure = "; ".join(why)
    res.seconds = round(time.perf_counter() - t0, 2)
    return res


def run_child(name: str, out_path: Path, dump_root: Path, inductor: bool, threads: int = 2) -> None:
    import torch

    from . import TORCH_AOT_DIFFERS, by_name

    torch.set_num_threads(threads)
    t0 = time.perf_counter()
    spec = by_name()[name]
    result = ModelResult(name, spec.family)
    try:
        torch.manual_seed(0)
        model, args, kwargs = spec.build()
        result.built = True
        result.params = sum(p.numel() for p in model.parameters())
        subject = Subject(model, args, kwargs)
    except Exception as exc:
        result.failure = f"build: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"[:500]
        traceback.print_exc()
    if result.built:
        for i, cfg in enumerate(plan(name, spec.train, inductor)):
            d = dump_root / re.sub(r"[^A-Za-z0-9_.-]", "_", name) / f"{i}_{cfg.label.replace('/', '_')}"
            differs = TORCH_AOT_DIFFERS.get(name, "") if cfg.backend == "aot_eager" else ""
            result.runs.append(run_config(cfg, subject, d, differs))
        result.verified = bool(result.runs) and all(r.verified for r in result.runs)
        bad = [f"{r.label}: {r.failure}" for r in result.runs if not r.verified]
        result.failure = " | ".join(bad)[:2000]
    result.seconds = round(time.perf_counter() - t0, 2)
    rec = asdict(result)
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    # CPU time says what a model costs whatever else the machine is doing
    rec["cpu_seconds"] = round(me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime, 1)
    out_path.write_text(json.dumps(rec, indent=1))


# ---------------------------------------------------------------- parent

def run_parent(names: List[str], out_dir: Path, dump_root: Path, timeout: float, inductor: List[str],
               tag: str, jobs: int = 1) -> List[Dict[str, Any]]:
    from .report import write_reports

    out_dir.mkdir(parents=True, exist_ok=True)
    work = out_dir / "runs"
    work.mkdir(exist_ok=True)
    t0 = time.perf_counter()
    env = dict(os.environ, OMP_NUM_THREADS=str(max(1, 2 // jobs)), PYTHONWARNINGS="ignore::FutureWarning")
    env.setdefault("TORCHINDUCTOR_CACHE_DIR", str(ROOT / "build" / "models-inductor-cache"))
    done = [0]
    lock = threading.Lock()

    def one(name: str) -> Dict[str, Any]:
        path = work / (re.sub(r"[^A-Za-z0-9_.-]", "_", name) + ".json")
        path.unlink(missing_ok=True)
        cmd = [sys.executable, "-m", "models.harness", "--child", name, "--json", str(path),
               "--dump-root", str(dump_root), "--threads", env["OMP_NUM_THREADS"]] + \
              (["--inductor"] if name in inductor else [])
        start = time.perf_counter()
        log = work / (path.stem + ".log")
        try:
            with open(log, "w") as lf:
                proc = subprocess.run(cmd, cwd=ROOT, env=env, stdout=lf, stderr=subprocess.STDOUT,
                                      timeout=timeout)
            rc: Optional[int] = proc.returncode
        except subprocess.TimeoutExpired:
            rc = None
        if path.exists():
            rec = json.loads(path.read_text())
        else:
            family = name.split("/")[0]
            why = f"timed out after {timeout:.0f} s" if rc is None else f"child exited with {rc}"
            rec = asdict(ModelResult(name, family, failure=why))
            rec["seconds"] = round(time.perf_counter() - start, 2)
        state = "verified" if rec["verified"] else ("FAILED: " + rec["failure"][:160])
        with lock:
            done[0] += 1
            print(f"[{done[0]}/{len(names)}] {name} {rec['seconds']:.1f}s (cpu {rec.get('cpu_seconds', 0):.1f}s) "
                  f"{state}", flush=True)
        return rec

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(one, names))  # in corpus order, whatever finishes first
    total = time.perf_counter() - t0
    write_reports(results, out_dir, tag, total)
    return results


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument("--sample", action="store_true", help="the fixed CI sample")
    group.add_argument("--all", action="store_true", help="the whole corpus")
    group.add_argument("--only", nargs="+", metavar="NAME", help="these models (e.g. hf/bert)")
    group.add_argument("--child", metavar="NAME", help=argparse.SUPPRESS)
    group.add_argument("--list", action="store_true", help="print the corpus and exit")
    ap.add_argument("--json", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--out", type=Path, default=ROOT / "reports" / "models")
    ap.add_argument("--dump-root", type=Path, default=ROOT / "build" / "models-dumps")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per model")
    ap.add_argument("--no-inductor", action="store_true", help="skip the inductor runs")
    ap.add_argument("--inductor", action="store_true", help=argparse.SUPPRESS)  # child: add inductor runs
    ap.add_argument("--threads", type=int, default=2, help=argparse.SUPPRESS)  # child: torch threads
    ap.add_argument("--jobs", type=int, default=1,
                    help="models run at once (2: one torch thread each; Dynamo's tracing is single-threaded)")
    ap.add_argument("--tag", default="", help="report name (default: sample, all or only)")
    ap.add_argument("--strict", action="store_true", help="exit with 1 unless every model is verified (CI)")
    a = ap.parse_args(argv)
    if a.child:
        run_child(a.child, a.json, a.dump_root, a.inductor, a.threads)
        return 0
    from . import INDUCTOR, INDUCTOR_SAMPLE, SAMPLE, corpus

    if a.list:
        for s in corpus():
            print(s.name)
        return 0
    names = SAMPLE if a.sample else [s.name for s in corpus()] if a.all else a.only
    tag = a.tag or ("sample" if a.sample else "all" if a.all else "only")
    inductor = [] if a.no_inductor else INDUCTOR_SAMPLE if a.sample else INDUCTOR
    results = run_parent(names, a.out, a.dump_root, a.timeout, inductor, tag, max(1, a.jobs))
    ok = sum(1 for r in results if r["verified"])
    print(f"{ok}/{len(results)} models verified")
    return 1 if a.strict and ok != len(results) else 0


if __name__ == "__main__":
    sys.exit(main())
