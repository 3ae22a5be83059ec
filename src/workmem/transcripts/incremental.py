"""Reading only what a transcript gained since last time.

Hooks run on every prompt, and a long session's transcript reaches tens of megabytes.
``TranscriptTail`` remembers, per transcript, the byte offset it has read to and a running
summary (counts, the last recorded usage, the model, an estimate of the context since the
last compaction) in ``memory/.workmem/transcripts/<key>.json``. An update reads from the
offset to the last complete line, parses only those records, folds them into the summary
and moves the offset. A half-written last line is left for next time. If the file was
replaced or truncated (its first bytes changed, or it shrank), the summary starts over.

Whole-document formats (Gemini CLI's ``.json``) cannot be read from an offset; they are
re-read when their size or modification time changes.

When nothing was added since the last call (same size, same modification time, same first
bytes) the recorded summary is the answer: no lock is taken, nothing is parsed or written,
and the parsing half (``tail_read``, with the message model and the readers) is not loaded.
Change detection uses ``zlib.crc32``, not a cryptographic hash: it only has to notice a
replaced file, and ``hashlib`` costs a hook a few milliseconds to import.
"""

from __future__ import annotations

import json
import os
import zlib
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from ..errors import FormatError
from . import MAX_TRANSCRIPT_BYTES
from .naming import normalize_platform

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from typing import Any

    from ..files.store import Store
    from .model import Message, Transcript

STATE_FOLDER = "transcripts"
HEAD_BYTES = 1024
#: a transcript first seen when larger than this is read from its last this-many bytes:
#: the usage that matters is at the end, and a hook must not parse hundreds of MB once
FIRST_READ_BYTES = 4 * 1024 * 1024
_VERSION = 2


@dataclass
class TailSummary:
    """What was read of a transcript so far, and where to resume: the persisted state."""

    path: str
    platform: str | None = None
    offset: int = 0
    head_len: int = 0
    head: str = ""
    mtime: float = 0.0
    session_id: str | None = None
    cwd: str | None = None
    model: str | None = None
    messages: int = 0
    user_messages: int = 0
    assistant_messages: int = 0
    tool_calls: int = 0
    tool_errors: int = 0
    compactions: int = 0
    #: the last usage the platform recorded (context tokens), if any
    context_tokens: int | None = None
    context_window: int | None = None
    #: token estimate of the conversation since the last compaction
    estimated_tokens: int = 0
    has_main: bool = False
    last_time: str | None = None
    #: bytes at the start never read (a large transcript first seen is read from its end),
    #: so the counts are of what followed them
    skipped_bytes: int = 0
    version: int = _VERSION

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TailSummary:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


@dataclass
class TailUpdate:
    """One update's outcome: the new summary and what this read added."""

    summary: TailSummary
    #: the records read by this update, as a transcript of their own; ``None`` when the
    #: file had not changed (so an unchanged transcript never loads the message model)
    new: Transcript | None
    reset: bool = False
    read_bytes: int = 0
    new_messages: list[Message] = field(default_factory=list)


def message_tokens(messages: list[Message]) -> int:
    """Token estimate of messages as they sit in a context window (text, tool input, output)."""
    from ..retrieval.tokens import count_tokens

    total = 0
    for message in messages:
        total += count_tokens(message.text)
        for call in message.tool_calls:
            total += count_tokens(json.dumps(call.input, ensure_ascii=False))
        for result in message.tool_results:
            total += count_tokens(result.output)
    return total


def since_last_compaction(messages: list[Message]) -> tuple[list[Message], bool]:
    for index in range(len(messages) - 1, -1, -1):
        if messages[index].kind == "compact_summary":
            return messages[index:], True
    return messages, False


def head_hash(data: bytes) -> str:
    return f"{zlib.crc32(data):08x}"


class TranscriptTail:
    """Incremental reader whose offsets and summaries live in the workspace's state folder."""

    def __init__(self, store: Store):
        self.store = store
        self.folder = store.workspace.state_dir / STATE_FOLDER

    def state_path(self, transcript: Path) -> Path:
        name = str(Path(transcript).absolute()).encode()
        return self.folder / f"{zlib.crc32(name):08x}{zlib.adler32(name):08x}.json"

    def load(self, transcript: Path) -> TailSummary | None:
        path = self.state_path(transcript)
        raw = self.store.read_derived(path)
        if raw is None:
            return None
        try:
            data = json.loads(raw)
        except ValueError:
            return None  # derived state: a damaged file is rebuilt, never an error
        if not isinstance(data, dict) or data.get("version") != _VERSION:
            return None
        if data.get("path") != str(Path(transcript).absolute()):
            return None  # another transcript whose name hashed alike: start over
        return TailSummary.from_dict(data)

    def update(self, transcript: Path, platform: str | None = None) -> TailUpdate:
        transcript = Path(transcript)
        stat = checked_stat(transcript)  # before any lock: a pipe or a device starts nothing
        unchanged = self._unchanged(transcript, platform, stat)
        if unchanged is not None:
            return unchanged
        with self.store.lock(self.state_path(transcript)):
            from .tail_read import advance

            previous = self.load(transcript)
            result = advance(transcript, platform, previous)
            text = json.dumps(result.summary.to_dict(), ensure_ascii=False, indent=1) + "\n"
            self.store.update(self.state_path(transcript), lambda _old: text)
        return result

    def _unchanged(
        self, transcript: Path, platform: str | None, stat: os.stat_result
    ) -> TailUpdate | None:
        """The recorded summary when the file has not changed since it was recorded.

        Read without the lock: the state file is replaced atomically, so it is always one
        whole summary, and an unchanged transcript gives that same summary under the lock.
        """
        previous = self.load(transcript)
        if previous is None or previous.platform is None:
            return None
        chosen = normalize_platform(platform)
        if chosen is not None and chosen != previous.platform:
            return None
        if stat.st_size != previous.offset or stat.st_mtime != previous.mtime:
            return None
        if previous.head_len:
            from ..files.bounded import open_regular

            with open_regular(transcript, what="transcript") as handle:
                if head_hash(handle.read(previous.head_len)) != previous.head:
                    return None
        return TailUpdate(previous, None)


def checked_stat(transcript: Path) -> os.stat_result:
    """The transcript's ``stat``: a regular file (``files.bounded``) within the size limit."""
    from ..files.bounded import regular_stat

    stat = regular_stat(transcript, what="transcript")
    if stat.st_size > MAX_TRANSCRIPT_BYTES:
        raise FormatError(
            f"transcript is {stat.st_size:,} bytes, over the {MAX_TRANSCRIPT_BYTES:,}-byte limit",
            path=str(transcript),
        )
    return stat
