"""One redactor for everything that enters memory: transcripts, tool output, agents' text.

Agents paste keys into chats and tools echo ``.env`` files; a memory file is read by every
later session and often committed to git, so a secret that reaches one leaks for good.
Each secret is replaced by ``[REDACTED:<kind>]`` and the words around it are kept, so the
memory still says *that* a key was set, never *which*.

- ``redact(text) -> (clean_text, count)``: for a workflow that wants to report a count or
  show text (transcript tails, search results).
- ``redact_write(store, path, text)``: the choke point ``files.store.Store`` applies to
  every memory file it writes, redacting only the lines a write adds.
- ``stored_cell(value)`` / ``stored_row(values)``: what a table cell (a row) reads back
  as, so a writer's verification compares what it meant with what the file can hold.

The known token formats are in ``patterns``, secrets found by their name (settings, flags,
``credentials:`` blocks, "my password is …") in ``named`` and ``names``, the merging of
findings in ``engine``, and the changed-lines logic in ``changes``.
"""

from __future__ import annotations

from .engine import find_secrets, redact

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from pathlib import Path

    from ..files.store import Store


def stored_cell(value: str) -> str:
    """``value`` as a markdown table cell holds it after the write path redacted it."""
    from ..files.tables import escape_cell, unescape_cell

    escaped = escape_cell(value)
    clean, count = redact(escaped)
    return unescape_cell(clean) if count else value


def stored_row(values: list[str]) -> list[str]:
    """A table row's cells as they read back; one cheap test when none holds a secret."""
    from .engine import might_hold_secret

    if not might_hold_secret("\n".join(values)):
        return values
    return [stored_cell(value) for value in values]


def redact_write(store: Store, path: Path, text: str) -> str:
    """See ``changes.redact_write`` (imported on first write, not with this package)."""
    from .changes import redact_write as apply

    return apply(store, path, text)


__all__ = ["find_secrets", "redact", "redact_write", "stored_cell", "stored_row"]
