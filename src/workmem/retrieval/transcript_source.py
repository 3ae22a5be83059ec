"""Agent transcripts as an optional source of search (``[search] transcripts = true``).

The memory files are the truth, but what was said in a session that was never written
down is still in the agent's transcript. With the setting on, the workspace's
transcripts of every platform (``transcripts.discover``) are indexed as kind
``transcript``: one chunk per user or assistant message (long ones cut at paragraph
breaks), dated by the message's time, under the platform's session ID. Tool output and
injected context are left out, and every text passes the secret redactor first: the index
is a file on disk like any other. They are searched by their words only, never embedded
(``vectors.WORDS_ONLY_KINDS``).

Transcripts grow on every prompt and can be tens of megabytes, so a query does not read
them: ``workmem reindex`` (and a rebuild) discovers them, indexes new and changed ones and
drops those that are gone, and the session-end hook indexes the transcript of the session
that ended. Otherwise search shows them as they were when last indexed.
The location of a hit is the transcript's own path; its "lines" are the message's
position in the conversation (message 1 is the first). A session kept in OpenClaw's
database is located as ``<database>/<session id>`` and counts as changed when its own last
write or size does, not when another session of the same database is written.
"""

from __future__ import annotations

from pathlib import Path

from ..root import Workspace
from . import kinds
from .chunker import MAX_CHUNK_CHARS, Chunk


def transcript_stats(workspace: Workspace) -> list[kinds.FileStat]:
    """The workspace's transcripts on this machine, keyed by their absolute path."""
    from ..transcripts.discover import find_transcripts
    from ..transcripts.openclaw_paths import is_store_session

    found: list[kinds.FileStat | None] = []
    for ref in find_transcripts(workspace.root):
        if is_store_session(ref.path):  # discovery has read its time and size already
            found.append(_as_stat(ref.path, ref.session_id, int(ref.modified * 1e9), ref.size))
        else:
            found.append(transcript_stat(ref.path, ref.session_id))
    return [stat for stat in found if stat is not None]


def transcript_stat(path: Path, session_id: str | None = None) -> kinds.FileStat | None:
    """One transcript as the index sees it (the session-end hook names its own).

    A session in OpenClaw's database (``…/openclaw-agent.sqlite/<id>``) is no file: its
    time and size are the session's own last write and transcript size, so another
    session's write to the same database does not make this one look changed.
    """
    from ..transcripts.openclaw_paths import is_store_session

    if is_store_session(path):
        return _store_stat(path, session_id)
    try:
        stat = path.stat()
    except OSError:
        return None
    return _as_stat(path, session_id, stat.st_mtime_ns, stat.st_size)


def _store_stat(path: Path, session_id: str | None) -> kinds.FileStat | None:
    from ..errors import WorkmemError
    from ..transcripts.openclaw_paths import split_session_path
    from ..transcripts.openclaw_store import list_sessions

    database, wanted = split_session_path(path) or (path.parent, path.name)
    try:
        found = list_sessions(database, wanted)
    except WorkmemError:
        return None  # locked, corrupt or of another schema: indexed at the next reindex
    if not found:
        return None
    return _as_stat(path, session_id or wanted, int(found[0].modified * 1e9), found[0].size)


def _as_stat(path: Path, session_id: str | None, mtime_ns: int, size: int) -> kinds.FileStat:
    where = str(path.resolve())
    file = kinds.MemoryFile(where, kinds.TRANSCRIPT, None, session_id, where)
    return kinds.FileStat(file, mtime_ns, size)


def transcript_bytes(stat: kinds.FileStat) -> bytes | None:
    """What the index hashes to tell whether a transcript changed; None when it is gone.

    A file's bytes; for a session in OpenClaw's database, its last write time and size,
    which is what the database keeps of it without reading the whole transcript.
    """
    from ..files.store import read_bytes
    from ..transcripts import MAX_TRANSCRIPT_BYTES
    from ..transcripts.openclaw_paths import is_store_session

    path = Path(stat.file.path)
    if is_store_session(path):
        return f"openclaw session {stat.mtime_ns} {stat.size}".encode()
    return read_bytes(path, limit=MAX_TRANSCRIPT_BYTES)


def chunk_transcript(file: kinds.MemoryFile) -> list[Chunk]:
    """The conversation's messages as chunks, redacted; tool traffic is not included."""
    from ..redact import redact
    from ..transcripts.read import read_transcript

    transcript = read_transcript(file.path)
    session = file.session_id or transcript.session_id
    chunks: list[Chunk] = []
    for number, message in enumerate(transcript.conversation, 1):
        text = redact(message.text.strip())[0]
        stamp = message.timestamp
        day = stamp.date().isoformat() if stamp else None
        title = f"{message.role} ({transcript.platform})"
        for piece in _pieces(text):
            chunks.append(Chunk(piece, number, number, title=title, date=day, session_id=session))
    return chunks


def _pieces(text: str, limit: int = MAX_CHUNK_CHARS) -> list[str]:
    """``text`` cut at paragraph breaks (or hard, for one long paragraph) into quotable parts."""
    pieces: list[str] = []
    current = ""
    for paragraph in text.split("\n\n"):
        while len(paragraph) > limit:
            if current:
                pieces.append(current)
                current = ""
            pieces.append(paragraph[:limit])
            paragraph = paragraph[limit:]
        joined = f"{current}\n\n{paragraph}" if current else paragraph
        if len(joined) > limit:
            pieces.append(current)
            joined = paragraph
        current = joined
    if current.strip():
        pieces.append(current)
    return [p.strip() for p in pieces if p.strip()]
