"""The account of a session in words: the board Summary, the state line of the snapshot and
the daily log, the resumption note. One telling for all of them, in the user's language,
so that what other agents choose by and what the next session reads agree.
"""

from __future__ import annotations

from ..files.shorten import clip_words, flatten
from ..transcripts.account import FINISHED, IN_PROGRESS, WAITING, SessionAccount


def _t(language: str, key: str, **fields: object) -> str:
    from ..i18n import text

    return text(language, key, **fields)


def _files(paths: list[str], limit: int = 3) -> str:
    names = [p.rsplit("/", 1)[-1] for p in paths]
    shown = ", ".join(dict.fromkeys(names[:limit]))
    more = len(dict.fromkeys(names)) - min(limit, len(dict.fromkeys(names)))
    return shown + (f" (+{more})" if more > 0 else "")


def _tests_phrase(account: SessionAccount, language: str) -> str:
    run = account.last_tests
    if run is None:
        return ""
    figures = f" ({run.figures})" if run.figures else ""
    key = "account.tests_passed" if run.passed else "account.tests_failed"
    return _t(language, key, figures=figures)


def outcome_parts(
    account: SessionAccount, language: str = "en", *, beside_work: bool = False
) -> list[str]:
    """The account as short clauses, most telling first (joined by the caller). With
    ``beside_work`` the document shows the plan, the request, the commits and the tests
    beside it: only what they do not say is told (the state, the closing words, a count)."""
    parts: list[str] = []
    items = _t(language, "save.list_separator")
    if account.status == FINISHED:
        if account.closing_states_outcome or not account.done:
            parts.append(_t(language, "account.done", text=account.closing))
        else:
            last = clip_words(account.done[-1], 80) if account.done else ""
            parts.append(_t(language, "account.done_steps", n=len(account.done), last=last))
    elif account.status == IN_PROGRESS:
        doing = [text for status, text in account.open if status == "in_progress"]
        pending = [text for status, text in account.open if status == "pending"]
        if doing and not beside_work:
            parts.append(_t(language, "account.in_progress", text=items.join(doing[:2])))
        if pending and not beside_work:
            parts.append(_t(language, "account.next", items=items.join(pending[:3])))
        total = len(account.done) + len(account.open) + len(account.dropped)
        parts.append(_t(language, "account.progress", done=len(account.done), total=total))
    elif account.status == WAITING:
        parts.append(_t(language, "account.waiting", text=account.question))
    elif account.task and not beside_work:
        parts.append(_t(language, "account.worked_on", text=clip_words(flatten(account.task), 160)))
        if account.closing:
            parts.append(_t(language, "account.said", text=account.closing))
    if beside_work:
        if account.question and account.status == FINISHED:
            parts.append(_t(language, "account.asked", text=account.question))
        return parts
    if account.question and account.status == FINISHED:
        parts.append(_t(language, "account.asked", text=account.question))
    if account.commits:
        parts.append(_t(language, "account.committed", text=clip_words(account.commits[-1], 100)))
    tests = _tests_phrase(account, language)
    if tests:
        parts.append(tests)
    if account.edited and account.status != FINISHED:
        parts.append(_t(language, "account.changed", files=_files(account.edited)))
    return parts


def headline(
    account: SessionAccount, language: str = "en", limit: int = 240, *, beside_work: bool = False
) -> str:
    """One line for the board Summary and the daily log (cut at a word, never mid-word)."""
    parts = outcome_parts(account, language, beside_work=beside_work)
    if not parts:
        return ""
    separator = _t(language, "save.separator")
    joined = ""
    for part in parts:
        if joined:
            joined += " " if joined.endswith(("?", "？", "!", "！", "…")) else separator
        joined += part.rstrip(".。") if not part.endswith("…") else part
    end = "" if joined.endswith(("。", "！", "？", ".", "!", "?", "…")) else "."
    if language.startswith(("zh", "ja")):
        end = "" if joined.endswith(("。", "…")) else "。"
    return clip_words(joined + end, limit)


def open_items(account: SessionAccount) -> list[str]:
    """The plan's open steps as list lines with their state."""
    return [
        f"- [{'in progress' if status == 'in_progress' else 'pending'}] {text}"
        for status, text in account.open
    ]
