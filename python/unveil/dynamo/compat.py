"""Everything that depends on the installed torch version lives here.

Support window: torch 2.5 to 2.14 (``SUPPORTED_WINDOW``; 2.14.1's hooks, cache-entry,
compile-id and ``_exec_with_source`` code read the same as 2.13's, and the model
corpus runs under it). Inside it each
private torch API is reached through one function below; outside it unveil
warns once and tries the same calls, failing softly where they are missing.
"""
import contextlib
import logging
import re
import warnings
from typing import Any, Callable, Iterator, List, Optional, Tuple

SUPPORTED_WINDOW: Tuple[Tuple[int, int], Tuple[int, int]] = ((2, 5), (2, 14))
TRACE_LOGGER_NAME = "torch.__trace"  # structured trace: records carry .metadata/.payload

_version_checked = False


def torch_version() -> Tuple[int, int]:
    import torch

    m = re.match(r"(\d+)\.(\d+)", torch.__version__)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def check_version() -> bool:
    """True inside the support window; otherwise warn (once) and return False."""
    global _version_checked
    v = torch_version()
    low, high = SUPPORTED_WINDOW
    ok = low <= v <= high
    if not ok and not _version_checked:
        warnings.warn(
            f"unveil.dynamo supports torch {low[0]}.{low[1]} to {high[0]}.{high[1]}; "
            f"torch {v[0]}.{v[1]} is untested, dumps may be incomplete",
            RuntimeWarning,
            stacklevel=3,
        )
    _version_checked = True
    return ok


def register_bytecode_hook(hook: Callable) -> Any:
    """``hook(code, new_code) -> Optional[code]``; returns a handle with ``remove()``."""
    from torch._dynamo import convert_frame

    return convert_frame.register_bytecode_hook(hook)


def hook_count() -> int:
    from torch._dynamo import convert_frame

    return len(getattr(convert_frame, "_bytecode_hooks", {}))


def current_compile_id() -> Optional[str]:
    """The compile id ("0/0", "1/2", "!0/0/0" for compiled autograd) of the running compile."""
    try:
        from torch._guards import CompileContext

        cid = CompileContext.current_compile_id()
    except Exception:
        return None
    return None if cid is None else str(cid)


def cache_entries(code: Any) -> List[Any]:
    """Dynamo's cache entries for ``code``, most recent first."""
    try:
        from torch._dynamo.eval_frame import _debug_get_cache_entry_list

        return list(_debug_get_cache_entry_list(code))
    except Exception:
        return []


def entry_compile_id(entry: Any) -> Optional[str]:
    cid = getattr(entry, "compile_id", None)
    return None if cid is None else str(cid)


def entry_guard_code_parts(entry: Any) -> Optional[List[str]]:
    """The guard expressions of a cache entry (C++ guard manager or, before ≈2.6, check_fn)."""
    gm = getattr(entry, "guard_manager", None) or getattr(entry, "check_fn", None)
    if gm is None:
        return None
    parts = getattr(gm, "code_parts", None)
    return list(parts) if parts is not None else None


def entry_guard_tree(entry: Any) -> str:
    gm = getattr(entry, "guard_manager", None) or getattr(entry, "check_fn", None)
    try:
        return str(gm)
    except Exception as exc:  # pragma: no cover - depends on torch build
        return f"<guard tree unavailable: {exc}>"


def bytecode_logger() -> logging.Logger:
    """The logger behind TORCH_LOGS=+bytecode."""
    import torch._logging

    return torch._logging.getArtifactLogger("torch._dynamo.convert_frame", "bytecode")


def structured_trace_seconds() -> float:
    """Seconds torch has spent on structured-trace events in this process so far
    (building payloads and calling handlers; torch only builds them while a handler
    such as ours listens). 0.0 where torch does not count it."""
    try:
        from torch._logging import _internal

        return float(sum(getattr(_internal, "structured_logging_overhead", {}).values()))
    except Exception:
        return 0.0


def is_resume_code(name: str) -> bool:
    return name.startswith("torch_dynamo_resume_in_") or name.startswith("<resume in ")


@contextlib.contextmanager
def capture_all_graph_passes() -> Iterator[None]:
    """Turn off Inductor's caches while dumping: on a cache hit no graph pass runs."""
    try:
        import torch._inductor.config as inductor_config
    except Exception:
        yield
        return
    with contextlib.ExitStack() as stack:
        if hasattr(inductor_config, "force_disable_caches"):
            stack.enter_context(inductor_config.patch(force_disable_caches=True))
        try:  # GraphModules compile their code during the compile, not at first call
            from torch.fx._lazy_graph_module import _force_skip_lazy_graph_module

            stack.enter_context(_force_skip_lazy_graph_module())
        except ImportError:
            pass
        yield


@contextlib.contextmanager
def run_cached_only() -> Iterator[None]:
    """Run what Dynamo already compiled; frames without a matching entry run eagerly."""
    import torch

    set_stance = getattr(getattr(torch, "compiler", None), "set_stance", None)
    if set_stance is not None:  # torch >= 2.6
        with set_stance("eager_on_recompile"):
            yield
        return
    import torch._dynamo

    with torch._dynamo.run():  # 2.5: the run-only context
        yield


def distributed_rank() -> Optional[int]:
    try:
        import torch.distributed as dist

        if dist.is_available() and dist.is_initialized():
            return int(dist.get_rank())
    except Exception:
        pass
    return None


def fx_exec_with_source() -> Tuple[Any, Any]:
    """(module, function): torch.fx's ``_exec_with_source(src, globals, co_fields)``,
    which compiles every GraphModule's code under an ``<eval_with_key>`` name."""
    try:
        import torch.fx.graph_module as gm_module
    except Exception:
        return None, None
    fn = getattr(gm_module, "_exec_with_source", None)
    return (gm_module, fn) if fn is not None else (None, None)
