"""How much to load: the strategy from the time gap, the Phase 3 branches from the message.

Seed 004 keeps 80 % of sessions in Phases 1-3 by deciding up front. The gap since the last
session picks the strategy (light / standard / full_reload / deep_reload, thresholds in
settings); the opening message picks the Phase 3 branches (a known thread, a new topic,
maintenance due, event- or date-sensitive) and whether a deep recall is asked for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime
from functools import cache

from .terms import terms

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from .settings import JournalSettings
    from .threads import Thread

LIGHT = "light"
STANDARD = "standard"
FULL_RELOAD = "full_reload"
DEEP_RELOAD = "deep_reload"
#: The strategy as the agent reads it in the context's first line; the ids above stay in
#: the metadata. No earlier session is said once, by the orientation.
STRATEGY_WORDS = {
    LIGHT: "light reload",
    STANDARD: "standard reload",
    FULL_RELOAD: "full reload",
    DEEP_RELOAD: "deep reload",
}

KNOWN_THREAD = "known_thread"
NEW_TOPIC = "new_topic"
MAINTENANCE = "maintenance_due"
EVENTS = "event_sensitive"
RECALL = "recall"

_EVENT_WORDS = (
    r"\b(?:when|what\s+day|what\s+date|which\s+day|how\s+long\s+ago|since\s+when|bought|buy|"
    r"purchas\w*|paid|order(?:ed)?|appointment|meeting|met|event|events|happened|timeline|"
    r"schedule[d]?|deadline|birthday|anniversary)\b"
    r"|什麼時候|什么时候|哪天|哪一天|幾號|几号|何時|何时|多久|買|买|購|购|發生|发生|會議|会议|"
    r"見面|见面|做了什麼|做了什么|幹了什麼|干了什么"
)
_QUESTION_WORDS = (
    r"^(?:what|when|where|which|who|whom|whose|why|how|did|does|do|is|are|was|were|has|"
    r"have|had|can|could|would|should|will)\b"
    r"|[嗎吗呢]\s*$|什麼|什么|哪裡|哪里|哪個|哪个|哪些|誰|谁|怎麼|怎么|為什麼|为什么|多少|幾|几|"
    r"ですか|ますか|でしたか|か\s*$|무엇|언제|어디|누구|왜|어떻게|까\s*$"
)
_RECALL_WORDS = (
    r"\b(?:remember|recall|last\s+time|previously|we\s+discussed|did\s+we|back\s+when|"
    r"what\s+happened|earlier\s+we|history\s+of)\b|上次|之前|記得|记得|回憶|回忆|那次|當時|当时"
)
# What makes a question one the memory answers: it asks about the past (a past-tense verb
# form, a time gone by, a decision), or about someone or something by name. "How do I run
# the tests?" or "Can we set up CI caching?" ask about the code in front of the agent.
_PAST_WORDS = (
    r"\b(?:did|was|were|had|have\s+(?:we|you|i)|has\s+\w+\s+(?:been|had|done|gone)|ago|"
    r"yesterday|last\s+(?:week|month|year|session|night)|earlier|before|decided|discussed|"
    r"agreed|chose|chosen|mentioned|said|told|went|made|wrote|used|planned|happened)\b"
    r"|上次|之前|以前|昨天|前天|上週|上周|上個月|上个月|那時|那时|後來|后来|最後|最后|"
    r"決定|决定|討論|讨论|說過|说过|提過|提过|做過|做过|用了|選了|选了|"
    r"前回|昨日|先週|先月|決め|話し|言った|覚えて|でしたか|ましたか|"
    r"지난|전에|어제|지난주|결정|얘기|말했|기억|했나요|했어요|었"
)
#: a name inside a sentence (not its first word, not "I", not an ACRONYM)
_NAME = r"(?<![.!?]\s)(?<!^)\b(?!I\b)[A-Z][a-z]{2,}"


@cache
def _words(pattern: str) -> re.Pattern[str]:
    """Compiled when a message is first checked: session start loads with no message."""
    return re.compile(pattern, re.IGNORECASE)


def strategy_for(gap_hours: float | None, settings: JournalSettings) -> str:
    """No previous session, or a long gap, means reloading the most."""
    if gap_hours is None:
        return DEEP_RELOAD
    if gap_hours < settings.light_hours:
        return LIGHT
    if gap_hours < settings.standard_hours:
        return STANDARD
    if gap_hours < settings.full_reload_days * 24:
        return FULL_RELOAD
    return DEEP_RELOAD


def gap_hours(last: datetime | None, now: datetime) -> float | None:
    if last is None:
        return None
    return max(0.0, (now - last).total_seconds() / 3600)


@dataclass(frozen=True)
class ThreadMatch:
    """A thread the opening message is about, and why (for the loader's metadata)."""

    thread: Thread
    score: int
    why: str


@dataclass
class MessagePlan:
    """The Phase 3 branches chosen up front, so each phase reads only what it needs."""

    branches: list[str] = field(default_factory=list)
    threads: list[ThreadMatch] = field(default_factory=list)
    date_words: list[str] = field(default_factory=list)


def is_event_sensitive(message: str, today: date) -> tuple[bool, list[str]]:
    from .dates import find_dates

    found = [hit.raw for hit in find_dates(message, today)]
    return bool(found or _words(_EVENT_WORDS).search(message)), found


def wants_recall(message: str) -> bool:
    """A message that asks to remember, or a recall question: a question about the past or
    about someone or something by name (seed 004 runs the deep phase for those; an ordinary
    question about the code does not need a search of the memory)."""
    if _words(_RECALL_WORDS).search(message):
        return True
    if not is_question(message):
        return False
    return bool(_words(_PAST_WORDS).search(message) or _names(message))


def _names(message: str) -> bool:
    """A proper name inside the message (case matters here, so not ``_words``)."""
    return bool(_case_sensitive(_NAME).search(message.strip()))


@cache
def _case_sensitive(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def is_question(message: str) -> bool:
    """Question-shaped in English, Chinese, Japanese or Korean: a question mark, an
    interrogative opening, or a question particle. Such a message at session start is
    answered best by searching the memory, not by the newest entries alone."""
    text = message.strip()
    return bool(text) and (text.endswith(("?", "？")) or bool(_words(_QUESTION_WORDS).search(text)))


def _title_terms(thread: Thread) -> set[str]:
    terms_of = set(terms(f"{thread.id.replace('-', ' ')} {thread.name}"))
    terms_of.discard("thread")
    return terms_of


def match_threads(message: str, threads: list[Thread], limit: int = 2) -> list[ThreadMatch]:
    """Threads the message is about: named by ID, or by the words of their titles.

    A thread matches when the message shares most of its title's words (two, or all of a
    one-word title), or one word that no other thread's title has: "what did we decide on
    CI?" is about ``thread-zephyr-ci`` when that is the only thread about CI.
    """
    if not message.strip() or not threads:
        return []
    lowered = message.casefold()
    wanted = set(terms(message))
    titles = {id(thread): _title_terms(thread) for thread in threads}
    spread: dict[str, int] = {}
    for found in titles.values():
        for term in found:
            spread[term] = spread.get(term, 0) + 1
    matches: list[ThreadMatch] = []
    for thread in threads:
        thread_id = thread.id.casefold()
        if re.search(rf"(?<![\w-]){re.escape(thread_id)}(?![\w-])", lowered):
            matches.append(ThreadMatch(thread, 1000, "named"))
            continue
        title_terms = titles[id(thread)]
        shared = wanted & title_terms
        if title_terms and len(shared) >= min(2, len(title_terms)):
            matches.append(ThreadMatch(thread, 10 * len(shared), "title words"))
        elif any(spread[term] == 1 for term in shared):
            matches.append(ThreadMatch(thread, 5, "a word only its title has"))
    matches.sort(key=lambda m: m.score, reverse=True)
    return matches[:limit]


def plan_message(
    message: str,
    threads: list[Thread],
    *,
    today: date,
    review_due: bool,
) -> MessagePlan:
    plan = MessagePlan()
    plan.threads = match_threads(message, threads)
    if plan.threads:
        plan.branches.append(KNOWN_THREAD)
    else:
        plan.branches.append(NEW_TOPIC)
    if review_due:
        plan.branches.append(MAINTENANCE)
    sensitive, words = is_event_sensitive(message, today) if message.strip() else (False, [])
    if sensitive:
        plan.branches.append(EVENTS)
        plan.date_words = words
    if message.strip() and wants_recall(message):
        plan.branches.append(RECALL)
    return plan
