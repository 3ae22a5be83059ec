"""Text arguments as every command takes them: ``-`` is stdin, ``@path`` a file, else itself.

Long texts (a session's context, a resumption note, memories to wrap) come from the agent
through a pipe or a file; files are read bounded (``files.bounded``) and decoded like
memory files (UTF-8, BOM and CRLF tolerated, a clear error otherwise).
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import NotFoundError, UsageError


def read_file(name: str) -> str:
    """A whole file as text, or stdin for ``-``."""
    if name == "-":
        return sys.stdin.read()
    from ..files.text import decode

    return decode(read_input_file(name), name)[0]


def read_input_file(name: str) -> bytes:
    """The bytes of a file a command was handed: bounded like every read (a pipe or a
    device is refused by its type, a file over the memory-file limit by its size)."""
    from ..files.bounded import read_file
    from ..files.text import MAX_FILE_BYTES

    try:
        return read_file(Path(name), limit=MAX_FILE_BYTES, what="input file", shown=name)
    except NotFoundError:
        raise UsageError(f"cannot read {name}: no such file") from None


def text_arg(value: str | None) -> str | None:
    """The text an option stands for; ``None`` stays ``None``."""
    if value is None:
        return None
    if value == "-" or (value.startswith("@") and len(value) > 1):
        return read_file(value if value == "-" else value[1:])
    return value
