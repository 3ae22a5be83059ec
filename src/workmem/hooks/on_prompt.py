"""User prompt: a trigger phrase runs its workflow; context usage past a threshold saves;
optionally, memory passages for the prompt are recalled.

This runs before every prompt the person sends, so the common case (an ordinary message,
context below every threshold) costs one phrase check and one incremental usage read.
"""

from __future__ import annotations

from .handlers import HookRun, Reply, adopter, memory_session


def on_user_prompt(run: HookRun) -> Reply:
    from ..phrases import detect

    parts: list[str] = []
    intent = detect(run.inp.prompt or "")
    if intent is not None:
        from ..dispatch import RunContext, run_intent, workflow_words
        from ..i18n import language_for

        sid = memory_session(run, register=False)
        context = RunContext(
            run.workspace, run.inp.platform, sid, run.transcript, run.home, adopt=adopter(run)
        )
        result = run_intent(intent, context)
        words = workflow_words(intent.workflow, language_for(run.workspace))
        parts.append(f"[workmem: {words}]\n{result.text}")
    warning = _usage_warning(run)
    if warning:
        parts.append(warning)
    if intent is None:
        handed = _first_prompt_handoff(run)
        if handed:
            parts.insert(0, handed)
        else:
            recalled = _recall(run)
            if recalled:
                parts.append(recalled)
    return Reply(context="\n\n".join(parts) if parts else None)


def _first_prompt_handoff(run: HookRun) -> str | None:
    """A first prompt that only says "continue" (繼續, 続けて …): the last session's work."""
    from ..continuity.handoff import is_bare_continue

    if not is_bare_continue(run.inp.prompt):
        return None
    from ..continuity.handoff import at_first_prompt

    sid = memory_session(run, register=False)
    done = at_first_prompt(
        run.workspace,
        session_id=sid,
        transcript=run.transcript,
        platform=run.inp.platform,
        home=run.home,
        cwd=str(run.inp.cwd) if run.inp.cwd else None,
    )
    return done.briefing.text if done is not None else None


def _recall(run: HookRun) -> str | None:
    """Optional (``[hooks] recall_tokens`` in workmem.toml, off by default): memory passages
    for the prompt, within that many tokens. Off by default because it opens the search
    index on every prompt; worth it where agents often ask about earlier work."""
    from ..config import load_settings

    budget = load_settings(run.workspace).section("hooks").get("recall_tokens", 0)
    prompt = (run.inp.prompt or "").strip()
    if not isinstance(budget, int) or isinstance(budget, bool) or budget <= 0 or not prompt:
        return None
    from ..journal.loader import MemoryLoader

    found = MemoryLoader(run.workspace.root).phase_4_search(prompt, budget_tokens=budget)
    return found.text or None


def _usage_warning(run: HookRun) -> str | None:
    """The context thresholds of the session-wrap and relay designs: each zone's save and
    words, once per rise (``relay.pressure``)."""
    if run.transcript is None:
        return None
    from ..relay.usage import context_usage

    # The common case, below every threshold, costs one incremental read and no more.
    usage = context_usage(run.transcript, run.inp.platform, store=run.store)
    from ..relay.zones import calls_for_action

    if not calls_for_action(usage.percent):
        return None
    from ..relay.pressure import respond
    from .runner import log_failure

    def log(part: str, exc: BaseException) -> None:
        log_failure(run.workspace, f"{run.inp.platform}:{run.inp.event}/{part}", exc)

    return respond(
        run.workspace,
        run.store,
        transcript=run.transcript,
        platform=run.inp.platform,
        usage=usage,
        session=lambda: memory_session(run, register=False),
        home=run.home,
        log=log,
    )
