"""What happened in a memory root, in order: sessions, saves, compactions, handoffs.

No file records "what happened" as such: each workflow leaves its own trace, and this
module reads them back (read only, every read through the store):

- the board and the archive: a session started (Started At), was archived (Archived At);
- the daily logs: a session's end (``### Session N · HH:MM · agent``, its summary, and in
  its marker the session), the relay's saves (``### Session Relay Auto-Save (HH:MM)``),
  and any other entry with a time;
- ``memory/.workmem/last-save.json``: the last save, and why (before a compaction, at the
  end of a session), with what it saved or failed;
- the transcripts the hooks mapped to memory sessions: when each compaction happened, read
  in bounded time and only for transcripts whose running summary counted one;
- the relay snapshot and its archive: a handoff written, and taken up by the next session.

Each source is one function of ``SOURCES``: a new trace (the handoff's account) is one more.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from .files.store import Store
from .root import Workspace

#: kinds of activity, in the words the viewer shows
KINDS = {
    "start": "Session started",
    "end": "Session ended",
    "save": "Saved",
    "compaction": "Compaction",
    "handoff": "Handoff",
    "archive": "Archived",
    "log": "Log entry",
}
#: transcripts read for their compaction times on one call, the most recent first
MAX_TRANSCRIPTS = 10
_TRANSCRIPT_BYTES = 4 * 1024 * 1024

_ENTRY = re.compile(r"^###\s+(?P<title>.+?)\s*$")
_SESSION_END = re.compile(
    r"^session\s+\d+\s*·\s*(?P<time>\d{1,2}:\d{2})\s*·\s*(?P<agent>.+)$", re.I
)
_RELAY_SAVE = re.compile(r"^session\s+relay\s+auto-save\s*\((?P<time>\d{1,2}:\d{2})\)", re.I)
_TIME = re.compile(r"\b(?P<time>[01]?\d:[0-5]\d|2[0-3]:[0-5]\d)\b")
_MARKER_KEY = re.compile(r"<!-- workmem:session-end [^>]*key=(?P<key>[^\s>]+)")
_SESSION_ID = re.compile(r"\b\d{4}-\d{2}-\d{2}-\d{4}-[A-Za-z0-9][A-Za-z0-9._-]*-agent(?:-\d+)?\b")
_SUMMARY = re.compile(r"^\*\*Summary:\*\*\s*(?P<text>.+)$")
_RELAY_STAMP = re.compile(r"Auto-saved by session-relay \| (?P<at>\d{4}-\d{2}-\d{2}T\d{2}:\d{2})")
_ARCHIVE_NAME = re.compile(r"^(?P<d>\d{4}-\d{2}-\d{2})-(?P<h>\d{2})(?P<m>\d{2})\d{2}(?:-\d+)?$")


@dataclass(frozen=True)
class Activity:
    """One thing that happened: when (``YYYY-MM-DD HH:MM``, or a day), what, which session."""

    when: str
    kind: str
    title: str
    detail: str = ""
    session_id: str | None = None
    source: str = ""

    def to_dict(self) -> dict[str, str | None]:
        return {
            "when": self.when,
            "kind": self.kind,
            "title": self.title,
            "detail": self.detail,
            "session_id": self.session_id,
            "source": self.source,
        }


def _clip(text: str, width: int = 200) -> str:
    """One line of at most ``width`` characters, redacted before it is cut."""
    from .files.freetext import shorten

    return shorten(text, width, fold=True)


def _from_board(workspace: Workspace, store: Store) -> Iterator[Activity]:
    from .board.context import BoardContext
    from .board.inspect import list_sessions
    from .i18n.placeholders import is_topic

    for row in list_sessions(BoardContext.open(workspace.root)):
        topic = row.to_dict()["topic"]
        yield Activity(
            row.started_at,
            "start",
            f"by {row.agent_name}",
            "" if is_topic(topic) else _clip(topic),
            row.session_id,
            "memory/index.md",
        )


def _from_archive(workspace: Workspace, store: Store) -> Iterator[Activity]:
    from .errors import WorkmemError
    from .files.tables import TableDocument

    folder = workspace.archive_dir
    if not folder.is_dir():
        return
    for entry in sorted(folder.iterdir()):
        index = entry / "index.md"
        try:
            current = store.read_text(index)
            table = TableDocument.parse(current[0]) if current else None
        except WorkmemError:
            continue  # a damaged archive entry is doctor's to report, not the timeline's
        if table is None:
            continue
        fields = {r.get("Field", ""): r.get("Value", "") for r in table.records()}
        sid = fields.get("Session ID") or entry.name
        shown = store.show(index)
        if fields.get("Started At"):
            topic = _clip(fields.get("Topic", ""))
            by = f"by {fields['Agent Name']}" if fields.get("Agent Name") else ""
            yield Activity(fields["Started At"], "start", by, topic, sid, shown)
        if fields.get("Archived At"):
            yield Activity(fields["Archived At"], "archive", "the session", "", sid, shown)


def _entries(text: str) -> Iterator[tuple[str, list[str]]]:
    """(title, body lines) of each ``###`` entry of a daily log, outside code fences."""
    title: str | None = None
    body: list[str] = []
    fenced = False
    for line in text.split("\n"):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        found = None if fenced else _ENTRY.match(line)
        if found is not None or (not fenced and line.startswith("## ")):
            if title is not None:
                yield title, body
            title, body = (found.group("title"), []) if found else (None, [])
        elif title is not None:
            body.append(line)
    if title is not None:
        yield title, body


