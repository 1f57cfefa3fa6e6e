"""The exceptions unveil raises for input it cannot read.

Every error says what is wrong and, where it applies, the byte offset (into the
.pyc file, the marshal stream or ``co_code``) where it went wrong.
"""
from typing import Optional


class UnveilError(Exception):
    """Base class of every error about the input unveil was given."""

    def __init__(self, message: str, offset: Optional[int] = None, detail: str = "") -> None:
        super().__init__(message)
        self.offset = offset
        self.detail = detail or message


class PycError(UnveilError):
    """The .pyc header is truncated or names an unknown Python version."""


class MarshalError(UnveilError):
    """The marshalled data is truncated, has a bad type code or a bad reference."""


class CodeObjectError(UnveilError):
    """A code object's fields have the wrong type or do not fit together."""


class DecodeError(UnveilError):
    """The bytecode is invalid: an unknown opcode, a jump outside the code..."""


class UnsupportedVersionError(UnveilError):
    """The bytecode belongs to a Python version unveil does not support."""


class LimitError(UnveilError):
    """The input is valid but past one of unveil's own limits: a syntax tree
    nested deeper than it prints (1500 levels), code objects nested more than
    200 deep, or an instruction whose stack effect its tables lack."""
