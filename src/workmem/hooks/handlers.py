"""What workmem does at each hook event; every step is a call into a core room.

session start   register (idle) or find this platform session's memory session;
                inject its ID and a budgeted context; after a compaction or on
                resume, inject the notes (the compaction seed), the snapshot and
                the relay restore
user prompt     trigger phrases run their workflow; context-usage zones save and warn
pre-compact     notes extracted, snapshot merged, relay snapshot written, all verified
stop            gated notes extraction started detached
session end     relay snapshot with daily-log sync; resumption note from the notes
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .. import clock
from ..files.store import Store
from ..root import Workspace
from .events import PRE_COMPACT, SESSION_END, SESSION_START, STOP, USER_PROMPT
from .io import HookInput
from .session_map import lookup, remember

#: Characters of injected context at session start (about 2,000-4,000 tokens).
START_CONTEXT_TOKENS = 3000
RESUME_SOURCES = ("compact", "resume")


@dataclass
class Reply:
    context: str | None = None
    notice: str | None = None


@dataclass
class HookRun:
    inp: HookInput
    workspace: Workspace
    store: Store
    home: Path | None = None

    @property
    def transcript(self) -> Path | None:
        path = self.inp.transcript
        return path if path is not None and path.is_file() else None


def memory_session(run: HookRun, *, register: bool) -> str | None:
    """This platform session's memory session ID; registered (idle) when ``register``."""
    from ..board.context import BoardContext
    from ..board.lifecycle import start_session

    mapped = lookup(run.store, run.inp.platform, run.inp.session_id)
    ctx = BoardContext.open(run.workspace.root, platform=run.inp.platform)
    if mapped is not None and ctx.index.read().get(mapped.memory_session_id) is not None:
        return mapped.memory_session_id
    if not register:
        return mapped.memory_session_id if mapped else None
    result = start_session(ctx)
    if run.inp.session_id:
        remember(run.store, run.inp.platform, run.inp.session_id, result.session_id, run.transcript)
    return result.session_id


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
    from ..relay.workflows import restore

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
    from ..relay.workflows import read_snapshot

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


def on_user_prompt(run: HookRun) -> Reply:
    from ..phrases import detect

    parts: list[str] = []
    intent = detect(run.inp.prompt or "")
    if intent is not None:
        from ..dispatch import RunContext, run_intent

        sid = memory_session(run, register=False)
        result = run_intent(
            intent,
            RunContext(run.workspace, run.inp.platform, sid, run.transcript, run.home),
        )
        parts.append(f"[workmem: {intent.workflow}]\n{result.text}")
    warning = _usage_warning(run)
    if warning:
        parts.append(warning)
    return Reply(context="\n\n".join(parts) if parts else None)


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
            from ..dispatch import RunContext, _update
            from ..phrases import Intent

            context = RunContext(run.workspace, run.inp.platform, sid, run.transcript, run.home)
            _update(Intent("session.update", "checkpoint", "en"), context)
        messages.append(f"[workmem] context {percent:.0f}% ({usage.source}): {wrap_zone.message}")
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


def on_pre_compact(run: HookRun) -> Reply:
    from ..dispatch import RunContext, _update
    from ..phrases import Intent
    from ..relay.template import SnapshotNotes
    from ..relay.workflows import snapshot

    sid = memory_session(run, register=True)
    if run.transcript is None:
        return Reply()
    if sid:
        context = RunContext(run.workspace, run.inp.platform, sid, run.transcript, run.home)
        _update(Intent("session.update", "pre-compact", "en"), context)
    snapshot(
        run.workspace,
        SnapshotNotes(),
        transcript=run.transcript,
        platform=run.inp.platform,
        force=True,
        home=run.home,
    )
    return Reply(notice=f"[workmem] notes, snapshot {sid} and relay snapshot saved")


def on_stop(run: HookRun) -> Reply:
    from ..notes.workflow import run_detached

    sid = memory_session(run, register=False)
    if sid and run.transcript is not None:
        run_detached(
            run.workspace,
            session_id=sid,
            transcript=run.transcript,
            platform=run.inp.platform,
            gated=True,
        )
    return Reply()


def on_session_end(run: HookRun) -> Reply:
    """Checkpoint the session's state: relay snapshot (with its daily-log entry), the board
    snapshot from the notes, and a resumption note built from the notes."""
    from ..dispatch import RunContext, _transcript_context, _update
    from ..journal.writer import MemoryWriter
    from ..phrases import Intent
    from ..relay.template import SnapshotNotes
    from ..relay.workflows import snapshot

    sid = memory_session(run, register=False)
    if run.transcript is None or sid is None:
        return Reply()
    context = RunContext(run.workspace, run.inp.platform, sid, run.transcript, run.home)
    state, _files = _transcript_context(context)
    _update(Intent("session.update", "session-end", "en"), context)
    snapshot(
        run.workspace,
        SnapshotNotes(),
        transcript=run.transcript,
        platform=run.inp.platform,
        force=True,
        home=run.home,
    )
    if state:
        note = (
            f"I was working in memory session {sid}. Where I left it ({clock.stamp()}): "
            f"{state.strip()}\nPick up from there; the session snapshot and notes have details."
        )
        MemoryWriter(run.workspace.root).end_session(
            session_summary=f"Session {sid} ended: {state.strip()[:300]}",
            resumption_note=note,
        )
    return Reply()


HANDLERS = {
    SESSION_START: on_session_start,
    USER_PROMPT: on_user_prompt,
    PRE_COMPACT: on_pre_compact,
    STOP: on_stop,
    SESSION_END: on_session_end,
}


def handle(run: HookRun) -> Reply:
    return HANDLERS[run.inp.event](run)
