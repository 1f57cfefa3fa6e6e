"""unveil.dynamo: readable, debuggable dumps of everything torch.compile generates.

``prepare_debug(dir)`` dumps transformed code, guards, graphs and Inductor code;
``debug()`` runs that code so breakpoints in the dumped files fire;
``install()``/``uninstall()`` add decompiled source to TORCH_LOGS=+bytecode.
Version-dependent torch access lives in :mod:`unveil.dynamo.compat`.
"""
from .debug import UnveilUsageError, debug, install, prepare_debug, uninstall
from .hooks import UnveilDumpWarning

__all__ = ["prepare_debug", "debug", "install", "uninstall", "UnveilUsageError", "UnveilDumpWarning"]
