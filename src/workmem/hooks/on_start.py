"""Session start: register or find the memory session, then give the agent its context.

A new session gets the loader's budgeted working memory and the relay restore; a resumed
or compacted one gets one document of where it left off, built from the transcript and
what its saves wrote (``continuity.resume``), within ``[hooks] resume_tokens``.
"""

from __future__ import annotations

from .handlers import HookRun, Reply, memory_session

#: Tokens of injected context at session start (about 2,000-4,000 tokens).
START_CONTEXT_TOKENS = 3000
RESUME_SOURCES = ("compact", "resume")


def on_session_start(run: HookRun) -> Reply:
    sid = memory_session(run, register=True)
    head = f"Your Memory Session ID is: {sid}"
    if run.inp.source in RESUME_SOURCES and sid:
        from ..continuity.resume import build_resume_context

        resumed = build_resume_context(
            run.workspace,
            session_id=sid,
            transcript=run.transcript,
            platform=run.inp.platform,
            home=run.home,
            header=[head],
        )
        return Reply(context=resumed.text)
    from ..continuity.save import failure_line
    from ..sync.copies import copies_notice  # one line when a cloud folder left copies

    parts = [head, failure_line(run.workspace) or "", *_startup_parts(run)]
    parts.append(copies_notice(run.workspace) or "")
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