def _session_of(body: list[str]) -> str | None:
    text = "\n".join(body)
    key = _MARKER_KEY.search(text)
    if key and _SESSION_ID.fullmatch(key.group("key")):
        return key.group("key")
    found = _SESSION_ID.search(text)
    return found.group(0) if found else None


def _day_entry(day: str, title: str, body: list[str], source: str) -> Activity | None:
    end = _SESSION_END.match(title)
    if end is not None:
        summary = next((m.group("text") for ln in body if (m := _SUMMARY.match(ln.strip()))), "")
        return Activity(
            f"{day} {int(end['time'][:-3]):02d}:{end['time'][-2:]}",
            "end",
            f"by {end['agent'].strip()}",
            _clip(summary),
            _session_of(body),
            source,
        )
    save = _RELAY_SAVE.match(title)
    if save is not None:
        lines = [ln.strip()[2:] for ln in body if ln.strip().startswith("- ")][:2]
        return Activity(
            f"{day} {int(save['time'][:-3]):02d}:{save['time'][-2:]}",
            "save",
            "the handoff snapshot, in the daily log",
            _clip("; ".join(lines)),
            None,
            source,
        )
    timed = _TIME.search(title)
    when = f"{day} {int(timed['time'][:-3]):02d}:{timed['time'][-2:]}" if timed else day
    first = next((ln.strip() for ln in body if ln.strip() and not ln.startswith("<!--")), "")
    return Activity(when, "log", _clip(title, 120), _clip(first), _session_of(body), source)


def _from_daily_logs(workspace: Workspace, store: Store) -> Iterator[Activity]:
    from .errors import WorkmemError
    from .journal.daily import list_logs

    for log in list_logs(workspace):
        try:
            current = store.read_text(log.path)
        except WorkmemError:
            continue
        if current is None:
            continue
        source = store.show(log.path)
        for title, body in _entries(current[0]):
            found = _day_entry(log.day.isoformat(), title, body, source)
            if found is not None:
                yield found


def _from_last_save(workspace: Workspace, store: Store) -> Iterator[Activity]:
    from .continuity.save import last_save

    record = last_save(workspace)
    if not record or not isinstance(record.get("at"), str):
        return
    reason = str(record.get("reason") or "save")
    done = record.get("done") if isinstance(record.get("done"), dict) else {}
    failed = record.get("failed") if isinstance(record.get("failed"), dict) else {}
    parts = [f"saved {', '.join(sorted(done))}"] if done else []
    if failed:
        parts.append(f"failed: {', '.join(sorted(failed))}")
    kind, title = {
        "pre-compact": ("compaction", "saved before it"),
        "session-end": ("save", "at the end of the session"),
    }.get(reason, ("save", reason))
    sid = record.get("session_id") if isinstance(record.get("session_id"), str) else None
    yield Activity(
        record["at"], kind, title, "; ".join(parts), sid, "memory/.workmem/last-save.json"
    )


