"""Keywords that say what a session is about, once it has a real topic.

A session start writes the seed's placeholder keywords (``sessionStart, <platform>-agent``)
and nobody replaced them: other agents read Keywords to decide whether a session matters,
and "sessionStart" tells them nothing. When a save gives the session a topic, its keywords
become the topic's phrases and the files most worked on, with the agent's tag kept
(``rate limiting, login endpoint, limit.py, claude-code-agent``). Keywords an agent or a
person wrote are never replaced: only the start placeholder is.
"""

from __future__ import annotations

from .context import BoardContext
from .model import start_keywords


def is_start_placeholder(keywords: str) -> bool:
    """The keywords a session start writes, for any platform."""
    parts = [p.strip() for p in keywords.split(",")]
    return len(parts) == 2 and parts[0] == "sessionStart" and parts[1].endswith("-agent")


def refresh_keywords(ctx: BoardContext, session_id: str, words: list[str]) -> str | None:
    """Replace the start placeholder of ``session_id``'s Keywords with ``words`` (and the
    agent's tag); returns the new Keywords, or ``None`` when nothing changed."""
    if not words:
        return None
    with ctx.index.transaction() as board:
        row = board.get(session_id)
        if row is None or row.has_placeholder_topic or not is_start_placeholder(row.keywords):
            return None
        agent_tag = row.keywords.split(",")[1].strip() or start_keywords(ctx.platform or "")
        cleaned = [" ".join(w.replace(",", " ").split()) for w in words]
        row.keywords = ", ".join([*dict.fromkeys(w for w in cleaned if w), agent_tag])
        board.put(row)
    return row.keywords
