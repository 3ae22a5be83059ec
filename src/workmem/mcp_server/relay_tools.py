"""Handing over to the next session over MCP: the relay (inherit, snapshot, restore,
archive, status), the agents' transcripts, and the workflows trigger phrases ask for.

A transcript a client names is read only from the memory root or an agent's own
transcript folders (``Served.transcript``); a platform session id is looked up there too.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .base import Kinds, Served, failed, friendly

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer


def _transcript_of(served: Served, key: str, platform: str | None) -> Path:
    """A transcript from its path (checked) or from a platform session id."""
    from ..errors import UsageError
    from ..transcripts import resolve_transcript

    if not any(mark in key for mark in ("/", "\\", "~")):
        # a session id, found in the agents' folders (a bare name that happens to be a
        # file where the server runs is judged like any path: below)
        key = str(resolve_transcript(key, served.root, platform))
    chosen = served.transcript(key)
    if chosen is None:
        raise UsageError("say which session: a platform session id or a transcript path")
    return chosen


def _clean(text: str) -> str:
    from ..redact import redact

    return redact(text)[0]


def register(server: MCPServer, served: Served, kinds: Kinds) -> None:
    # ---- the relay -----------------------------------------------------------------------
    @server.tool(annotations=kinds.read)
    @friendly
    def relay_inherit(
        sessions: int = 3, rounds: int = 3, platform: str | None = None
    ) -> dict[str, Any]:
        """The last sessions' conversation tails, for a session that starts without them."""
        from ..relay.workflows import inherit

        text, inheritance, _ = inherit(
            served.workspace(), sessions=sessions, rounds=rounds, platform=platform
        )
        return {"text": text, **inheritance.to_dict()}

    @server.tool(annotations=kinds.write)
    @friendly
    def relay_snapshot(
        in_progress: str = "",
        completed: list[str] | None = None,
        pending: list[str] | None = None,
        decisions: list[str] | None = None,
        files: list[str] | None = None,
        preferences: list[str] | None = None,
        gotchas: list[str] | None = None,
        commands: list[str] | None = None,
        transcript: str | None = None,
        mode: str = "auto",
        force: bool = False,
    ) -> dict[str, Any]:
        """Save memory/relay-snapshot.md, the handoff to the next session: what you were
        doing, what is done and pending, decisions, files, preferences, gotchas, commands
        (the rest comes from the transcript). Fails when no snapshot was written."""
        from ..relay.template import SnapshotNotes
        from ..relay.workflows import snapshot

        notes = SnapshotNotes(
            in_progress=in_progress.strip(),
            completed=list(completed or []),
            pending=list(pending or []),
            decisions=list(decisions or []),
            files=list(files or []),
            preferences=list(preferences or []),
            gotchas=list(gotchas or []),
            commands=list(commands or []),
        )
        result = snapshot(
            served.workspace(),
            notes,
            transcript=served.transcript(transcript),
            mode=mode,
            force=force,
        )
        if not result.written:
            raise failed(f"no snapshot was written: {result.skipped_reason}")
        return dict(result.to_dict())

    @server.tool(annotations=kinds.write)
    @friendly
    def relay_restore(fresh: bool = False, keep: bool = False) -> dict[str, Any]:
        """The last sessions' tails and the handoff snapshot, for a new session; the
        snapshot is archived once read (``keep`` leaves it; ``fresh`` archives it unread)."""
        from ..relay.workflows import restore

        return dict(restore(served.workspace(), fresh=fresh, keep=keep).to_dict())

    @server.tool(annotations=kinds.write)
    @friendly
    def relay_archive() -> dict[str, Any]:
        """Move the handoff snapshot into memory/relay-archive/ (never deleted)."""
        from ..clock import now
        from ..config import load_settings
        from ..files.store import Store
        from ..relay.archive import archive_snapshot

        workspace = served.workspace()
        store = Store(workspace, lock_timeout=load_settings(workspace).board.lock_timeout)
        target = archive_snapshot(store, now())
        return {"archived_to": str(target) if target else None}

    @server.tool(annotations=kinds.read)
    @friendly
    def relay_status(transcript: str | None = None, profile: str = "relay") -> dict[str, Any]:
        """Context usage, its zone, and the handoff snapshot's state (relay_snapshot saves)."""
        from ..relay.workflows import status

        report = status(
            served.workspace(), transcript=served.transcript(transcript), profile=profile
        )
        return dict(report.to_dict())

    # ---- the handoff ---------------------------------------------------------------------
    @server.tool(annotations=kinds.write)
    @friendly
    def handoff(
        session: str | None = None, continue_it: bool = False, session_id: str | None = None
    ) -> dict[str, Any]:
        """The work of the last session to pick up (or of ``session``: an ID, the agent's own
        session id, or topic words), in any agent: its outcome, plan, last request, files,
        decisions, errors, last reply, commands, and whether the repository moved since.
        ``continue_it`` also records that this conversation's session continues from it
        (Continues From / Referenced By). A session still running elsewhere is handed over
        only when named. Fails when there is no such session."""
        from ..continuity.handoff import after_the_start
        from ..continuity.handoff import handoff as hand_over

        current = served.session(session_id) if continue_it else None
        budget, seen = after_the_start(served.workspace(), current)
        done = hand_over(
            served.workspace(),
            session,
            current=current,
            link=continue_it,
            budget=budget if current else None,
            explicit=True,
            seen=seen,
        )
        if continue_it and not done.linked:
            raise failed(f"not linked: {done.link_problem or 'this session is not on the board'}")
        return done.to_dict()

    # ---- the agents' transcripts -----------------------------------------------------------
    @server.tool(annotations=kinds.read)
    @friendly
    def transcripts_list(platform: str | None = None, limit: int = 5) -> list[dict[str, Any]]:
        """This workspace's transcripts in the agents' own folders, newest first."""
        from ..transcripts import find_transcripts

        refs = find_transcripts(served.root, platform)[: max(limit, 0)]
        return [r.to_dict() for r in refs]

    @server.tool(annotations=kinds.read)
    @friendly
    def transcript_history(
        id: str,
        rounds: int = 3,
        include_tools: bool = False,
        platform: str | None = None,
    ) -> dict[str, Any]:
        """The last rounds of a session (a platform session id or a transcript path),
        secrets redacted."""
        from ..transcripts import read_transcript

        transcript = read_transcript(_transcript_of(served, id, platform), platform)
        chosen = transcript.rounds()[-max(rounds, 1) :]
        messages = []
        for part in chosen:
            for message in ([part.user] if part.user else []) + part.assistant:
                data = message.to_dict(include_tools=include_tools)
                data["text"] = _clean(data["text"])
                for result in data.get("tool_results", []):
                    result["output"] = _clean(result["output"])
                messages.append(data)
        return {"session_id": transcript.session_id, "messages": messages}

    @server.tool(annotations=kinds.read)
    @friendly
    def transcript_status(
        id: str,
        profile: str = "relay",
        window: int | None = None,
        platform: str | None = None,
    ) -> dict[str, Any]:
        """A session's context usage, zone and figures (counts, compactions, plan)."""
        from ..relay.usage import usage_of
        from ..relay.zones import zone_for
        from ..transcripts import read_transcript

        transcript = read_transcript(_transcript_of(served, id, platform), platform)
        usage = usage_of(transcript, window)
        zone = zone_for(usage.percent, profile)
        return {"summary": transcript.summary(), "usage": usage.to_dict(), "zone": zone.to_dict()}

    # ---- trigger phrases -------------------------------------------------------------------
    @server.tool(annotations=kinds.read)
    @friendly
    def which_workflow(text: str) -> dict[str, Any] | None:
        """Which workflow a user's message asks for (trigger phrases in any language)."""
        from ..phrases import detect

        intent = detect(text)
        return intent.to_dict() if intent else None

    @server.tool(annotations=kinds.write)
    @friendly
    def run_workflow(
        text: str, session_id: str | None = None, transcript: str | None = None
    ) -> dict[str, Any]:
        """Run the workflow a user's message asks for, as the prompt hook would, for this
        conversation's session (or ``session_id``). Fails when the message asks for none
        or the workflow did not succeed."""
        from ..dispatch import RunContext, run_intent
        from ..phrases import detect

        intent = detect(text)
        if intent is None:
            raise failed("the message asks for no workflow; nothing was done")
        found = served.conversation() if session_id is None else None
        run = RunContext(
            served.workspace(),
            session_id=session_id or (found.session_id if found is not None else None),
            transcript=served.transcript(transcript),
        )
        result = run_intent(intent, run)
        if not result.ok:
            raise failed(result.text)
        return {"intent": intent.to_dict(), "result": result.to_dict()}
