"""Where one session's work is read from, once: its transcript, notes, snapshots, account.

What is known about a session lives in several places: its transcript (the freshest source
for the plan, the request and the files), the running notes, the board snapshot, the relay
snapshot (only when written from this very transcript), the account of what came of it,
and the repository state its last save recorded. ``read_sources`` reads them once (each
failing alone: a corrupt file is a source done without); ``work_parts`` turns them into
the parts of a document.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..root import Workspace

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from ..files.sections import Document
    from ..notes.template import NotesFile
    from ..transcripts.account import SessionAccount
    from ..transcripts.facts import TranscriptFacts
    from ..transcripts.model import PlanItem, Transcript
    from .repo_state import Drift, RepoState

#: bytes of the transcript's end read (plus its head and plan lines)
READ_WINDOW = 4 * 1024 * 1024
#: seconds reading a transcript may take before the saved files stand in for it (the
#: session-start hook has 8 s in all; a loaded machine reads a few MB a second)
READ_SECONDS = 4.0
_PARSE_RATE = 4 * 1024 * 1024
_SCAN_RATE = 200 * 1024 * 1024
_SPACE = re.compile(r"\s+")
_DONE_MARK = re.compile(r"^\[(done|resolved|superseded)[^\]]*\]", re.I)


def key(text: str) -> str:
    """What makes two lines the same fact: words, case and trailing dots aside."""
    return _SPACE.sub(" ", text).strip().strip(".").casefold()


@dataclass
class Sources:
    transcript: Transcript | None = None
    facts: TranscriptFacts | None = None
    account: SessionAccount | None = None
    plan: list[PlanItem] = field(default_factory=list)
    notes: NotesFile | None = None
    snapshot: Document | None = None
    relay: Document | None = None
    repo: RepoState | None = None
    drift: Drift | None = None
    used: list[str] = field(default_factory=list)
    #: what could not be read, in words (a corrupt snapshot, a transcript gone)
    problems: list[str] = field(default_factory=list)


def affordable(transcript: Path) -> bool:
    """Whether reading the transcript fits the time a start has, by its size."""
    size = transcript.stat().st_size
    parsed = min(size, READ_WINDOW)
    return parsed / _PARSE_RATE + (size - parsed) / _SCAN_RATE <= READ_SECONDS


def saved_text(workspace: Workspace, path: Path) -> str | None:
    """A saved file's text through the store (a link out of the root is refused), or None."""
    from ..files.store import Store

    try:
        current = Store(workspace).read_text(path)
    except Exception:
        return None
    return current[0] if current else None


def _read_transcript(found: Sources, transcript: Path, platform: str | None) -> None:
    from ..transcripts.openclaw_paths import is_store_session

    try:
        if not is_store_session(transcript) and not (
            transcript.is_file() and affordable(transcript)
        ):
            found.problems.append(f"transcript {transcript} not readable in time or gone")
            return
        from ..transcripts.account import build_account
        from ..transcripts.facts import extract_facts
        from ..transcripts.read import read_transcript

        found.transcript = read_transcript(transcript, platform, max_bytes=READ_WINDOW)
        found.facts = extract_facts(found.transcript)
        found.account = build_account(found.transcript, found.facts)
        found.plan = list(found.transcript.plan)
        found.used.append("the transcript")
    except Exception as exc:  # an unreadable transcript: the saved files stand in for it
        found.transcript = found.facts = found.account = None
        found.problems.append(f"transcript unreadable ({type(exc).__name__})")


def read_sources(
    workspace: Workspace,
    session_id: str | None,
    transcript: Path | None,
    platform: str | None,
    home: Path | None,
    *,
    repo: RepoState | None = None,
    with_drift: bool = False,
) -> Sources:
    from ..files.sections import Document

    found = Sources(repo=repo)
    if transcript is not None:
        _read_transcript(found, transcript, platform)
    if found.transcript is not None and found.transcript.platform == "claude-code":
        from ..transcripts.plans import stored_claude_tasks

        stored = stored_claude_tasks(found.transcript.session_id, home)
        if stored:
            found.plan = stored
            if found.facts is not None:  # Claude Code's task files are fresher than its log
                from ..transcripts.account import build_account

                found.facts.plan = list(stored)
                found.account = build_account(found.transcript, found.facts)
    if session_id:
        from ..notes import template
        from ..notes.workflow import notes_path

        text = saved_text(workspace, notes_path(workspace, session_id))
        if text is not None:
            try:
                found.notes = template.read(text)
                found.used.append("the session notes")
            except Exception:
                found.problems.append("the session notes could not be read")
        text = saved_text(workspace, workspace.snapshot_file(session_id))
        if text is not None:
            try:
                found.snapshot = Document.parse(text)
                found.used.append("the session snapshot")
            except Exception:
                found.problems.append("the session snapshot could not be read")
    found.relay = _relay_of(workspace, transcript)
    if found.relay is not None:
        found.used.append("the relay snapshot")
    if with_drift and repo is not None:
        from .repo_state import drift_since

        found.drift = drift_since(repo)
    return found


def _relay_of(workspace: Workspace, transcript: Path | None) -> Document | None:
    """The relay snapshot, only when it was written from this very transcript."""
    import json

    from ..files.sections import Document

    if transcript is None:
        return None
    try:
        state = json.loads(saved_text(workspace, workspace.state_dir / "relay.json") or "null")
    except ValueError:
        return None
    if not isinstance(state, dict) or state.get("transcript") != str(transcript):
        return None
    text = saved_text(workspace, workspace.memory_dir / "relay-snapshot.md")
    try:
        return Document.parse(text) if text is not None else None
    except Exception:
        return None


def items(document: Document | None, *titles: str) -> list[str]:
    """The live items of a section (placeholders, template hints and finished items left out)."""
    from ..files.sections import is_placeholder_text

    if document is None:
        return []
    found: list[str] = []
    for title in titles:
        section = document.get(title)
        if section is None:
            continue
        for item in section.items():
            text = re.sub(r"^\d+\.\s*", "", item).strip()
            if not text or is_placeholder_text(text) or _DONE_MARK.match(text):
                continue
            if text.startswith("List ") and text.endswith((".", "`None`.")):
                continue  # the template's own hint
            found.append(text)
    return found


def notes_lines(notes: NotesFile | None, section: str, prefix: str = "") -> list[str]:
    if notes is None:
        return []
    lines = [line.strip() for line in notes.sections.get(section, "").split("\n")]
    return [line for line in lines if line and line.startswith(prefix)]


# -- the parts ------------------------------------------------------------------------