def _local(stamp: str | None) -> str | None:
    """A transcript's time (ISO, usually UTC) as this machine's ``YYYY-MM-DD HH:MM``."""
    if not stamp:
        return None
    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is not None:
        moment = moment.astimezone()
    return moment.strftime("%Y-%m-%d %H:%M")


def _from_compactions(workspace: Workspace, store: Store) -> Iterator[Activity]:
    from .hooks.session_map import entries
    from .transcripts.incremental import TranscriptTail
    from .transcripts.read import read_transcript

    tail = TranscriptTail(store)
    counted = []
    for mapped in entries(store):
        if not mapped.transcript or not Path(mapped.transcript).is_file():
            continue
        summary = tail.load(Path(mapped.transcript))
        if summary is not None and summary.compactions > 0:
            counted.append((summary.last_time or "", mapped, summary.compactions))
    counted.sort(key=lambda item: item[0], reverse=True)
    for _, mapped, count in counted[:MAX_TRANSCRIPTS]:
        try:
            transcript = read_transcript(
                Path(str(mapped.transcript)), mapped.platform, max_bytes=_TRANSCRIPT_BYTES
            )
        except Exception:  # an unreadable transcript: its compactions are not placed
            continue
        for number, compaction in enumerate(transcript.compactions, 1):
            when = _local(compaction.time)
            if when is None:
                continue
            how = f" ({compaction.trigger})" if compaction.trigger else ""
            of = f" {number} of {count}" if count > 1 else ""
            yield Activity(
                when,
                "compaction",
                f"context compacted{of}{how}",
                f"{mapped.platform} session {mapped.platform_session_id}",
                mapped.memory_session_id,
                "the agent's transcript",
            )


def _from_relay(workspace: Workspace, store: Store) -> Iterator[Activity]:
    from .relay.archive import archive_dir, snapshot_path

    files: list[tuple[Path, re.Match[str] | None]] = [(snapshot_path(store), None)]
    folder = archive_dir(store)
    if folder.is_dir():
        files += [(p, _ARCHIVE_NAME.match(p.stem)) for p in sorted(folder.glob("*.md"))]
    for path, archived in files:
        current = store.read_text(path)
        if current is None:
            continue
        stamp = _RELAY_STAMP.search(current[0][:2000])
        shown = store.show(path)
        if stamp is not None:
            when = stamp.group("at").replace("T", " ")
            yield Activity(when, "handoff", "snapshot written", "", None, shown)
        if archived is not None:
            when = f"{archived['d']} {archived['h']}:{archived['m']}"
            yield Activity(when, "handoff", "taken up by the next session", "", None, shown)


Source = Callable[[Workspace, Store], Iterator[Activity]]
SOURCES: tuple[Source, ...] = (
    _from_board,
    _from_archive,
    _from_daily_logs,
    _from_last_save,
    _from_compactions,
    _from_relay,
)


#: within one minute: a session starts before anything else, is archived after it
_RANK = {"start": 0, "archive": 2}


def activity(workspace: Workspace) -> list[Activity]:
    """Everything the memory files say happened, newest first (within one minute too: a
    day's later entries first, and a session's start after what followed it).

    The last save is also in the daily log when it wrote the relay's entry: the two are
    one save, kept once (the record that says why it ran).
    """
    store = Store(workspace, read_only=True)
    found: list[Activity] = []
    for source in SOURCES:
        found.extend(source(workspace, store))
    for save in [a for a in found if a.source.endswith("last-save.json")]:
        twins = [a for a in found if a.kind == "save" and a.when == save.when and a is not save]
        if twins:
            found.remove(twins[-1])  # the latest entry of that minute is the one it wrote

    def order(pair: tuple[int, Activity]) -> tuple[str, int, int]:
        number, item = pair
        when = item.when if len(item.when) > 10 else f"{item.when} 00:00"
        return when, _RANK.get(item.kind, 1), number

    return [item for _, item in sorted(enumerate(found), key=order, reverse=True)]
