"""Dated events the user states in the conversation, into the event ledger at each save.

Seed 004 keeps ``events.json`` for "user-stated dated events, purchases, issues,
meetings, milestones" and skips "assistant filler and vague sentiment". An agent rarely
calls ``note_event``, and with hooks only nobody does: the ledger stayed empty while the
user said "we shipped the parser on Monday" or "the demo is on the 12th". Here such
sentences are read from the user's own messages at a save:

* a sentence that is a statement (not a question, not a request to the agent),
* naming an event (a release, a meeting or demo, a deadline, an outage, a purchase) in
  English, Chinese, Japanese or Korean,
* and a date that resolves, against the day the message was written: the date engine's
  forms, plus the bare ones people use in conversation ("on Monday", "the 12th", 週一,
  12日, 12일), taken as the last such day for what happened and the next for what is to
  come.

Recording goes through ``append_events`` (locked, re-read, verified; a repeat is stored
once), so a save that runs again records nothing twice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache

from .dates import ResolvedDate

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from ..root import Workspace
    from ..transcripts.model import Transcript

#: user messages read per save, the newest
MESSAGES = 300
_EVENT_WORDS = (
    (
        "deadline",
        r"\b(?:deadline|due|code freeze|feature freeze|cutoff)\b"
        r"|截止|到期|期限|締め切り|締切|마감|기한",
    ),
    (
        "meeting",
        r"\b(?:meeting|demo|call|review|interview|standup|stand-up|sync|presentation|workshop|"
        r"retro|planning)\b|會議|会议|開會|开会|演示|展示|面試|面试|ミーティング|会議|デモ|"
        r"打ち合わせ|面接|회의|미팅|데모|발표|면접",
    ),
    (
        "issue",
        r"\b(?:outage|incident|went down|broke|crashed|regression|was down)\b|當機|当机|宕機|"
        r"宕机|故障|掛了|挂了|障害|落ちた|クラッシュ|장애|다운됐|크래시",
    ),
    (
        "purchase",
        r"\b(?:bought|ordered|purchased|paid for|subscribed)\b|買了|买了|購買|购买|訂了|订了|"
        r"買った|購入|注文|샀|구매|주문",
    ),
    (
        "milestone",
        r"\b(?:ship(?:ped|s)?|release[sd]?|launch(?:ed|es)?|deploy(?:ed|s)?|merged|went live|"
        r"goes live|go live|finished|completed|migrated|upgraded)\b|上線|上线|發布|发布|發佈|部署|"
        r"合併|合并|完成|遷移|迁移|リリース|公開|デプロイ|マージ|完了|移行|출시|배포|릴리스|"
        r"머지|완료|이전했",
    ),
)
# A request to the agent or a question is no statement of an event.
_REQUEST = (
    r"^(?:please|pls|can you|could you|would you|will you|let'?s|lets|fix|add|run|show|check|"
    r"look|make|create|update|write|implement|refactor|try|tell|explain|find|help|remove|"
    r"delete|rename|move|change|set|use|deploy|merge|ship|release|prepare|draft|schedule)\b"
    r"|^(?:幫|帮|請|请|麻煩|麻烦|把|給我|给我)|幫我|帮我|請你|请你"
    r"|(?:て|てください|して|しといて|ておいて)$|(?:줘|주세요|해)$"
)
_QUESTION = (
    r"[?？]\s*$|^(?:when|what|which|did|do|does|is|are|was|were|how|why)\b|[嗎吗呢]$|か$|까$"
)
_PAST = (
    r"\b\w+ed\b|\b(?:was|were|did|went|met|had|got|broke|made|sent|paid|bought|shipped|ago|"
    r"yesterday)\b|了|過|过|昨天|した|ました|った|だった|했|었|았"
)
_WEEKDAYS_EN = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


@cache
def _re(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


@dataclass(frozen=True)
class StatedEvent:
    """A sentence of the user's that states a dated event."""

    type: str
    text: str
    action: str
    when: ResolvedDate
    said_on: date


def _said_on(time: str | None, fallback: date) -> date:
    from ..transcripts.model import parse_time

    moment = parse_time(time)
    if moment is None:
        return fallback
    return (moment.astimezone() if moment.tzinfo else moment).date()


def _step_to(day: date, weekday: int, ahead: bool) -> date:
    if ahead:
        return day + timedelta(days=(weekday - day.weekday()) % 7)
    return day - timedelta(days=(day.weekday() - weekday) % 7)


def _day_of_month(day: date, number: int, ahead: bool) -> date | None:
    """The ``number``-th of this month, or of the month before (past) / after (ahead)."""
    year, month = day.year, day.month
    for _ in range(2):
        try:
            found = date(year, month, number)
        except ValueError:
            found = None
        if found is not None and (found >= day if ahead else found <= day):
            return found
        month += 1 if ahead else -1
        if month == 0:
            year, month = year - 1, 12
        elif month == 13:
            year, month = year + 1, 1
    return None


_WEEKDAY_CJK = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_WEEKDAY_JA = {"月": 0, "火": 1, "水": 2, "木": 3, "金": 4, "土": 5, "日": 6}
_WEEKDAY_KO = {"월": 0, "화": 1, "수": 2, "목": 3, "금": 4, "토": 5, "일": 6}
_RELATIVE = r"(?:last|next|this|上|下|這|这|本|先週の?|来週の?|今週の?|지난주|다음주|이번주)\s*$"


