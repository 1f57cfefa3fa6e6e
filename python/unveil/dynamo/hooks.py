"""The bytecode hooks: dump (prepare_debug), reuse dumped files (debug in a
later process) and log decompiled source (install)."""
import logging
import sys
import time
import types
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Set

from . import compat
from .dump import DumpDir, compile_key, safe_name
from .source import RUNS_LINE, Rendered, recompile, render

log = logging.getLogger("unveil.dynamo")


class UnveilDumpWarning(UserWarning):
    """A frame could not be decompiled or dumped; Dynamo's own bytecode runs."""


@dataclass
class FrameRecord:
    code: Optional[types.CodeType]  # dropped when the context exits
    compile_id: str
    key: str
    fn_key: str
    file: str
    source: Optional[str]           # decompiled text, None when disassembly
    replaced: bool                  # the running code is compiled from the file
    graphs: List[str] = field(default_factory=list)


class _Warner:
    def __init__(self) -> None:
        self.seen: Set[str] = set()

    def __call__(self, message: str) -> None:
        if message not in self.seen:
            self.seen.add(message)
            warnings.warn(message, UnveilDumpWarning, stacklevel=2)


def _graph_names(code: types.CodeType) -> List[str]:
    return sorted(n for n in code.co_names if n.startswith("__compiled_fn"))


class DumpHook:
    """``hook(code, new_code)`` for Dynamo: writes the transformed code and
    returns code compiled from the written file (or None to keep Dynamo's)."""

    def __init__(self, dump: DumpDir, reuse: bool = False, quiet: bool = False) -> None:
        self.dump = dump
        self.reuse = reuse  # debug() in a later process: load existing files
        self.quiet = quiet
        self.frames: List[FrameRecord] = []
        self.graph_files: Dict[str, List[str]] = {}
        self.warn = _Warner()
        self._unnamed = 0

    def on_graph_file(self, key: str, fname: str) -> None:
        self.graph_files.setdefault(key, []).append(fname)

    def __call__(self, code: types.CodeType, new_code: types.CodeType) -> Optional[types.CodeType]:
        try:
            return self._handle(code, new_code)
        except Exception as exc:  # a dump problem must never stop the compile
            self.warn(f"unveil: could not dump {code.co_name}: {type(exc).__name__}: {exc}")
            return None

    def _handle(self, code: types.CodeType, new_code: types.CodeType) -> Optional[types.CodeType]:
        cid = compat.current_compile_id()
        if cid is None:
            self._unnamed += 1
            cid = f"unknown{self._unnamed}"
        key = compile_key(cid)
        fn_key = safe_name(code.co_name)
        fname = f"__transformed_code_{key}_for_{fn_key}.py"
        path = self.dump.path(fname)
        if self.reuse and path.exists():
            return self._reuse(code, new_code, cid, key, fn_key, fname, path)
        t0 = time.perf_counter()
        rendered = render(code, new_code, cid)
        self.dump.seconds["decompile"] = self.dump.seconds.get("decompile", 0.0) + time.perf_counter() - t0
        self.dump.write(fname, rendered.text, kind="transformed", compile_id=cid, fn=code.co_name)
        out: Optional[types.CodeType] = None
        if rendered.decompiled:
            try:
                out = recompile(rendered, str(path), code, new_code)
            except Exception as exc:
                reason = f"{type(exc).__name__}: {exc}" if not isinstance(exc, ValueError) else str(exc)
                self.warn(f"unveil: {code.co_name} (compile {cid}): decompiled source not used ({reason}); "
                          "Dynamo's own bytecode runs")
                self._mark_not_running(rendered, new_code, fname, reason)
        else:
            self.warn(f"unveil: could not decompile {code.co_name} (compile {cid}): {rendered.reason}; "
                      "Dynamo's own bytecode runs and the dump holds its disassembly")
        rec = FrameRecord(code, cid, key, fn_key, fname, rendered.text if out is not None else None,
                          out is not None)
        self.frames.append(rec)
        if not self.quiet:
            graphs = self.graph_files.get(key, [])
            stages = ", ".join(g.split(".")[1] for g in graphs) or "none"
            mode = "source" if out is not None else "disassembly" if not rendered.decompiled else "source (not run)"
            names = ", ".join(_graph_names(new_code)) or "no graph"
            print(f"unveil: compile {cid} {code.co_name} ({Path(code.co_filename).name}:{code.co_firstlineno}): "
                  f"{fname} [{mode}]; {names}; stages: {stages}", file=sys.stderr)
        return out

    def _mark_not_running(self, rendered: Rendered, new_code: types.CodeType, fname: str, reason: str) -> None:
        import unveil

        try:
            listing = unveil.disassemble(new_code)
        except Exception as exc:
            listing = f"(disassembly failed: {exc})"
        note = [f"# NOTE: this source is NOT what runs ({reason}); Dynamo runs its own bytecode:"]
        note += ["# " + ln if ln else "#" for ln in listing.splitlines()]
        head = f"# NOT what runs ({reason}); Dynamo runs its own bytecode, listed at the end.".replace("\n", " ")
        text = rendered.text.replace(RUNS_LINE, head, 1)  # same line count
        self.dump.write(fname, text + "\n" + "\n".join(note) + "\n", kind="transformed")

    def _reuse(self, code, new_code, cid, key, fn_key, fname, path) -> Optional[types.CodeType]:
        """A later process: compile the code Dynamo runs from the file already dumped."""
        new_text = render(code, new_code, cid)
        old_text = path.read_text(encoding="utf-8")
        if not new_text.decompiled or "# NOTE: this source is NOT what runs" in old_text:
            return None
        if _strip_constants_note(old_text) != _strip_constants_note(new_text.text):
            self.warn(f"unveil: {fname} differs from what Dynamo generated now; Dynamo's own bytecode runs")
            return None
        # the new render carries the same text, placeholders included
        try:
            out = recompile(new_text, str(path), code, new_code)
        except Exception as exc:
            self.warn(f"unveil: {fname}: {exc}; Dynamo's own bytecode runs")
            return None
        self.frames.append(FrameRecord(code, cid, key, fn_key, fname, old_text, True))
        return out

    def release(self) -> None:
        for rec in self.frames:
            rec.code = None


def _strip_constants_note(text: str) -> str:
    # constant placeholder names carry a random tag; compare without it
    import re

    return re.sub(r"__unveil_const_(\d+)_[0-9a-f]+", r"__unveil_const_\1", text)


class LogHook:
    """install(): adds decompiled source to the TORCH_LOGS=+bytecode log."""

    def __call__(self, code: types.CodeType, new_code: types.CodeType) -> None:
        try:
            logger = compat.bytecode_logger()
            if not logger.isEnabledFor(logging.DEBUG):
                return None
            rendered = render(code, new_code, compat.current_compile_id() or "?")
            kind = "DECOMPILED SOURCE" if rendered.decompiled else "DISASSEMBLY (decompile failed)"
            logger.debug("%s for %s (%s:%d), by unveil:\n%s", kind, code.co_name, code.co_filename,
                         code.co_firstlineno, rendered.text)
        except Exception as exc:
            log.debug("unveil log hook failed: %s", exc)
        return None
