"""Getting workmem's context to the model where a platform's hook cannot carry it.

Gemini CLI: no SessionStart follows a compression (its sources are startup, resume and
clear), so at PreCompress the context a compacted session needs is built and kept; the next
BeforeAgent hook, which can add context, hands it over with the prompt.

Cursor: ``beforeSubmitPrompt`` answers only ``continue`` and ``user_message``, and no session
start follows a compaction. What those points would have said goes into a small rules file
that Cursor sends with every request (``.cursor/rules/workmem.mdc``, ``alwaysApply``):
rewritten at each save (pre-compact, session end), capped, and git-ignored by
``workmem hooks install``.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from ..errors import UsageError
from ..hooks.events import PRE_COMPACT, SESSION_END, SESSION_START, USER_PROMPT
from ..hooks.handlers import HookRun, Reply

PENDING_NAME = "pending-context.json"
#: Gemini CLI compresses a chat when its last prompt passed this share of the model's window
#: (its default; ``model.compressionThreshold`` in its settings changes it)
GEMINI_THRESHOLD = 0.5
#: how close to that share a PreCompress is taken to come before a real compression
GEMINI_MARGIN = 0.9
RULES_FILE = Path(".cursor") / "rules" / "workmem.mdc"
#: Tokens a rules file or a kept context may hold: it travels with every request.
MAX_TOKENS = 1500
_RULES_HEAD = (
    "---\n"
    "description: Where this work stands, kept by workmem (rewritten at each save)\n"
    "alwaysApply: true\n"
    "---\n\n"
)


def route(run: HookRun, reply: Reply) -> Reply:
    """The answer to give now; what the platform cannot take now is kept for later."""
    platform, event = run.inp.platform, run.inp.event
    if platform == "gemini":
        if event == USER_PROMPT:
            kept = take(run)
            if kept:
                context = "\n\n".join(p for p in (kept, reply.context) if p)
                return Reply(context=context, notice=reply.notice)
        elif event == PRE_COMPACT and compression_due(run):
            keep(run, resume_context(run))
    elif platform == "cursor":
        if event == USER_PROMPT and reply.context:
            write_rules(run, notice=reply.context)
            return Reply(notice=reply.notice)
        if event in (PRE_COMPACT, SESSION_END):
            write_rules(run, state=resume_context(run))
    return reply


def compression_due(run: HookRun) -> bool:
    """Whether a pre-compact event is followed by a compaction. Gemini CLI (0.61) fires
    PreCompress before every model request, before it checks whether the chat is long
    enough to compress (``ChatCompressionService.compress``): a save and a kept context at
    each of them would cost every prompt a full save and inject the resume document into
    the next one. There, only a manual /compress or a context near Gemini's threshold
    counts; the turn-end saves (AfterAgent) keep the session current in between."""
    if run.inp.platform != "gemini" or run.inp.source == "manual":
        return True
    if run.transcript is None:
        return False
    from ..relay.usage import context_usage

    try:
        usage = context_usage(run.transcript, "gemini", store=run.store)
    except Exception:
        return True  # cannot tell: save, as before
    if usage.source != "recorded" or usage.window <= 0:
        return True  # no token counts in the chat file: cannot tell, save as before
    return usage.percent >= 100 * _gemini_threshold(run) * GEMINI_MARGIN


def _gemini_threshold(run: HookRun) -> float:
    """``model.compressionThreshold`` from the project's settings, else the user's."""
    from .jsonc import load_object

    home = run.home or Path.home()
    for folder in (run.inp.cwd or run.workspace.root, home):
        path = Path(folder) / ".gemini" / "settings.json"
        try:
            if not path.is_file() or path.stat().st_size > 1024 * 1024:
                continue
            model = load_object(path.read_text(encoding="utf-8"), str(path)).get("model")
        except Exception:
            continue
        value = model.get("compressionThreshold") if isinstance(model, dict) else None
        if isinstance(value, int | float) and not isinstance(value, bool) and 0 < value <= 1:
            return float(value)
    return GEMINI_THRESHOLD


def resume_context(run: HookRun) -> str | None:
    """What a session start after a compaction gives the model, built now."""
    from ..hooks.handlers import handle

    again = HookRun(
        replace(run.inp, event=SESSION_START, source="compact"),
        run.workspace,
        run.store,
        run.home,
    )
    return handle(again).context


def _cap(text: str) -> str:
    from ..retrieval.tokens import count_tokens

    if count_tokens(text) <= MAX_TOKENS:
        return text
    kept: list[str] = []
    used = 0
    for line in text.splitlines():
        cost = count_tokens(line) + 1
        if used + cost > MAX_TOKENS:
            kept.append("… (more in memory/; `workmem notes --view` shows the session notes)")
            break
        kept.append(line)
        used += cost
    return "\n".join(kept)


# -- Gemini: kept until the next prompt ----------------------------------------------------
def _pending(run: HookRun) -> Path:
    return run.workspace.state_dir / PENDING_NAME


def _load(text: str | None) -> dict[str, str]:
    try:
        data = json.loads(text) if text else {}
    except json.JSONDecodeError:
        return {}  # derived state: a broken file only loses a hand-over, never memory
    return {k: v for k, v in data.items() if isinstance(v, str)} if isinstance(data, dict) else {}


def keep(run: HookRun, text: str | None) -> None:
    """Keep ``text`` for the next prompt of this platform session."""
    if not text or not run.inp.session_id:
        return
    key = f"{run.inp.platform}:{run.inp.session_id}"
    capped = _cap(text)

    def change(current: str | None) -> str:
        data = _load(current)
        data[key] = capped
        return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"

    run.store.update(_pending(run), change)


def take(run: HookRun) -> str | None:
    """The context kept for this platform session, removed as it is handed over."""
    if not run.inp.session_id or not _pending(run).is_file():
        return None
    key = f"{run.inp.platform}:{run.inp.session_id}"
    taken: list[str] = []

    def change(current: str | None) -> str:
        data = _load(current)
        if key in data:
            taken.append(data.pop(key))
        return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n"

    run.store.update(_pending(run), change)
    return taken[0] if taken else None


# -- Cursor: a rules file sent with every request --------------------------------------------
def rules_path(root: Path) -> Path:
    """The rules file, refused when a link would put it outside the project."""
    path = root / RULES_FILE
    resolved_root = root.resolve()
    parent = path.parent
    while not parent.exists() and parent != root:
        parent = parent.parent
    if not parent.resolve().is_relative_to(resolved_root) or (
        path.is_symlink() and not path.resolve().is_relative_to(resolved_root)
    ):
        raise UsageError(f"{RULES_FILE} leads outside the project; nothing was written")
    return path


def write_rules(run: HookRun, *, state: str | None = None, notice: str | None = None) -> None:
    """Rewrite the rules file: the latest saved state, then the latest notice if any.

    A save (``state``) replaces the whole file; a notice replaces only the notice part and
    keeps the state the last save wrote.
    """
    path = rules_path(run.workspace.root)
    marker = "\n## Latest from workmem\n\n"

    def change(current: str | None) -> str:
        old_state = ""
        if current and current.startswith(_RULES_HEAD):
            old_state = current[len(_RULES_HEAD) :].split(marker, 1)[0].strip()
        body = _cap(state).strip() if state is not None else old_state
        text = _RULES_HEAD + (body or "No saved state yet.") + "\n"
        if notice and state is None:
            text += marker + _cap(notice).strip() + "\n"
        return text

    run.store.update(path, change)
