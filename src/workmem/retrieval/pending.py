"""Notes of a session that has not ended yet: searchable from the moment they are taken.

``workmem note decision …`` keeps the note in ``memory/state.json`` (the session's open
record) until ``workmem end`` writes it into the day's log; a session may run for hours,
or crash and be ended by the next one. A decision noted at ten must answer "what did we
decide about the database" at eleven, so these notes are chunks of their own, of kind
``pending``. When the session ends they leave ``state.json`` for the daily log, and the
index follows the files: the same decision is never found twice.

Only the notes are read; the rest of ``state.json`` is bookkeeping. A note recorded for
an event is left out: the event itself is in ``events.json``.
"""

from __future__ import annotations

import json
import re

from .chunker import Chunk, load_json
from .dates import first_date

#: Note kinds and the heading each is filed under (``vocabulary`` reads the heading).
HEADINGS = {
    "decision": "Decision",
    "question": "Open question",
    "pattern": "Pattern",
}
#: The journal's key for notes taken outside any agent session.
DEFAULT_KEY = "default"


def chunk_pending(text: str, rel: str = "memory/state.json") -> list[Chunk]:
    """One chunk per open note of ``state.json``; ``FormatError`` on unreadable JSON."""
    if not text.strip():
        return []
    data = load_json(text, rel)
    sessions = data.get("open_sessions") if isinstance(data, dict) else None
    if not isinstance(sessions, dict):
        return []
    chunks: list[Chunk] = []
    for key, record in sessions.items():
        notes = record.get("notes") if isinstance(record, dict) else None
        for note in notes if isinstance(notes, list) else []:
            chunk = _chunk(note, str(key), text)
            if chunk is not None:
                chunks.append(chunk)
    return chunks


def _chunk(note: object, key: str, text: str) -> Chunk | None:
    if not isinstance(note, dict):
        return None
    heading = HEADINGS.get(str(note.get("kind")))
    body = note.get("text")
    if heading is None or not isinstance(body, str) or not body.strip():
        return None
    reasoning = note.get("reasoning")
    if isinstance(reasoning, str) and reasoning.strip():
        body = f"{body.strip()} — {reasoning.strip()}"
    line = _line_of(text, note.get("id"))
    chunk = Chunk(body.strip(), line, line, title=heading, headings=[heading], item=True)
    chunk.date = first_date(str(note.get("at") or ""))
    chunk.session_id = None if key == DEFAULT_KEY else key
    return chunk


def _line_of(text: str, note_id: object) -> int:
    """The line of the note's ``"id"`` in the file (``workmem get`` shows from there)."""
    if isinstance(note_id, str):
        found = re.search(r'"id"\s*:\s*' + re.escape(json.dumps(note_id)), text)
        if found:
            return text.count("\n", 0, found.start()) + 1
    return 1
