"""Every FX graph stage and Inductor's output code, from torch's structured trace.

A ``logging.Handler`` on ``torch.__trace`` receives each artifact with its
compile id, so files are keyed by compile id rather than by guessed counters.
"""
import logging
import threading
import time
from typing import Any, Callable, Dict, List, Optional

from . import compat
from .dump import DumpDir, compile_key

STAGES: Dict[str, str] = {
    "dynamo_output_graph": "dynamo",  # Dynamo's captured graph
    "aot_joint_graph": "aot_joint",
    "aot_forward_graph": "aot_forward",
    "aot_backward_graph": "aot_backward",
    "aot_inference_graph": "aot_inference",
    "inductor_pre_grad_graph": "pre_grad",
    "inductor_post_grad_graph": "post_grad",
    "inductor_output_code": "inductor_output",
}
# artifacts logged as trace_structured("artifact", {"name": ...}) (newer torch)
ARTIFACT_STAGES: Dict[str, str] = {
    "before_pre_grad_graph": "pre_grad_before",
    "after_pre_grad_graph": "pre_grad",
    "before_joint_graph": "joint_before_passes",
    "after_joint_graph": "joint_after_passes",
    "before_post_grad_graph": "post_grad_before",
    "inductor_post_grad_graph": "post_grad",
    "fx_graph_runnable": "fx_graph_runnable",
}


def _record_key(md: dict) -> Optional[str]:
    frame, attempt = md.get("frame_id"), md.get("frame_compile_id")
    if frame is None or attempt is None:
        return None
    key = f"{frame}_{attempt}"
    if md.get("compiled_autograd_id") is not None:
        key = f"ca{md['compiled_autograd_id']}_{key}"
    return key


class GraphCollector(logging.Handler):
    def __init__(self, dump: DumpDir, on_file: Callable[[str, str], None]) -> None:
        super().__init__(level=logging.DEBUG)
        self.dump = dump
        self.on_file = on_file  # (compile key, file name)
        self.lock_ = threading.Lock()
        self.errors: List[str] = []
        self._logger: Optional[logging.Logger] = None

    def emit(self, record: logging.LogRecord) -> None:
        t0 = time.perf_counter()
        try:
            self._emit(record)
        finally:  # so the torch-side cost of the trace can be told apart from ours
            sec = self.dump.seconds
            sec["trace_handler"] = sec.get("trace_handler", 0.0) + time.perf_counter() - t0

    def _emit(self, record: logging.LogRecord) -> None:
        md = getattr(record, "metadata", None)
        if not isinstance(md, dict) or not md:
            return
        name = next(iter(md))
        stage = STAGES.get(name)
        if name == "artifact" and isinstance(md.get(name), dict):
            stage = ARTIFACT_STAGES.get(str(md[name].get("name")))
        if stage is None:
            return
        payload = getattr(record, "payload", None)
        if not isinstance(payload, str):
            return
        try:
            key = _record_key(md) or "unknown"
            header = [f"# {stage} of compile {key.replace('_', '/')} (torch artifact {name!r}), written by unveil."]
            info = md.get(name)
            if isinstance(info, dict) and info.get("filename"):
                header.append(f"# Inductor wrote it to {info['filename']}")
            with self.lock_:
                fname = self.dump.unique(f"__compiled_fn_{key}.{stage}")
                self.dump.write(fname, "\n".join(header) + "\n" + payload.rstrip("\n") + "\n",
                                kind="graph", stage=stage, compile_key=key)
            self.on_file(key, fname)
        except Exception as exc:  # never break a compile over a dump
            self.errors.append(f"{name}: {exc}")

    def attach(self) -> None:
        self._logger = logging.getLogger(compat.TRACE_LOGGER_NAME)
        self._logger.addHandler(self)

    def detach(self) -> None:
        if self._logger is not None:
            self._logger.removeHandler(self)
            self._logger = None


class FxSourceFiles:
    """While attached, every GraphModule compiled during a torch.compile gets its
    Python code from a real file under ``graph_code/`` in the dump, so pdb and
    debugpy can step into the graph code (eager and aot_eager backends)."""

    SUBDIR = "graph_code"

    def __init__(self, dump: DumpDir) -> None:
        self.dump = dump
        self._module: Any = None
        self._orig: Any = None
        self._by_src: Dict[str, str] = {}
        self.errors: List[str] = []

    def _exec(self, src: str, globals_: dict, co_fields: Optional[dict] = None) -> None:
        cid = compat.current_compile_id()
        if cid is None:
            return self._orig(src, globals_, co_fields)
        try:
            path = self._by_src.get(src)
            if path is None:
                key = compile_key(cid)
                folder = self.dump.folder / self.SUBDIR
                folder.mkdir(exist_ok=True)
                name = self.dump.unique(f"{self.SUBDIR}/__compiled_fn_{key}.forward")
                text = (f"# A GraphModule's code, compiled for compile {cid}; written by unveil.\n"
                        "# torch.fx runs this file: breakpoints here stop in the graph code.\n" + src)
                path = str(self.dump.write(name, text, kind="graph_code", compile_key=key))
                self._by_src[src] = path
            with open(path, encoding="utf-8") as f:
                code = compile(f.read(), path, "exec", dont_inherit=True)
        except Exception as exc:  # fall back to torch's own naming
            self.errors.append(str(exc))
            return self._orig(src, globals_, co_fields)
        exec(code, globals_)  # noqa: S102 - this is what torch.fx does with the same source

    def attach(self) -> None:
        self._module, self._orig = compat.fx_exec_with_source()
        if self._module is not None:
            setattr(self._module, "_exec_with_source", self._exec)

    def detach(self) -> None:
        if self._module is not None:
            setattr(self._module, "_exec_with_source", self._orig)
            self._module = self._orig = None
        self._by_src.clear()
