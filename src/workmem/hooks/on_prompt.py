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
    """Seeds 000 and 002 at their thresholds: save, and say so once per zone.

    Relay (002): from 60 % the relay snapshot is kept fresh, past 85 % every reply carries
    the warning. Wrap (000): at ~50 % a checkpoint save of the session snapshot, at ~75 %
    the full-save alert; each announced once per transcript and zone.
    """
    if run.transcript is None:
        return None
    from ..relay.usage import context_usage
    from ..relay.zones import zone_for

    # The common case, below every threshold, costs one incremental read and no more.
    usage = context_usage(run.transcript, run.inp.platform, store=run.store)
    percent = usage.percent
    relay_level = zone_for(percent, "relay").level
    wrap_zone = zone_for(percent, "wrap")
    if relay_level == 0 and wrap_zone.level < 2:
        return None
    messages: list[str] = []
    if relay_level >= 1:
        from ..relay.workflows import status

        report = status(
            run.workspace,
            transcript=run.transcript,
            platform=run.inp.platform,
            apply=True,
            home=run.home,
        )
        if report.warning:
            messages.append(report.warning)
    if _zone_rose(run, wrap_zone.name, wrap_zone.level):
        sid = memory_session(run, register=False)
        if sid:
            from ..dispatch import RunContext, update_from_transcript
            from ..phrases import Intent

            context = RunContext(run.workspace, run.inp.platform, sid, run.transcript, run.home)
            update_from_transcript(Intent("session.update", "checkpoint", "en"), context)
        from ..i18n import language_for
        from ..relay.zones import zone_message

        said = zone_message(wrap_zone, language_for(run.workspace))
        messages.append(f"[workmem] context {percent:.0f}% ({usage.source}): {said}")
    return "\n\n".join(messages) or None


def _zone_rose(run: HookRun, name: str, level: int) -> bool:
    """Record the wrap zone reached for this transcript; True the first time it is reached."""
    import json

    path = run.workspace.state_dir / "hook-zones.json"
    key = str(run.transcript)
    risen = False

    def change(text: str | None) -> str:
        nonlocal risen
        try:
            data = json.loads(text) if text else {}
        except json.JSONDecodeError:
            data = {}
        if not isinstance(data, dict):
            data = {}
        seen = data.get(key, {})
        if not isinstance(seen, dict) or name not in seen.get("zones", []):
            risen = True
            zones = seen.get("zones", []) if isinstance(seen, dict) else []
            data[key] = {"zones": [*zones, name], "level": level}
        return json.dumps(data, ensure_ascii=False, sort_keys=True) + "\n"

    run.store.update(path, change)
    return risen
