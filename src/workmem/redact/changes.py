"""The choke point: what a write adds to a memory file is redacted before it lands.

``files.store.Store`` calls ``redact_write`` for every file it writes, so no workflow can
store a secret by forgetting to redact (the board, the journal, the facts and the relay
all write through it). Only memory is touched: ``MEMORY.md``, ``HEARTBEAT.md`` and
everything under ``memory/``; platform settings and ``workmem.toml`` are written as given.

A write usually changes a few lines of a long file (one row of a 10,000-row board), so
only the lines the write adds or changes are redacted, not the whole file: the lines
before the first difference and after the last are skipped by comparison, and in
between, a line that the old file's changed part already held is left as it is. Changed
lines separated only by blank lines are redacted as one group, so a secret that spans a
blank line (a PEM key, "my password is" then the value) is seen whole. A changed line that
sits inside an indented block or a TOML table is redacted together with the lines up to
its parent key, so ``credentials:`` still covers a value added under it.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import FormatError
from ..files.text import decode
from ..root import Workspace
from .engine import is_table_row, might_hold_secret, redact
from .names import compiled

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from ..files.store import Store

#: How far above a changed line its parent key is looked for.
MAX_CONTEXT_LINES = 200
_TOML_TABLE = r"[ \t]*\["
_TOML_KEY = r"[ \t]*[\"']?[\w.-]+[\"']?[ \t]*="
_ROOT_FILES = ("MEMORY.md", "HEARTBEAT.md")
#: Block sizes for finding where two texts start to differ: big blocks compare at C speed,
#: each smaller size needs at most 16 comparisons.
_STEPS = (65536, 4096, 256, 16, 1)


def is_memory_file(workspace: Workspace, path: Path) -> bool:
    """Memory (redacted on write), as opposed to settings and platform files."""
    target = path.absolute()
    root = workspace.root.absolute()
    if target.parent == root:
        return target.name in _ROOT_FILES
    return target.is_relative_to(workspace.memory_dir.absolute())


def redact_write(store: Store, path: Path, text: str) -> str:
    """``text`` as it may be written to ``path``: what it adds to the file, redacted.

    The old file is read through ``store`` (confined to the root like every read).
    """
    if not is_memory_file(store.workspace, path):
        return text
    try:
        data = store.read_bytes(path)
        old = None if data is None else _decoded(data, store.show(path))
    except FormatError:
        old = None  # unreadable or oversized before: everything written now is new
    return redact_changes(old, text)


def _decoded(data: bytes, shown: str) -> str:
    """The old text as ``files.text.decode`` reads it; plain UTF-8 (no BOM, no CR) is
    decoded directly, which spares a search for CRLF through a 10,000-row board."""
    if b"\r" in data or data.startswith(b"\xef\xbb\xbf"):
        return decode(data, shown)[0]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return decode(data, shown)[0]  # raises the FormatError that says where


def redact_changes(old: str | None, new: str) -> str:
    """``new`` with the lines it adds to ``old`` (and their parent keys) redacted."""
    if old is None:
        return redact(new)[0]
    head = _common_head(old, new)
    if head == len(old) == len(new):
        return new
    tail = _common_tail(old, new, min(len(old), len(new)) - head)
    # The whole lines around the difference; lines above it only when a parent may matter.
    start = new.rfind("\n", 0, head) + 1
    after = new.find("\n", len(new) - tail)
    reach = (len(new) if after < 0 else after) - (len(new) - tail)
    new_stop, old_stop = len(new) - tail + reach, len(old) - tail + reach
    lines = new[start:new_stop].split("\n")
    known = set(old[start:old_stop].split("\n"))
    changed = [i for i, line in enumerate(lines) if line not in known]
    if not changed:
        return new
    if any(_has_parent(lines[i]) for i in changed):
        start, lines, changed = _with_lines_above(new, start, lines, changed)
    touched = False
    for first, stop in reversed(_runs(lines, changed)):
        run = "\n".join(lines[first:stop])
        if might_hold_secret(run):
            clean, count = redact(run)
            if count:
                lines[first:stop] = clean.split("\n")
                touched = True
    return new[:start] + "\n".join(lines) + new[new_stop:] if touched else new


def _common_head(a: str, b: str) -> int:
    """Length of the common start of ``a`` and ``b``, compared a block at a time."""
    limit = min(len(a), len(b))
    index = 0
    for step in _STEPS:
        while index + step <= limit and a[index : index + step] == b[index : index + step]:
            index += step
    return index


def _common_tail(a: str, b: str, limit: int) -> int:
    """Length of the common end of ``a`` and ``b`` (at most ``limit``)."""
    size = 0
    for step in _STEPS:
        while (
            size + step <= limit
            and a[len(a) - size - step : len(a) - size] == b[len(b) - size - step : len(b) - size]
        ):
            size += step
    return size


def _runs(lines: list[str], changed: list[int]) -> list[tuple[int, int]]:
    """Changed lines grouped into runs, each widened up to its parent key; merged.

    Runs that overlap, touch, or are apart only by blank lines are one run: a blank line
    is rarely new to the file, yet it can sit inside one secret (the headers and body of
    an encrypted PEM key, "my password is" and the password on a later line), which the
    redactor must see whole. (Overlapping or touching runs leave an empty gap.)
    """
    runs: list[tuple[int, int]] = []
    for index in changed:
        start = _parent_of(lines, index)
        while runs and not any(line.strip() for line in lines[runs[-1][1] : start]):
            start = min(start, runs.pop()[0])
        runs.append((start, index + 1))
    return runs


def _has_parent(line: str) -> bool:
    """An indented line, or a ``key = value`` line, may belong to a key above it."""
    return line[:1] in (" ", "\t") or (
        bool(compiled(_TOML_KEY).match(line)) and not is_table_row(line)
    )


def _with_lines_above(
    text: str, start: int, lines: list[str], changed: list[int]
) -> tuple[int, list[str], list[int]]:
    """The window widened by up to ``MAX_CONTEXT_LINES`` lines of ``text`` above it."""
    context = start
    for _ in range(MAX_CONTEXT_LINES):
        if context == 0:
            break
        context = text.rfind("\n", 0, context - 1) + 1
    above = text[context:start].split("\n")[:-1] if context < start else []
    return context, above + lines, [i + len(above) for i in changed]


def _parent_of(lines: list[str], index: int) -> int:
    """The first line of the block ``lines[index]`` belongs to (itself when top-level)."""
    line = lines[index]
    floor = max(0, index - MAX_CONTEXT_LINES)
    if line[:1] in (" ", "\t"):
        for above in range(index - 1, floor - 1, -1):
            text = lines[above]
            if text.strip() and text[:1] not in (" ", "\t"):
                return above
        return floor
    if _has_parent(line):
        for above in range(index - 1, floor - 1, -1):
            text = lines[above]
            if compiled(_TOML_TABLE).match(text):
                return above
            if (
                text.strip()
                and not compiled(_TOML_KEY).match(text)
                and not text.lstrip().startswith("#")
            ):
                break
    return index


__all__ = ["MAX_CONTEXT_LINES", "is_memory_file", "redact_changes", "redact_write"]
