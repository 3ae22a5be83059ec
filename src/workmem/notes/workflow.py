"""Extract, view and seed session notes; run the extractor detached from a hook.

The notes file belongs to the extractor alone (DESIGN: four artifacts, four owners): it
is rewritten whole from the transcript, keeping the headers and descriptions, and only
after its current content parsed cleanly, so a file someone broke by hand is reported
rather than overwritten. Every word passes the redactor; the budgets of ``validate`` hold
for both extractors; the write is verified by parsing it back.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..clock import stamp
from ..errors import NotFoundError, UsageError, WriteError
from ..files.freetext import neutralize_block
from ..files.store import Store
from ..root import Workspace
from ..transcripts.model import Transcript
from . import template
from .gates import GateState, decide, load_notes_settings, load_state, save_state
from .validate import ExtractionError, enforce_budget

SESSION_ENV = "WORKMEM_SESSION_ID"
#: a captured line longer than this is cut (minified output, base64) with a count
MAX_LINE = 2000
LOG_NAME = "extractor.log"


@dataclass
class NotesResult:
    session_id: str
    path: Path
    ran: bool
    reason: str
    extractor: str = "heuristic"
    tokens: int = 0
    changed: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    failed: str | None = None
    secrets_removed: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "path": str(self.path),
            "ran": self.ran,
            "reason": self.reason,
            "extractor": self.extractor,
            "tokens": self.tokens,
            "changed": self.changed,
            "notes": self.notes,
            "failed": self.failed,
            "secrets_removed": self.secrets_removed,
        }


def notes_path(workspace: Workspace, session_id: str) -> Path:
    return workspace.sessions_dir / f"{template.check_session_id(session_id)}.notes.md"


def _store(workspace: Workspace) -> Store:
    return Store(workspace)


def _session_id(
    explicit: str | None,
    transcript: Transcript | None,
    workspace: Workspace | None = None,
    *,
    register: bool = False,
) -> str:
    """The memory session the notes belong to: the one named, else the one the hooks
    mapped this transcript's platform session to (registered first, as the session-start
    hook would, when ``register`` and there is none). Never the platform's own session id:
    notes kept under it would belong to no session on the board."""
    chosen = explicit or os.environ.get(SESSION_ENV)
    if not chosen and transcript is not None and transcript.session_id and workspace:
        chosen = _mapped_session(workspace, transcript, register=register)
    if not chosen:
        raise UsageError(f"say which session: --session ID (or ${SESSION_ENV})")
    return template.check_session_id(chosen)


def _mapped_session(workspace: Workspace, transcript: Transcript, *, register: bool) -> str:
    from ..board.context import BoardContext
    from ..hooks.session_map import lookup, remember

    store = _store(workspace)
    platform = transcript.platform
    mapped = lookup(store, platform, transcript.session_id)
    if mapped is not None:
        return mapped.memory_session_id
    if not register:
        raise NotFoundError(
            f"no memory session is linked to {platform} session {transcript.session_id} "
            "(the session-start hook links them): pass --session ID"
        )
    from ..board.start import start_session

    started = start_session(BoardContext.open(workspace.root, platform=platform))
    remember(store, platform, str(transcript.session_id), started.session_id, transcript.path)
    return started.session_id


def read_notes(store: Store, path: Path) -> template.NotesFile | None:
    current = store.read_text(path)
    if current is None:
        return None
    return template.read(current[0], store.show(path))


def conversation_text(transcript: Transcript) -> str:
    """The conversation as plain text for the LLM, tool traffic in one line each, redacted."""
    from ..files.freetext import shorten
    from ..redact import redact

    lines: list[str] = []
    for message in transcript.messages:
        if message.is_conversation:
            lines.append(f"[{message.role}] {message.text.strip()}")
        for call in message.tool_calls:  # each cut after its own redaction
            given = json.dumps(call.input, ensure_ascii=False)
            lines.append(f"[tool call] {call.name} {shorten(given, 300)}")
        for result in message.tool_results:
            flag = " ERROR" if result.is_error else ""
            lines.append(f"[tool result{flag}] {shorten(result.output.strip(), 300)}")
    return redact("\n".join(lines))[0]


def _log_path(workspace: Workspace) -> Path:
    """The extractor's log, in a folder made through the root guard (never via a link out)."""
    from ..files.confine import RootGuard

    return RootGuard(workspace).make_folder(workspace.state_dir / "notes") / LOG_NAME


def _log(workspace: Workspace, message: str) -> None:
    from ..files.oscompat import append_line

    append_line(_log_path(workspace), f"{stamp()} {message}\n")


def _llm_sections(
    workspace: Workspace, transcript: Transcript, previous: dict[str, str], session_id: str
) -> dict[str, str]:
    from ..config import load_settings
    from .llm import LlmConfig, extract_with_llm

    config = LlmConfig.from_table(load_settings(workspace).section("llm"))
    current = template.render(session_id, previous)
    edits = extract_with_llm(config, current, conversation_text(transcript))
    return {**previous, **edits}


