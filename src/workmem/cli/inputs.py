"""Text arguments as every command takes them: ``-`` is stdin, ``@path`` a file, else itself.

Long texts (a session's context, a resumption note, memories to wrap) come from the agent
through a pipe or a file; files are decoded like memory files (UTF-8, BOM and CRLF
tolerated, a clear error otherwise).
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import UsageError


def read_file(name: str) -> str:
    """A whole file as text, or stdin for ``-``."""
    if name == "-":
        return sys.stdin.read()
    from ..files.text import decode

    try:
        data = Path(name).read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read {name}: {exc.strerror or exc}") from None
    return decode(data, name)[0]


def text_arg(value: str | None) -> str | None:
    """The text an option stands for; ``None`` stays ``None``."""
    if value is None:
        return None
    if value == "-" or (value.startswith("@") and len(value) > 1):
        return read_file(value if value == "-" else value[1:])
    return value
