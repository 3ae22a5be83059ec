"""Which memory session the conversation a process serves belongs to, found the hooks' way.

The session-start hook registers each platform session once and records the pair
(``session_map``). A process the same agent starts later (its MCP server, above all) must
use that session, never register a second one beside it. It asks, in order:

1. ``WORKMEM_SESSION_ID``, when the user or a wrapper set it;
2. the agent process that started it: the hooks record the agent that ran them, so the
   session that agent registered last is this conversation's (right after ``/clear`` too,
   which starts a new platform session in the same agent);
3. the platform session id an agent puts in its children's environment (Claude Code's
   ``CLAUDE_CODE_SESSION_ID``; Codex gives its MCP servers no such variable).

An answer counts only while the board still has that session. ``None`` means the hooks
registered nothing for this conversation (they are not installed, or not trusted yet).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from ..root import Workspace

SESSION_ENV = "WORKMEM_SESSION_ID"
#: (platform, variable) an agent sets to its own session id in the processes it starts
PLATFORM_SESSION_ENV = (("claude-code", "CLAUDE_CODE_SESSION_ID"), ("codex", "CODEX_THREAD_ID"))


@dataclass(frozen=True)
class Conversation:
    """This conversation's memory session, and how it was found."""

    session_id: str
    #: "environment", "agent" or "platform session"
    found_by: str
    platform: str | None = None
    transcript: str | None = None

    def to_dict(self) -> dict[str, str | None]:
        return {
            "session_id": self.session_id,
            "found_by": self.found_by,
            "platform": self.platform,
            "transcript": self.transcript,
        }


def platform_session(env: Mapping[str, str] | None = None) -> tuple[str, str] | None:
    """(platform, platform session id) from the environment an agent gave this process."""
    environ = os.environ if env is None else env
    for platform, name in PLATFORM_SESSION_ENV:
        value = (environ.get(name) or "").strip()
        if value:
            return platform, value
    return None


def find_conversation(
    workspace: Workspace, env: Mapping[str, str] | None = None, *, agent: str | None = None
) -> Conversation | None:
    """This conversation's memory session, or None (see the module docstring).

    ``agent``: the agent process to match (``oscompat.agent_process()`` when None).
    """
    from ..board.context import BoardContext
    from ..files.oscompat import agent_process
    from .session_map import by_agent, lookup

    environ = os.environ if env is None else env
    ctx = BoardContext.open(workspace.root)
    on_board = ctx.index.read()

    def alive(session_id: str | None) -> bool:
        return bool(session_id) and on_board.get(str(session_id)) is not None

    named = (environ.get(SESSION_ENV) or "").strip()
    if alive(named):
        return Conversation(named, "environment")
    mapped = by_agent(ctx.store, agent if agent is not None else agent_process())
    if mapped is not None and alive(mapped.memory_session_id):
        return Conversation(mapped.memory_session_id, "agent", mapped.platform, mapped.transcript)
    pair = platform_session(environ)
    if pair is not None:
        mapped = lookup(ctx.store, *pair)
        if mapped is not None and alive(mapped.memory_session_id):
            return Conversation(
                mapped.memory_session_id, "platform session", mapped.platform, mapped.transcript
            )
    return None


def start_conversation(
    workspace: Workspace,
    agent_name: str | None = None,
    env: Mapping[str, str] | None = None,
    *,
    agent: str | None = None,
) -> tuple[Conversation, bool]:
    """This conversation's session, registered (idle) only when there is none yet.

    Returns (the conversation, whether it was registered now). Done under the board lock,
    as the session-start hook does, so a hook and a tool call at the same moment register
    one session between them. A session registered here is recorded in the platform map
    when the agent said which platform session this is, so later hooks find it too.
    """
    from ..board.context import BoardContext
    from ..board.start import start_session
    from ..platforms.runtime import running_platform
    from .session_map import remember

    pair = platform_session(env)
    platform = pair[0] if pair else running_platform(env)
    ctx = BoardContext.open(workspace.root, platform=platform)
    with ctx.index.locked():
        found = find_conversation(workspace, env, agent=agent)
        if found is not None:
            return found, False
        started = start_session(ctx, agent_name)
        if pair is not None:
            remember(ctx.store, pair[0], pair[1], started.session_id, None)
    return Conversation(started.session_id, "registered", platform), True