def _conversational_date(sentence: str, said_on: date, ahead: bool) -> ResolvedDate | None:
    """The bare forms of conversation the date engine leaves out: a weekday ("on Monday",
    週一, 月曜日, 월요일) or a day of the month ("the 12th", 12號, 12日, 12일)."""
    text = sentence.casefold()
    for match in _re(r"\b(?:on\s+)?(" + "|".join(_WEEKDAYS_EN) + r")\b").finditer(text):
        if not _re(_RELATIVE).search(text[: match.start()]):
            day = _step_to(said_on, _WEEKDAYS_EN.index(match.group(1)), ahead)
            return ResolvedDate(match.group(0), day, day, day, "day", "weekday")
    for pattern, table in (
        (r"(?:週|周|星期|禮拜|礼拜)([一二三四五六日天])", _WEEKDAY_CJK),
        (r"([月火水木金土日])曜日?", _WEEKDAY_JA),
        (r"([월화수목금토일])요일", _WEEKDAY_KO),
    ):
        for match in _re(pattern).finditer(sentence):
            if not _re(_RELATIVE).search(sentence[: match.start()]):
                day = _step_to(said_on, table[match.group(1)], ahead)
                return ResolvedDate(match.group(0), day, day, day, "day", "weekday")
    ordinal = _re(
        r"\bthe\s+(\d{1,2})(?:st|nd|rd|th)\b(?!\s+of\b)|(?<![月\d])(\d{1,2})\s*(?:號|号|日|일)"
    )
    for match in ordinal.finditer(sentence):
        number = int(match.group(1) or match.group(2))
        found = _day_of_month(said_on, number, ahead)
        if found is not None:
            return ResolvedDate(match.group(0), found, found, found, "day", "day-of-month")
    return None


def _sentences(text: str) -> list[str]:
    from ..transcripts.statements import sentences

    return sentences(text)


def stated_events(transcript: Transcript, *, today: date | None = None) -> list[StatedEvent]:
    """Every dated event the user's messages state, in the order they were said."""
    from .. import clock
    from .session_input import event_date, is_plan

    fallback = today or clock.now().date()
    users = [m for m in transcript.conversation if m.role == "user"][-MESSAGES:]
    found: list[StatedEvent] = []
    for message in users:
        said_on = _said_on(message.time, fallback)
        for sentence in _sentences(message.text):
            if _re(_QUESTION).search(sentence) or _re(_REQUEST).search(sentence.strip()):
                continue
            kind, action = next(
                (
                    (name, hit.group(0))
                    for name, pattern in _EVENT_WORDS
                    if (hit := _re(pattern).search(sentence))
                ),
                (None, ""),
            )
            if kind is None:
                continue
            ahead = is_plan(sentence, kind) or not _re(_PAST).search(sentence)
            when = _conversational_date(sentence, said_on, ahead)
            if when is None:
                resolved = event_date(sentence, said_on, None, None, kind)
                when = resolved if resolved is not None and resolved.resolved else None
            if when is not None:
                found.append(StatedEvent(kind, sentence, action.casefold(), when, said_on))
    return found


def record_stated_events(
    workspace: Workspace, session_id: str | None, transcript: Transcript
) -> int:
    """Add the events the conversation states to ``events.json``; returns how many are new."""
    from .. import clock
    from ..files.store import Store
    from .events import NewEvent, append_events, build_event, read_ledger
    from .paths import JournalPaths

    found = stated_events(transcript)
    if not found:
        return 0
    store = Store(workspace)
    path = JournalPaths(workspace).events
    source = f"memory/sessions/{session_id}.md" if session_id else "transcript"
    events = [
        build_event(
            NewEvent(
                event_type=event.type,
                text=event.text,
                action=event.action,
                object_hint=None,
                when=event.when,
                session_date=event.said_on,
                recorded_at=clock.stamp(),
                source=source,
            )
        )
        for event in found
    ]
    before = {e.id for e in read_ledger(store, path).events}
    stored = append_events(store, path, events)
    return len({e.id for e in stored} - before)


def record_from_conversation(
    workspace: Workspace, session_id: str, transcript: Transcript, *, platform: str | None
) -> str:
    """At a save: the board Keywords from the session's real topic (in place of the start
    placeholder) and the events the user stated, into the ledger. Each stands alone: a
    failure is said in the returned line, never raised (the save it runs in is done)."""
    from ..board.context import BoardContext
    from ..board.keywords import refresh_keywords
    from ..transcripts.facts import extract_facts
    from ..transcripts.statements import topic_keywords

    said: list[str] = []
    try:
        ctx = BoardContext.open(workspace.root, platform=platform)
        row = ctx.index.read().get(session_id)
        if row is not None and not row.has_placeholder_topic:
            words = topic_keywords(row.topic, extract_facts(transcript))
            if refresh_keywords(ctx, session_id, words):
                said.append("keywords from the topic")
    except Exception as exc:  # the snapshot is written; this part only says what failed
        said.append(f"keywords not updated ({type(exc).__name__}: {exc})")
    try:
        new = record_stated_events(workspace, session_id, transcript)
        if new:
            said.append(f"{new} stated event(s) recorded")
    except Exception as exc:
        said.append(f"stated events not recorded ({type(exc).__name__}: {exc})")
    return "; ".join(said)
