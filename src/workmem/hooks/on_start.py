"""Session start: register or find the memory session, then give the agent its context.

A new session gets the loader's budgeted working memory and the relay restore; a resumed
or compacted one gets its own notes (the compaction seed), its snapshot and the relay
snapshot instead.
"""

from __future__ import annotations

from .handlers import HookRun, Reply, memory_session

#: Tokens of injected context at session start (about 2,000-4,000 tokens).
START_CONTEXT_TOKENS = 3000
RESUME_SOURCES = ("compact", "resume")


def on_session_start(run: HookRun) -> Reply:
    sid = memory_session(run, register=True)
    parts = [f"Your Memory Session ID is: {sid}"]
    if run.inp.source in RESUME_SOURCES and sid:
        parts += _resume_parts(run, sid)
    else:
        parts += _startup_parts(run)
    return Reply(context="\n\n".join(p.strip() for p in parts if p and p.strip()))


def _startup_parts(run: HookRun) -> list[str]:
    from ..journal.budget import BudgetConfig
    from ..journal.loader import MemoryLoader
    from ..relay.restore import restore

    parts = []
    loaded = MemoryLoader(run.workspace.root).load_session_context(
        "", budget=BudgetConfig(total=START_CONTEXT_TOKENS)
    )
    if loaded.text.strip():
        parts.append(loaded.text)
    exclude = [run.transcript] if run.transcript else None
    restored = restore(run.workspace, platform=run.inp.platform, exclude=exclude, home=run.home)
    if restored.text.strip() and (restored.sessions or restored.snapshot_found):
        parts.append(_cap(restored.text, START_CONTEXT_TOKENS))
    return parts


def _resume_parts(run: HookRun, sid: str) -> list[str]:
    from ..board.context import BoardContext
    from ..errors import NotFoundError
    from ..relay.restore import read_snapshot

    parts = []
    try:
        from ..notes.workflow import compaction_seed

        parts.append(compaction_seed(run.workspace, sid, run.transcript))
    except NotFoundError:
        pass  # no notes yet for a young session
    snapshot = BoardContext.open(run.workspace.root).snapshot_text(sid)
    if snapshot:
        parts.append(f"Session snapshot ({sid}):\n\n{snapshot}")
    relay = read_snapshot(run.workspace)
    if relay:
        parts.append(_cap(relay, START_CONTEXT_TOKENS // 2))
    return parts


def _cap(text: str, tokens: int) -> str:
    from ..retrieval.tokens import count_tokens

    if count_tokens(text) <= tokens:
        return text
    lines = text.splitlines()
    kept: list[str] = []
    used = 0
    for line in lines:
        cost = count_tokens(line) + 1
        if used + cost > tokens:
            kept.append(f"… {len(lines) - len(kept)} more lines omitted")
            break
        kept.append(line)
        used += cost
    return "\n".join(kept)
