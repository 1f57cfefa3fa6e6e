"""Helpers that the rendered guard functions of ``full_code_for_*.py`` call.

Each re-checks in Python what Dynamo's C++ guard checks, from the values that
Dynamo printed into the guard (dtype, sizes, strides, ids). Guards on global
interpreter state that Dynamo does not print in checkable form return True
and say so in their docstring.
"""
from typing import Any, Optional, Sequence

import torch

Tensor = torch.Tensor


def _match(actual: Sequence[int], expected: Optional[Sequence[Optional[int]]]) -> bool:
    if expected is None:
        return True
    if len(actual) != len(expected):
        return False
    return all(e is None or int(a) == int(e) for a, e in zip(actual, expected))


def check_tensor(value: Any, cls: type, dispatch_keys: Any, dtype: Any, device: Any = None,
                 requires_grad: Any = None, size: Any = None, stride: Any = None) -> bool:
    """TENSOR_MATCH: type, dtype, device index, requires_grad, sizes and strides (None = dynamic)."""
    if not isinstance(value, cls) or value.dtype != dtype:
        return False
    if device is not None and value.device.index != device:
        return False
    if requires_grad is not None and value.requires_grad != requires_grad:
        return False
    return _match(value.size(), size) and _match(value.stride(), stride)


def check_no_aliasing(*tensors: Any) -> bool:
    """NO_TENSOR_ALIASING: no two of the tensors share storage."""
    seen = set()
    for t in tensors:
        if not isinstance(t, torch.Tensor):
            continue
        ptr = t.untyped_storage().data_ptr()
        if ptr in seen and ptr != 0:
            return False
        seen.add(ptr)
    return True


def ___check_obj_id(obj: Any, expected: int) -> bool:
    """ID_MATCH: the very object Dynamo saw (ids hold within one process)."""
    return id(obj) == expected


def ___check_type_id(obj: Any, expected: int) -> bool:
    """TYPE_MATCH: an object of the very type Dynamo saw (ids hold within one process)."""
    return id(type(obj)) == expected


def ___check_global_state(expected: Optional[dict] = None) -> bool:
    """GLOBAL_STATE: grad mode, deterministic algorithms, thread count and the
    torch-function switch as Dynamo recorded them (autocast and dtype details are
    left to Dynamo)."""
    if not expected:
        return True
    checks = {
        "grad_mode": torch.is_grad_enabled,
        "deterministic_algorithms": torch.are_deterministic_algorithms_enabled,
        "num_threads": torch.get_num_threads,
        "torch_function": torch._C._is_torch_function_enabled,
    }
    for key, now in checks.items():
        if key not in expected:
            continue
        want, got = expected[key], now()
        same = int(want) == int(got) if key == "num_threads" else bool(want) == bool(got)
        if not same:
            return False
    return True


def ___check_torch_function_mode_stack(*_: Any) -> bool:
    """TORCH_FUNCTION_MODE_STACK: checked by Dynamo only; True here."""
    return True


def ___dict_contains(key: Any, d: Any) -> bool:
    return key in d


def ___tuple_iterator_len(it: Any) -> int:
    return it.__length_hint__()


class _Device:
    @property
    def CURRENT_DEVICE(self) -> Any:  # noqa: N802 - the name Dynamo prints
        try:
            from torch.utils._device import CURRENT_DEVICE
        except ImportError:
            return None
        return CURRENT_DEVICE


utils_device = _Device()

NAMES = {
    "torch", "Tensor", "check_tensor", "check_no_aliasing", "___check_obj_id", "___check_type_id",
    "___check_global_state", "___check_torch_function_mode_stack", "___dict_contains",
    "___tuple_iterator_len", "utils_device", "L", "G", "hasattr", "len", "isinstance", "type",
    "id", "getattr", "True", "False", "None", "math", "abs", "int", "float", "bool", "str",
    "tuple", "list", "dict", "set", "all", "any",
}
