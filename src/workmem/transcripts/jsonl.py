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

from ..errors import FormatError
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
    """The size of a transcript file, or the error that says why it cannot be read (a
    pipe, device or socket is refused by its type: ``files.bounded``)."""
    from ..files.bounded import regular_stat

    return regular_stat(path, what="transcript").st_size


def read_transcript_bytes(path: Path, limit: int = MAX_TRANSCRIPT_BYTES) -> bytes:
    """A whole transcript, bounded in size and time (``files.bounded.read_file``)."""
    from ..files.bounded import read_file

    return read_file(path, limit=limit, what="transcript")


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
