"""How a request is said around its core, per language: what may stand before and after
it, what negates it, what makes it a question and what makes a question a request.

A rule's core found in a clause is judged here:

* **negated** when a negation stands before it (don't, 不要, 別, 先別, 아직 …) or a
  negative ending follows it (しないで, 하지 마 …): that workflow is not run for the
  whole message ("wrap up? no, don't wrap up yet");
* **asked, not requested** when the clause is a question (a question mark, 嗎, か, 까,
  "are we …") and nothing in it asks the agent to act (can you, 幫我, てくれる, 해 줄래);
  "are we done for now?" and 收工了嗎 are questions, "could you wrap up?" a request;
* **only a word of something else** when anything but filler and politeness stands
  around it: "wrap up the parser refactor", 收工前把測試修好, 終了コード, 파일 저장해줘.

Each pattern is compiled the first time a rule of its language reaches it.
"""

from __future__ import annotations

import re
from functools import cache


@cache
def _compiled(source: str) -> re.Pattern[str]:
    return re.compile(source)


class Grammar:
    """Regular-expression sources; ``lead``, ``tail`` and ``sequence`` are alternations
    of words, the rest are searched as written. (A plain class: a dataclass costs a
    millisecond of generated code at import, on every prompt.)"""

    __slots__ = (
        "deferred",
        "language",
        "lead",
        "negated_after",
        "negated_before",
        "question",
        "request",
        "sequence",
        "tail",
    )

    def __init__(
        self,
        *,
        language: str,
        lead: str,
        tail: str,
        negated_before: str,
        negated_after: str,
        question: str,
        request: str,
        sequence: str,
        deferred: str,
    ) -> None:
        self.language = language
        #: filler that may open a request ("ok", "let's", 好, 那, じゃあ, 그럼 …)
        self.lead = lead
        #: politeness and particles that may close one ("please", 吧, して, 해 줘 …)
        self.tail = tail
        #: a negation right before the core
        self.negated_before = negated_before
        #: a negative ending right after the core
        self.negated_after = negated_after
        #: the clause is a question (besides a question mark)
        self.question = question
        #: a question that asks the agent to act is a request
        self.request = request
        #: words before the core that put the request after something else ("then", 再)
        self.sequence = sequence
        #: words around the core that make it a condition or a time ("before", 前, 전에);
        #: searched in ``before + NUL + after``
        self.deferred = deferred

    def leads_only(self, before: str) -> bool:
        text = before.strip(" ,")
        if not text:
            return True
        return bool(_compiled(rf"(?:(?:{self.lead})(?![a-z])[\s,]*)+").fullmatch(text))

    def tails_only(self, after: str) -> bool:
        text = after.strip(" ,~")
        if not text:
            return True
        return bool(_compiled(rf"(?:[\s,~]*(?:{self.tail})(?![a-z]))+").fullmatch(text))

    def negates(self, before: str, after: str) -> bool:
        return bool(
            _compiled(rf"(?:{self.negated_before})\s*$").search(before)
            or _compiled(rf"^\s*(?:{self.negated_after})").search(after)
        )

    def is_question(self, clause: str, asks: bool) -> bool:
        return asks or bool(_compiled(self.question).search(clause))

    def is_request(self, clause: str) -> bool:
        return bool(_compiled(self.request).search(clause))

    def is_sequenced(self, before: str) -> bool:
        return bool(_compiled(rf"(?:^|[\s,])(?:{self.sequence})").search(before))

    def is_deferred(self, before: str, after: str) -> bool:
        return bool(_compiled(self.deferred).search(f"{before}\x00{after}"))
