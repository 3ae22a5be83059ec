"""A session ends, the next one loads its context: the working-memory part of ``make demo``.

``run(root)`` works in the folder it is given (an empty temporary one in the demo) and
prints what an agent would see; ``python -m workmem.journal.demo`` runs it in a temp folder.
The clock is pinned per step with ``WORKMEM_NOW`` so the output is the same every time.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path


def run(root: Path, say: Callable[[str], None] = print) -> None:
    from .scaffold import init
    from .writer import MemoryWriter

    previous = os.environ.get("WORKMEM_NOW")
    try:
        os.environ["WORKMEM_NOW"] = "2026-05-24 17:40"
        created = init(root, agent_name="demo-agent", user_name="Alice")
        say(f"$ workmem init  → created {len(created.created)} files")
        writer = MemoryWriter(root, agent_name="demo-agent")
        writer.note_decision(
            "Refresh tokens live 14 days", "shorter broke mobile", thread="thread-auth"
        )
        writer.note_open_question("Rotate signing keys monthly?", thread="thread-auth")
        event = writer.note_event(
            "purchase",
            "I bought white Adidas sneakers on 3/15.",
            "purchase",
            "white adidas sneakers",
            session_date="2023-03-20",
        )
        say(f"$ workmem event add …  → {event.id} on {event.normalized_date} (said as '3/15')")
        report = writer.end_session(
            "Settled the refresh-token lifetime; key rotation still open.",
            "I settled refresh tokens at 14 days. Next I decide key rotation — Alice leans "
            "monthly. Keep answers short; she is reviewing on her phone.",
            {"thread-auth": {"title": "Auth redesign", "current_position": "Lifetimes settled."}},
            mood="focused",
        )
        say(f"$ workmem end …  → session {report.session} written to {len(report.files)} files")
        for path in report.files:
            say(f"    {path}")
        os.environ["WORKMEM_NOW"] = "2026-05-25 09:05"
        from .loader import MemoryLoader

        loader = MemoryLoader(root)
        context = loader.load_session_context("Morning! Back to the auth redesign.")
        say('\n$ workmem load "Morning! Back to the auth redesign."')
        say(context.text.rstrip())
        say(f"\n({context.total_tokens} tokens; strategy {context.metadata['strategy']})")
        found = loader.phase_4_event_lookup("what did I buy in March?")
        say('\n$ workmem event find "what did I buy in March?"')
        say(found.text.rstrip())
    finally:
        if previous is None:
            os.environ.pop("WORKMEM_NOW", None)
        else:
            os.environ["WORKMEM_NOW"] = previous


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        run(Path(folder))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