def update_notes(
    workspace: Workspace,
    *,
    session_id: str | None = None,
    transcript: Path | None = None,
    platform: str | None = None,
    gated: bool = False,
    extractor: str | None = None,
    home: Path | None = None,
    parsed: Transcript | None = None,
) -> NotesResult:
    """Run the extractor (forced, or ``gated`` by the token thresholds) and write the notes.

    ``parsed``: the transcript already read by the caller (a save reads it once for all
    its parts); it must be the transcript at ``transcript``.
    """
    from ..redact import redact
    from ..relay.usage import context_usage, usage_of
    from ..relay.workflows import find_transcript_path, load

    settings = load_notes_settings(workspace)
    chosen = extractor or settings.extractor
    path = (
        parsed.path
        if parsed is not None
        else find_transcript_path(workspace, transcript=transcript, platform=platform, home=home)
    )
    if path is None:
        raise NotFoundError("no transcript found for this workspace: pass --transcript F")
    store = _store(workspace)
    if gated:
        usage = context_usage(path, platform, store=store)
        sid = _session_id(session_id, None) if (session_id or os.environ.get(SESSION_ENV)) else None
        read = None
        if sid is None:
            read = load(path, platform)
            sid = _session_id(None, read, workspace, register=True)
        state = load_state(workspace, sid)
        decision = decide(settings, state, usage.used_tokens)
        if not decision.run:
            return NotesResult(
                sid, notes_path(workspace, sid), False, decision.reason, chosen, usage.used_tokens
            )
        read = read or parsed or load(path, platform)
        tokens, reason = usage.used_tokens, decision.reason
    else:
        read = parsed or load(path, platform)
        sid = _session_id(session_id, read, workspace, register=True)
        state = load_state(workspace, sid)
        tokens, reason = (usage_of(read).used_tokens if read else 0), "forced"
    assert read is not None
    target = notes_path(workspace, sid)
    result = NotesResult(sid, target, False, reason, chosen, tokens)
    existing = read_notes(store, target)
    previous = existing.sections if existing is not None else {}
    try:
        if chosen == "llm":
            sections = _llm_sections(workspace, read, previous, sid)
        else:
            from .heuristic import extract_sections

            sections = extract_sections(read, previous)
    except ExtractionError as exc:
        result.failed = str(exc)
        _log(workspace, f"{sid}: {chosen} extraction failed, notes unchanged: {exc}")
        return result
    from ..redact.engine import markers_in

    cleaned: dict[str, str] = {}
    for name in template.NAMES:
        text = redact(sections.get(name, ""))[0]
        cleaned[name] = neutralize_block(text, max_line=MAX_LINE)
        # counted by their markers: the extractor redacts what it cuts, before this does
        before = markers_in(previous.get(name, ""))
        result.secrets_removed += max(markers_in(cleaned[name]) - before, 0)
    cleaned, result.notes = enforce_budget(cleaned)
    cleaned = {name: neutralize_block(body) for name, body in cleaned.items()}
    result.changed = [n for n in template.NAMES if cleaned[n] != previous.get(n, "")]

    def change(old: str | None) -> str:
        # Sections someone added by hand are kept; the ten are the extractor's.
        extra = template.read(old, store.show(target)).extra if old is not None else []
        return template.render(sid, cleaned, extra)

    def verify(reread: str) -> None:
        if template.parse(reread, store.show(target)) != {
            n: cleaned[n].strip() for n in template.NAMES
        }:
            raise WriteError(f"{store.show(target)}: notes differ from what was written")

    store.update(target, change, verify=verify)
    save_state(store, sid, GateState(tokens, state.extractions + 1, stamp()))
    result.ran = True
    return result


def view_notes(
    workspace: Workspace, session_id: str | None = None, transcript: Path | None = None
) -> tuple[str, str]:
    """(session id, notes text) without extracting."""
    from ..relay.workflows import find_transcript_path, load

    read = None
    if not (session_id or os.environ.get(SESSION_ENV)):
        read = load(find_transcript_path(workspace, transcript=transcript), None)
    sid = _session_id(session_id, read, workspace)
    store = _store(workspace)
    current = store.read_text(notes_path(workspace, sid))
    if current is None:
        raise NotFoundError(f"no session notes yet for {sid} (run `workmem notes` to extract)")
    return sid, current[0]


def compaction_seed(
    workspace: Workspace, session_id: str | None = None, transcript: Path | None = None
) -> str:
    """Seed 003: the notes as the summary a compaction starts from."""
    sid, text = view_notes(workspace, session_id, transcript)
    contents = template.parse(text)
    lines = [
        "This session is being continued from a previous conversation that was compacted. "
        f"Its running notes ({sid}) follow.",
        "",
    ]
    for name in template.NAMES:
        body = contents.get(name, "").strip()
        if body:
            lines += [f"## {name}", "", body, ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def run_detached(
    workspace: Workspace,
    *,
    session_id: str | None = None,
    transcript: Path | None = None,
    platform: str | None = None,
    gated: bool = True,
) -> int:
    """Start the extractor in its own process group so a hook returns at once; the PID."""
    argv = [sys.executable, "-m", "workmem.notes.detached", "--root", str(workspace.root)]
    if session_id:
        argv += ["--session", template.check_session_id(session_id)]
    if transcript:
        argv += ["--transcript", str(transcript)]
    if platform:
        argv += ["--platform", platform]
    if gated:
        argv.append("--gated")
    from ..files.oscompat import detached, open_no_follow

    fd = open_no_follow(_log_path(workspace), os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    with os.fdopen(fd, "ab") as log:
        process = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=log,
            env={**os.environ},
            **detached(),
        )
    return process.pid
