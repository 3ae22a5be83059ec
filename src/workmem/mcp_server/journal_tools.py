"""Session notes and the working-memory journal over MCP: notes, decisions, questions,
patterns, threads, dated events, the end of a session, the context loader, init, migrate.

A transcript a client names is read only from the memory root or an agent's own
transcript folders (``Served.transcript``); without one, the conversation's own transcript
(as the hooks recorded it) or the workspace's newest is used, as the CLI does.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .base import Kinds, Served, failed, friendly

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer


def _own_transcript(served: Served, named: str | None) -> Path | None:
    """The transcript named (checked), else the one the hooks recorded for this
    conversation, else None (the core then finds the workspace's newest)."""
    chosen = served.transcript(named)
    if chosen is not None:
        return chosen
    found = served.conversation()
    if found is not None and found.transcript:
        return served.transcript(found.transcript)
    return None


def _writer(served: Served, session_id: str | None = None) -> Any:
    from ..journal.writer import MemoryWriter

    found = served.conversation() if session_id is None else None
    key = session_id or (found.session_id if found is not None else None)
    return MemoryWriter(served.root, session_key=key)


def register(server: MCPServer, served: Served, kinds: Kinds) -> None:
    # ---- session notes -----------------------------------------------------------------
    @server.tool(annotations=kinds.write)
    @friendly
    def notes_refresh(
        session_id: str | None = None,
        transcript: str | None = None,
        extractor: str | None = None,
    ) -> dict[str, Any]:
        """Extract the session notes from the transcript now (what /notes does). Both
        default to this conversation's; a transcript path must be in the memory root or an
        agent's own transcript folders."""
        from ..notes.workflow import update_notes

        result = update_notes(
            served.workspace(),
            session_id=served.session(session_id),
            transcript=_own_transcript(served, transcript),
            extractor=extractor,
        )
        if result.failed:
            raise failed(f"the notes were not updated: {result.failed}")
        return dict(result.to_dict())

    @server.tool(annotations=kinds.read)
    @friendly
    def notes_view(session_id: str | None = None) -> str:
        """The session notes as they are (what /notes --view shows)."""
        from ..notes.workflow import view_notes

        return view_notes(served.workspace(), served.session(session_id))[1]

    @server.tool(annotations=kinds.read)
    @friendly
    def notes_seed(session_id: str | None = None) -> str:
        """The notes as the summary a compacted session starts from."""
        from ..notes.workflow import compaction_seed

        return compaction_seed(served.workspace(), served.session(session_id))

    # ---- the journal ---------------------------------------------------------------------
    @server.tool(annotations=kinds.write)
    @friendly
    def note_decision(text: str, why: str = "", thread: str | None = None) -> dict[str, Any]:
        """Note a decision and why, in today's log (and the thread's, when named)."""
        return dict(_writer(served).note_decision(text, why, thread=thread))

    @server.tool(annotations=kinds.write)
    @friendly
    def note_question(text: str, thread: str | None = None) -> dict[str, Any]:
        """Note an open question."""
        return dict(_writer(served).note_open_question(text, thread=thread))

    @server.tool(annotations=kinds.write)
    @friendly
    def note_pattern(text: str) -> dict[str, Any]:
        """Note a pattern noticed (curation promotes patterns the logs confirm)."""
        return dict(_writer(served).note_pattern(text))

    @server.tool(annotations=kinds.write)
    @friendly
    def note_thread(thread: str) -> dict[str, Any]:
        """Note that a thread (thread-…) was touched today."""
        return dict(_writer(served).note_thread_touched(thread))

    @server.tool(annotations=kinds.write)
    @friendly
    def event_add(
        event_type: str,
        text: str,
        action: str | None = None,
        object_hint: str | None = None,
        normalized_date: str | None = None,
        date_text: str | None = None,
        session_date: str | None = None,
    ) -> dict[str, Any]:
        """Record a dated event; relative dates are resolved against today."""
        event = _writer(served).note_event(
            event_type,
            text,
            action=action,
            object_hint=object_hint,
            normalized_date=normalized_date,
            date_text=date_text,
            session_date=session_date,
        )
        return dict(event.to_json())

    @server.tool(annotations=kinds.read)
    @friendly
    def event_find(query: str) -> dict[str, Any]:
        """Events for a question, ranked by the dates it names, then by words."""
        from ..journal.loader import MemoryLoader

        found = MemoryLoader(served.root).phase_4_event_lookup(query)
        return {"text": found.text, "items": found.items, "metadata": found.metadata}

    @server.tool(annotations=kinds.write)
    @friendly
    def end_session(
        session_summary: str,
        resumption_note: str,
        thread_updates: dict[str, dict[str, Any]] | None = None,
        mood: str | None = None,
        session_id: str | None = None,
    ) -> dict[str, Any]:
        """End the session: daily log, threads, resumption note, state (this
        conversation's session unless ``session_id`` names another)."""
        report = _writer(served, session_id).end_session(
            session_summary, resumption_note, thread_updates, mood
        )
        return dict(report.to_dict())

    @server.tool(annotations=kinds.read)
    @friendly
    def load_context(user_message: str = "", total_tokens: int | None = None) -> dict[str, Any]:
        """The 4-phase memory context for a message, within a token budget."""
        from ..journal.budget import BudgetConfig
        from ..journal.loader import MemoryLoader

        budget = BudgetConfig(total=total_tokens) if total_tokens else None
        context = MemoryLoader(served.root).load_session_context(user_message, budget=budget)
        return {"text": context.text, "total_tokens": context.total_tokens, **context.metadata}

    @server.tool(annotations=kinds.write)
    @friendly
    def init(agent_name: str | None = None, user_name: str | None = None) -> dict[str, Any]:
        """Scaffold the working-memory files here (never overwrites a file)."""
        from ..journal.scaffold import init as run_init

        report = run_init(served.root, agent_name=agent_name, user_name=user_name)
        return dict(report.to_dict())

    @server.tool(annotations=kinds.write)
    @friendly
    def migrate(dry_run: bool = False, skip_agent_patch: bool = False) -> dict[str, Any]:
        """Upgrade a legacy workspace (AGENT.md, MEMORY.md, logs); ``dry_run`` only plans."""
        from ..journal.migrate import migrate as run_migrate

        report = run_migrate(served.root, dry_run=dry_run, skip_agent_patch=skip_agent_patch)
        return dict(report.to_dict())
