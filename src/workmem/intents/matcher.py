"""The matcher: which workflow a message asks for, clause by clause.

1. The message is made plain (``text.Message``) and the languages whose letters it holds
   are chosen (Latin: English; Han: Chinese and, with kana, Japanese; Hangul: Korean).
2. Rules whose anchor words do not occur are dropped: most prompts stop here, having
   compiled nothing.
3. Each clause is tried against the remaining rules, most specific first. A core found is
   judged by the language's grammar: negated (that workflow is off for the whole
   message), a question rather than a request, a word inside another sentence, put after
   another task ("fix the test, then wrap up") or contradicted by the next clause ("let's
   stop here, but first …"). The first clause whose core survives gives the intent.
"""

from __future__ import annotations

from importlib import import_module

from .grammar import Grammar
from .model import CONTINUE_WORKFLOWS, Intent, Rule
from .text import Clause, Message, scripts

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    import re

#: lexicon modules per language, imported when a message holds that language's letters
_LEXICONS = {"zh": "lexicon_zh", "ja": "lexicon_ja", "ko": "lexicon_ko", "en": "lexicon_en"}
#: a clause opening with one of these contradicts the request of the clause before it
_CONTRAST = (
    "but",
    "however",
    "但是",
    "不過",
    "可是",
    "でも",
    "けど",
    "だけど",
    "그런데",
    "근데",
    "하지만",
)


def _lexicon(language: str) -> tuple[Grammar, tuple[Rule, ...]]:
    module = import_module(f".{_LEXICONS[language]}", __package__)
    return module.GRAMMAR, module.RULES


def _languages(message: Message) -> list[str]:
    latin, han, kana, hangul = scripts(message.plain)
    found = []
    if han and not kana:
        found.append("zh")
    if kana or (han and not hangul):
        found.append("ja")
    if hangul:
        found.append("ko")
    if latin:
        found.append("en")
    return found


class _Candidate:
    __slots__ = ("grammar", "rule", "text")

    def __init__(self, grammar: Grammar, rule: Rule, text: str) -> None:
        self.grammar = grammar
        self.rule = rule
        self.text = text  # the message as this language reads it (Chinese: folded)


def _candidates(message: Message) -> list[_Candidate]:
    found: list[_Candidate] = []
    for language in _languages(message):
        grammar, rules = _lexicon(language)
        text = message.folded if language == "zh" else message.plain
        for rule in rules:
            for anchor in rule.anchors:
                if anchor in text:
                    found.append(_Candidate(grammar, rule, text))
                    break
    return found


def _has_content(clause: Clause, grammars: list[Grammar]) -> bool:
    return not any(grammar.leads_only(clause.text) for grammar in grammars)


class _Verdict:
    """The outcome of one rule on one clause."""

    ACCEPT, NEGATED, NO = "accept", "negated", "no"


def _judge(
    candidate: _Candidate,
    clause: Clause,
    found: re.Match[str],
    clauses: list[Clause],
    grammars: list[Grammar],
) -> str:
    grammar, rule = candidate.grammar, candidate.rule
    text = candidate.text[clause.start : clause.start + len(clause.text)]
    before, after = text[: found.start()], text[found.end() :]
    if grammar.negates(before, after):
        return _Verdict.NEGATED
    if _quoted(before, after):
        return _Verdict.NO
    if grammar.is_question(text, clause.asks) and not (rule.ask or grammar.is_request(text)):
        return _Verdict.NO
    if grammar.is_deferred(before, after):
        return _Verdict.NO
    if rule.alone and not (grammar.leads_only(before) and grammar.tails_only(after)):
        return _Verdict.NO
    earlier = clauses[: clause.index]
    if grammar.is_sequenced(before) and any(_has_content(c, grammars) for c in earlier):
        return _Verdict.NO
    following = clauses[clause.index + 1] if clause.index + 1 < len(clauses) else None
    if (
        following is not None
        and rule.workflow not in CONTINUE_WORKFLOWS
        and following.text.startswith(_CONTRAST)
    ):
        return _Verdict.NO
    return _Verdict.ACCEPT


_OPEN_QUOTES = '"`「『“'
_CLOSE_QUOTES = '"`」』”'


def _quoted(before: str, after: str) -> bool:
    """The words are quoted ("when I type `wrap up`"): talk about the phrase, not a request."""
    return bool(before) and before[-1] in _OPEN_QUOTES and after[:1] in _CLOSE_QUOTES


def match_intent(text: str) -> Intent | None:
    """The workflow ``text`` asks for, with its arguments, or ``None`` for an ordinary
    message (see the package docstring)."""
    if not text or not text.strip():
        return None
    message = Message(text)
    if not message.plain:
        return None
    candidates = _candidates(message)
    if not candidates:
        return None
    clauses = message.clauses()
    grammars = list({id(c.grammar): c.grammar for c in candidates}.values())
    negated: set[str] = set()
    accepted: list[tuple[_Candidate, Clause, re.Match[str]]] = []
    for clause in clauses:
        for candidate in candidates:
            piece = candidate.text[clause.start : clause.start + len(clause.text)]
            if not any(anchor in piece for anchor in candidate.rule.anchors):
                continue
            found = candidate.rule.regex().search(piece)
            if found is None:
                continue
            verdict = _judge(candidate, clause, found, clauses, grammars)
            if verdict == _Verdict.NEGATED:
                negated.add(candidate.rule.workflow)
            elif verdict == _Verdict.ACCEPT:
                accepted.append((candidate, clause, found))
                break
    for candidate, clause, found in accepted:
        if candidate.rule.workflow in negated:
            continue
        return _intent(message, candidate, clause, found)
    return None


def _intent(
    message: Message, candidate: _Candidate, clause: Clause, found: re.Match[str]
) -> Intent:
    args: dict[str, str] = {}
    groups = found.re.groupindex
    if "id" in groups and found.group("id"):
        args["session_id"] = found.group("id")
    if "topic" in groups and found.group("topic"):
        start = clause.start + found.start("topic")
        end = clause.start + found.end("topic")
        topic = message.original(start, end).strip(" 　,'\"")
        for article in ("the ", "The ", "our ", "my "):
            topic = topic.removeprefix(article)
        if topic:
            args["topic"] = topic
    phrase = message.original(clause.start, clause.start + len(clause.text))
    return Intent(candidate.rule.workflow, phrase, candidate.grammar.language, args)
