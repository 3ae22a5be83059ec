"""``read_transcript``: any platform's transcript file to the one model.

The platform is named by the caller, or told by where the file lives (``~/.claude``,
``~/.codex``…), or by the shape of its first records, in that order (``naming.py``).
A path that names a session inside OpenClaw's SQLite database (``openclaw_store.py``) is
read from there.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import UsageError
from .jsonl import Records, parse_lines, read_transcript_bytes
from .naming import PLATFORMS, normalize_platform, platform_from_path, sniff_platform

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from .model import Transcript

__all__ = [
    "PLATFORMS",
    "normalize_platform",
    "parse_records",
    "platform_from_path",
    "read_transcript",
    "sniff_platform",
]


def parse_records(
    records: Records,
    path: Path,
    platform: str,
    *,
    subagents: bool = True,
    known_main: bool = False,
) -> Transcript:
    """Build the model from already-parsed JSONL records of a known platform."""
    if platform == "claude-code":
        from . import claude

        return claude.parse(records, path, subagents=subagents, known_main=known_main)
    if platform == "codex":
        from . import codex

        return codex.parse(records, path)
    if platform == "gemini":
        from . import gemini

        return gemini.parse_lines(records, path)
    if platform == "cursor":
        from . import cursor

        return cursor.parse(records, path, subagents=subagents)
    from . import openclaw

    return openclaw.parse(records, path)


def read_transcript(
    path: Path, platform: str | None = None, *, max_bytes: int | None = None
) -> Transcript:
    """Read a transcript; tolerant of unknown records, cut and corrupt lines.

    With ``max_bytes``, a larger file is read in part, so the cost stays bounded however
    long a session grew (transcripts reach hundreds of MB): its head (the session's
    metadata and first request), every line of the middle that changed the agent's plan,
    and its last ``max_bytes`` (see ``window.read_window``). ``Transcript.skipped_bytes``
    says how much was not read.

    The cyclic garbage collector is paused while the records are built: a long transcript
    makes hundreds of thousands of small dicts, none of them cyclic, and the collector's
    repeated passes over them otherwise cost more than the parsing itself.
    """
    import gc

    paused = gc.isenabled()
    gc.disable()
    try:
        return _read(Path(path), platform, max_bytes)
    finally:
        if paused:
            gc.enable()


def _read(path: Path, platform: str | None, max_bytes: int | None) -> Transcript:
    chosen = normalize_platform(platform) or platform_from_path(path)
    if chosen in (None, "openclaw") and not path.exists():
        from .openclaw_paths import is_store_session
        from .openclaw_store import read_store_transcript

        if is_store_session(path):  # OpenClaw 2026.9+: a session inside its database
            return read_store_transcript(path, max_bytes=max_bytes)
    whole_document = path.suffix == ".json" and chosen in (None, "gemini")
    skipped = 0
    if max_bytes is not None and not whole_document:
        from .window import read_window

        data, skipped = read_window(path, max_bytes)
    else:
        data = read_transcript_bytes(path)
    if whole_document:
        from . import gemini

        transcript = gemini.parse_document(data, path)
    else:
        records = parse_lines(data)
        chosen = chosen or sniff_platform(records)
        if chosen is None:
            raise UsageError(
                f"cannot tell which agent wrote {path}: pass --platform ({', '.join(PLATFORMS)})"
            )
        transcript = parse_records(records, path, chosen)
    transcript.bytes_read, transcript.skipped_bytes = len(data), skipped
    return transcript
