"""What the matcher answers (``Intent``) and what it is built from (``Rule``).

A rule is one way of asking for a workflow in one language: a regular expression for the
request's core (the verb and its object, e.g. ``收工``, ``wrap (it) up``, ``メモリを整理``),
the literal words one of which every match contains (a cheap test run before the
expression is compiled: a hook sees mostly ordinary prompts), and how much may stand
around the core. Everything else about a language (its filler words, politeness, negation,
questions) is its ``Grammar`` (``grammar``), shared by all of its rules.
"""

from __future__ import annotations

import re

#: a memory session ID as the board writes it (matched in casefolded text)
SESSION_ID = r"(?P<id>\d{4}-\d{2}-\d{2}-\d{4}-[a-z0-9]+(?:-[a-z0-9]+)*)"
#: a topic named in a request ("continue the parser refactor from last time")
TOPIC = r"(?P<topic>(?:(?![,.;:!?]|。|、).){1,60}?)"

WRAP = "wrap"
UPDATE = "session.update"
REGISTER = "session.register"
CONTINUE = "session.continue"
RELEASE = "session.release"
ARCHIVE = "session.archive"
ORGANIZE = "organize"
NOTES_REFRESH = "notes.refresh"
NOTES_VIEW = "notes.view"
RESTORE = "relay.restore"
FRESH = "relay.archive"
MIGRATE = "migrate"
#: every workflow a message can ask for, in no particular order
WORKFLOWS = (
    WRAP,
    UPDATE,
    REGISTER,
    CONTINUE,
    RELEASE,
    ARCHIVE,
    ORGANIZE,
    NOTES_REFRESH,
    NOTES_VIEW,
    RESTORE,
    FRESH,
    MIGRATE,
)
#: "carry on from earlier work": with a session ID (``session.continue``) or without one,
#: optionally naming a topic (``relay.restore``)
CONTINUE_WORKFLOWS = frozenset({CONTINUE, RESTORE})


class Intent:
    """A recognised request: which workflow, its arguments, and the words that asked.

    ``args`` holds ``session_id`` for the workflows that name a session, and ``topic``
    when a request to continue names what to continue. ``phrase`` is the clause of the
    message that asked (as written, full-width forms made plain); ``language`` is the
    language of the rule that matched (``en``, ``zh``, ``ja``, ``ko``). A plain class: a
    dataclass costs half a millisecond of generated code at import, on every prompt.
    """

    __slots__ = ("args", "language", "phrase", "workflow")

    def __init__(
        self, workflow: str, phrase: str, language: str, args: dict[str, str] | None = None
    ) -> None:
        self.workflow = workflow
        self.phrase = phrase
        self.language = language
        self.args: dict[str, str] = dict(args or {})

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Intent):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable args: not hashable

    def __repr__(self) -> str:
        return f"Intent({self.workflow!r}, {self.phrase!r}, {self.language!r}, {self.args!r})"

    def to_dict(self) -> dict[str, object]:
        return {
            "workflow": self.workflow,
            "phrase": self.phrase,
            "language": self.language,
            "args": self.args,
        }


_COMPILED: dict[str, re.Pattern[str]] = {}


class Rule:
    """One form of one request. A plain class with slots: the tables build a few hundred
    of them when a language is first needed, and hooks pay for each one."""

    __slots__ = ("alone", "anchors", "ask", "source", "workflow")

    def __init__(
        self,
        workflow: str,
        anchors: tuple[str, ...],
        source: str,
        *,
        alone: bool = True,
        ask: bool = False,
    ) -> None:
        self.workflow = workflow
        #: literal words (casefolded; Chinese in Traditional forms) one of which a match holds
        self.anchors = anchors
        self.source = source
        #: the core must be (nearly) its clause: only filler and politeness around it.
        #: Rules that carry a session ID are specific enough to stand inside a sentence.
        self.alone = alone
        #: asked as a question is still the request ("what were we working on?")
        self.ask = ask

    def regex(self) -> re.Pattern[str]:
        """Compiled on first use only (most prompts never reach a rule's expression)."""
        found = _COMPILED.get(self.source)
        if found is None:
            body = self.source.replace("{id}", SESSION_ID).replace("{topic}", TOPIC)
            found = _COMPILED[self.source] = re.compile(body)
        return found

    def __repr__(self) -> str:
        return f"Rule({self.workflow!r}, {self.source!r})"


def rule(
    workflow: str, anchors: str, source: str, *, alone: bool = True, ask: bool = False
) -> Rule:
    """``anchors`` is a ``|``-separated list of literal words."""
    return Rule(workflow, tuple(anchors.split("|")), source, alone=alone, ask=ask)
