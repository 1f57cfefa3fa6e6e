"""prepare_debug(), debug(), install() and uninstall()."""
import contextlib
import os
import sys
import threading
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

from . import compat
from .dump import DumpDir, compile_key, find_dump
from .graphs import FxSourceFiles, GraphCollector
from .guards import full_code
from .hooks import DumpHook, LogHook

_lock = threading.Lock()
_active: Optional[str] = None          # "prepare_debug" or "debug" while one runs
_last_dump: Optional[Path] = None      # folder of this process's last prepare_debug
_log_handle: Any = None


class UnveilUsageError(RuntimeError):
    """prepare_debug/debug used the wrong way (nested, no dump, ...)."""


def _enter(kind: str) -> None:
    global _active
    with _lock:
        if _active is not None:
            raise UnveilUsageError(f"unveil: {kind}() cannot run inside {_active}(); "
                                   f"leave the {_active}() block first")
        _active = kind


def _leave() -> None:
    global _active
    with _lock:
        _active = None


def _write_full_code(dump: DumpDir, hook: DumpHook) -> None:
    """One full_code_for_<fn>_<n>.py per compiled code object, from its cache entries."""
    by_code: Dict[int, List[Any]] = {}
    order: List[Any] = []
    for rec in hook.frames:
        if rec.code is None:
            continue
        if id(rec.code) not in by_code:
            by_code[id(rec.code)] = []
            order.append(rec)
        by_code[id(rec.code)].append(rec)
    per_name: Dict[str, int] = {}
    for first in order:
        code = first.code
        recs = {r.key: r for r in by_code[id(code)]}
        entries = []
        for entry in compat.cache_entries(code):
            key_cid = compat.entry_compile_id(entry)
            key = compile_key(key_cid) if key_cid else None
            rec = recs.get(key) if key else None
            if rec is None:
                continue
            entries.append((key, entry, rec.file, rec.source))
        n = per_name.get(first.fn_key, 0)
        per_name[first.fn_key] = n + 1
        name = f"full_code_for_{first.fn_key}_{n}.py"
        try:
            text = full_code(code, first.fn_key, entries)
        except Exception as exc:
            hook.warn(f"unveil: could not write {name}: {type(exc).__name__}: {exc}")
            continue
        dump.write(name, text, kind="full_code", fn=code.co_name)


@contextlib.contextmanager
def prepare_debug(dump_src_dir: "os.PathLike[str] | str", clean_wild_fx_code: bool = True,
                  log_bytecode: bool = False, quiet: bool = False) -> Iterator[Path]:
    """Dump everything torch.compile generates inside the block to ``dump_src_dir``
    and run the transformed code compiled from the dumped files.

    Yields the folder written (``dump_src_dir``, or ``rank_<r>``/``process_<pid>``
    under it). ``clean_wild_fx_code``: first remove the files an earlier process
    dumped there (only files its manifest lists). ``log_bytecode`` is accepted for
    depyf compatibility (use install() for the bytecode log).
    """
    global _last_dump
    compat.check_version()
    _enter("prepare_debug")
    handle = collector = fx_files = None
    hook: Optional[DumpHook] = None
    trace_start = compat.structured_trace_seconds()
    try:
        dump = DumpDir(dump_src_dir, compat.distributed_rank())
        if clean_wild_fx_code:
            dump.clean_stale()
        hook = DumpHook(dump, quiet=quiet)
        collector = GraphCollector(dump, hook.on_graph_file)
        collector.attach()
        fx_files = FxSourceFiles(dump)
        fx_files.attach()
        handle = compat.register_bytecode_hook(hook)
        with compat.capture_all_graph_passes():
            yield dump.folder
    finally:
        try:
            if handle is not None:
                handle.remove()
            if collector is not None:
                collector.detach()
            if fx_files is not None:
                fx_files.detach()
            if hook is not None:
                sec = hook.dump.seconds
                # torch's side of the structured trace: building the payloads our handler asked for
                sec["trace"] = max(0.0, compat.structured_trace_seconds() - trace_start
                                   - sec.get("trace_handler", 0.0))
                _write_full_code(hook.dump, hook)
                hook.dump.finish()
                _last_dump = hook.dump.folder
                if not quiet:
                    print(f"unveil: wrote {len(hook.dump.written)} files to {hook.dump.folder} "
                          f"(decompiling {sec.get('decompile', 0.0):.3f} s, writing {sec.get('write', 0.0):.3f} s, "
                          f"structured trace {sec['trace']:.3f} s)", file=sys.stderr)
        finally:
            if hook is not None:
                hook.release()
                hook.frames.clear()
            _leave()


@contextlib.contextmanager
def debug(dump_src_dir: "Optional[os.PathLike[str] | str]" = None, pause: Optional[bool] = None,
          quiet: bool = False) -> Iterator[Path]:
    """Run the code dumped by prepare_debug so breakpoints in the dumped files fire.

    In the process that ran prepare_debug, only cached code runs and nothing new is
    compiled (frames without a matching entry run eagerly). In a later process,
    frames compile again and each runs the code compiled from its dumped file.
    ``pause`` (default: when stdin is a terminal) stops in pdb first, so that
    breakpoints can be set in the dumped files.
    """
    compat.check_version()
    if _active is not None:
        raise UnveilUsageError(f"unveil: debug() cannot run inside {_active}(); leave the {_active}() block first")
    root = dump_src_dir if dump_src_dir is not None else _last_dump
    if root is None:
        raise UnveilUsageError("unveil: debug() needs a dump: run prepare_debug(dir) first, "
                               "or pass the directory it wrote")
    folder = find_dump(root)
    if folder is None:
        raise UnveilUsageError(f"unveil: no unveil dump in {Path(root).resolve()}; "
                               "run prepare_debug() on it first")
    _enter("debug")
    handle = fx_files = None
    hook: Optional[DumpHook] = None
    try:
        same_process = _last_dump is not None and Path(folder) == Path(_last_dump)
        if same_process:
            ctx = compat.run_cached_only()
        else:
            hook = DumpHook(DumpDir.existing(folder), reuse=True, quiet=True)
            handle = compat.register_bytecode_hook(hook)
            fx_files = FxSourceFiles(hook.dump)  # graph code from files again
            fx_files.attach()
            ctx = compat.capture_all_graph_passes()
        with ctx:
            if pause or (pause is None and sys.stdin is not None and sys.stdin.isatty()):
                print(f"unveil: the dumped code is in {folder}; set breakpoints there "
                      "(b <file>:<line>), then continue (c)", file=sys.stderr)
                breakpoint()  # noqa: T100 - the documented pause
            yield folder
    finally:
        if handle is not None:
            handle.remove()
        if fx_files is not None:
            fx_files.detach()
        if hook is not None:
            hook.release()
            hook.frames.clear()
        _leave()


def install() -> None:
    """Add decompiled source (or the disassembly) to the TORCH_LOGS=+bytecode log."""
    global _log_handle
    compat.check_version()
    with _lock:
        if _log_handle is None:
            _log_handle = compat.register_bytecode_hook(LogHook())


def uninstall() -> None:
    """Undo install()."""
    global _log_handle
    with _lock:
        if _log_handle is not None:
            _log_handle.remove()
            _log_handle = None
