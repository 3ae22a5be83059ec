"""Every command of the CLI, and the MCP tool that runs the same workflow, or why none does.

An agent connected over MCP should be able to do what a hook or a person at a terminal
can. A test walks the CLI's parser and checks that each command is listed here and that
each tool named exists, so a new command cannot be added without deciding this. No
import of the SDK here: this is data.
"""

from __future__ import annotations

#: command (as typed after ``workmem``) -> the tools that run it
TOOLS: dict[str, tuple[str, ...]] = {
    "session start": ("session_start", "session_current"),
    "session register": ("session_register",),
    "session update": ("session_update",),
    "session continue": ("session_continue",),
    "session release": ("session_release",),
    "session archive": ("session_archive",),
    "session list": ("session_list",),
    "session show": ("session_show",),
    "organize": ("organize",),
    "doctor": ("doctor", "doctor_fix"),
    "platform": ("platform",),
    "memory add": ("memory_add",),
    "memory list": ("memory_list",),
    "memory show": ("memory_show",),
    "maintain": ("maintain",),
    "curate": ("curate",),
    "wrap": ("wrap", "wrap_state"),
    "context": ("context_usage",),
    "transcripts list": ("transcripts_list",),
    "transcripts history": ("transcript_history",),
    "transcripts status": ("transcript_status",),
    "handoff": ("handoff",),
    "relay inherit": ("relay_inherit",),
    "relay snapshot": ("relay_snapshot",),
    "relay restore": ("relay_restore",),
    "relay archive": ("relay_archive",),
    "relay status": ("relay_status",),
    "notes": ("notes_refresh", "notes_view", "notes_seed"),
    "init": ("init",),
    "migrate": ("migrate",),
    "note decision": ("note_decision",),
    "note question": ("note_question",),
    "note pattern": ("note_pattern",),
    "note thread": ("note_thread",),
    "event add": ("event_add",),
    "event find": ("event_find",),
    "end": ("end_session",),
    "load": ("load_context",),
    "say": ("which_workflow", "run_workflow"),
    "search": ("search",),
    "get": ("get",),
    "timeline": ("timeline",),
    "reindex": ("reindex",),
}

#: command -> why no tool runs it (said to a developer reading this, and to the test)
NOT_TOOLS: dict[str, str] = {
    "setup": "changes the agent's own configuration and hooks: the user's decision, at a terminal",
    "hooks install": "changes the agent's own configuration: the user's decision, at a terminal",
    "hooks uninstall": "changes the agent's own configuration: the user's decision",
    "bootstrap": "edits the agent's instruction files: part of setup, the user's decision",
    "hook": "the agent's own entry point for its events, with its JSON on standard input",
    "mcp": "this server itself",
    "serve": "the web viewer, a server of its own",
    "bench locomo": "a benchmark over a data set, for developers",
    "bench continuity": "a benchmark over recorded sessions, for developers",
    "bench handoff": "a benchmark over recorded sessions, for developers",
    "sync": "commits and pushes with the user's git credentials: run at a terminal",
    "sync init": "changes the repository's git configuration: the user's decision",
    "sync uninit": "changes the repository's git configuration back: the user's decision",
    "merge-driver": "called by git during a merge, not by a person or an agent",
}
