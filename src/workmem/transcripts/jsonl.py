"""Reading JSON Lines transcripts as they are: growing, sometimes cut, sometimes dirty.

An agent appends to its transcript while we read it, so the last line may be half
written; a crash may leave a corrupt line in the middle; an editor may add a BOM or CRLF.
None of that is fatal: a line that is not a JSON object is counted and skipped, and the
reader goes on. Only a file we cannot read at all (missing, a folder, absurdly large)
is an error, with a message that says so.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import FormatError, NotFoundError
from . import MAX_TRANSCRIPT_BYTES as MAX_TRANSCRIPT_BYTES  # re-exported: the limit readers use

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any


@dataclass
class Records:
    """The JSON objects of a run of lines, in order, and how many lines were unusable."""

    items: list[dict[str, Any]] = field(default_factory=list)
    skipped: int = 0
    #: bytes consumed: up to and including the last complete line
    consumed: int = 0


def transcript_size(path: Path) -> int:
    """The size of a transcript file, or the error that says why it cannot be read."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise NotFoundError(f"transcript not found: {path}") from None
    except OSError as exc:
        raise FormatError(
            f"cannot read transcript: {exc.strerror or exc}", path=str(path)
        ) from None
    if path.is_dir():
        raise FormatError("is a folder, expected a transcript file", path=str(path))
    return size


def read_transcript_bytes(path: Path, limit: int = MAX_TRANSCRIPT_BYTES) -> bytes:
    size = transcript_size(path)
    if size > limit:
        raise FormatError(
            f"transcript is {size:,} bytes, over the {limit:,}-byte limit; nothing was read",
            path=str(path),
        )
    try:
        return path.read_bytes()
    except OSError as exc:
        raise FormatError(
            f"cannot read transcript: {exc.strerror or exc}", path=str(path)
        ) from None


def parse_lines(data: bytes, *, final: bool = True) -> Records:
    """Parse JSON objects, one per line.

    With ``final=False`` (incremental reading) an unterminated last line is left for the
    next call and not counted in ``consumed``; with ``final=True`` it is tried, and
    skipped if it is cut.
    """
    records = Records()
    end = len(data)
    if not final:
        end = data.rfind(b"\n") + 1
    records.consumed = end
    if end == 0:
        return records
    chunk = data[:end] if end != len(data) else data
    if chunk.startswith(b"\xef\xbb\xbf"):
        chunk = chunk[3:]
    loads = json.loads
    items = records.items
    for line in chunk.split(b"\n"):
        if not line or line.isspace():
            continue
        try:
            value = loads(line)
        except ValueError:  # JSONDecodeError and UnicodeDecodeError alike
            records.skipped += 1
            continue
        if isinstance(value, dict):
            items.append(value)
        else:
            records.skipped += 1
    return records


def load_json_document(data: bytes, path: Path) -> Any:
    """A whole-file JSON document (Gemini CLI's older session files)."""
    try:
        return json.loads(data)
    except ValueError as exc:
        raise FormatError(f"not a valid JSON document: {exc}", path=str(path)) from None
