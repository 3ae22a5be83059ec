"""What the conversation says in so many words, found without a model.

The hooks see tool calls and files; some things are only ever said: how a part of the code
works ("`Store.update` takes the lock, re-reads, writes a temp file"), a lesson that holds
beyond the session ("it turns out the CI runners have no IPv6"), a result worth repeating
verbatim (a table, the figures a run printed, the direct answer to a question). The session
notes design asks for them under Codebase Documentation, Learnings and Key Results; this
module picks the sentences that say them, by their shape, and nothing else: an ordinary
sentence of a reply is not a key result.

Also here: keywords for the board from a session's topic and files, once it has a real
topic (the session-start placeholder says nothing about it).
"""

from __future__ import annotations

import re
from functools import cache

from .facts import TranscriptFacts
from .model import Transcript

#: how many items each section takes (newest first wins)
CODEBASE_ITEMS = 10
LEARNING_ITEMS = 8
RESULT_ITEMS = 12
_SENTENCE_MAX = 300


@cache
def _re(pattern: str, flags: int = re.IGNORECASE) -> re.Pattern[str]:
    return re.compile(pattern, flags)


def _without_code(text: str) -> str:
    """The text outside fenced blocks (code is no sentence of the conversation)."""
    return _re(r"^[ \t]*(```|~~~).*?^[ \t]*\1[^\n]*$", re.M | re.S).sub("\n", text)


def sentences(text: str) -> list[str]:
    """Sentences of prose (fenced code dropped, list markers and headings stripped)."""
    found: list[str] = []
    for line in _without_code(text).split("\n"):
        line = _re(r"^\s*(?:[-*+]|\d+[.)]|#{1,6})\s+").sub("", line).strip()
        if not line or line.startswith("|"):
            continue
        for part in _re(r"(?<=[.!?])\s+(?=[A-Z`\"'(])|(?<=[。！？])").split(line):
            part = part.strip()
            if 8 <= len(part) <= _SENTENCE_MAX:
                found.append(part)
    return found


def _assistant_replies(transcript: Transcript) -> list[str]:
    return [m.text for m in transcript.conversation if m.role == "assistant"]


# -- Codebase Documentation -------------------------------------------------------------
# A sentence that says what a named part of the code is or does, in the present tense:
# "`save_session` reads the transcript once", "src/auth/limit.py holds the limiter".
_NAMED = r"(?:`[^`\n]{2,80}`|\b[\w./-]+\.(?:py|ts|tsx|js|go|rs|java|rb|md|toml|json|ya?ml|sql)\b)"
_DESCRIBES = (
    r"\b(?:is|are|holds?|keeps?|owns?|handles?|reads?|writes?|calls?|uses?|stores?|returns?|"
    r"wraps?|runs?|loads?|parses?|checks?|takes?|sends?|builds?|manages?|exposes?|"
    r"lives?|defines?|implements?|delegates?|is responsible for)\b"
)
_NOT_DOC = r"\b(?:I'll|I will|let me|I'm going to|we should|you can|now|next|try|tried|fixed)\b"


def codebase_notes(transcript: Transcript) -> list[str]:
    """How parts of the code work, as the agent explained them (newest explanations last)."""
    found: dict[str, None] = {}
    for reply in _assistant_replies(transcript):
        for sentence in sentences(reply):
            if sentence.endswith("?"):
                continue
            named = _re(_NAMED, 0).search(sentence)
            if named is None or _re(_NOT_DOC).search(sentence):
                continue
            after = sentence[named.end() : named.end() + 60]
            if _re(_DESCRIBES).search(after):
                found[sentence] = None
    return list(found)[-CODEBASE_ITEMS:]


# -- Learnings ------------------------------------------------------------------------------
_LESSON = (
    r"\b(?:turns out|it turned out|the root cause|the (?:real )?(?:cause|problem|issue|bug) "
    r"(?:was|is)|the fix (?:was|is)|lesson|learned|gotcha|caveat|note that|keep in mind|"
    r"(?:must|should) always|never (?:use|call|run|commit|push)|always (?:use|run|call|set))\b"
    r"|原來|根本原因|問題出在|问题出在|教訓|教训|注意|記住|记住|以後都|以后都|一律|"
    r"原因は|教訓|注意点|覚えておいて|必ず|원인은|교훈|주의|항상|절대"
)
_RULE_FROM_USER = (
    r"^(?:please )?(?:always|never|don't ever|do not ever|make sure (?:to|you)|"
    r"remember (?:to|that)|in this (?:repo|project|codebase),? we|"
    r"we (?:always|never|prefer)|prefer)\b"
    r"|^(?:請|请)?(?:記得|记得|永遠|永远|一律|以後都|以后都|不要再|總是|总是)"
    r"|^(?:必ず|常に|絶対に)|^(?:항상|절대|앞으로)"
)


def learnings(transcript: Transcript) -> list[str]:
    """Insights that hold beyond this session: what the agent found out (turns out, the root
    cause was …) and the standing rules the user gave (always …, never …, 以後都 …)."""
    found: dict[str, None] = {}
    for message in transcript.conversation:
        for sentence in sentences(message.text):
            if sentence.endswith(("?", "？")):
                continue
            if message.role == "assistant" and _re(_LESSON).search(sentence):
                found[sentence] = None
            elif message.role == "user" and _re(_RULE_FROM_USER).search(sentence):
                found[f"User: {sentence}"] = None
    return list(found)[-LEARNING_ITEMS:]


# -- Key Results ---------------------------------------------------------------------------
# Outputs worth repeating verbatim: a table, the figures a run printed, the direct answer
# to a question the user asked. A sentence without any of those is no result.
_FIGURE = (
    r"\b\d+(?:[.,]\d+)?\s*(?:%|ms|s|sec|seconds|minutes|min|h|kb|mb|gb|tokens?|x|×|"
    r"passed|failed|errors?|warnings?|tests?|files?|lines?|rows?|requests?|qps|rps)\b"
    r"|\b(?:p50|p95|p99|coverage|throughput|latency)\b[^.\n]{0,20}\d"
)


def _tables(text: str) -> list[str]:
    blocks: list[str] = []
    current: list[str] = []
    for line in _without_code(text).split("\n"):
        if line.strip().startswith("|") and line.strip().endswith("|"):
            current.append(line.rstrip())
            continue
        if len(current) >= 3:
            blocks.append("\n".join(current))
        current = []
    if len(current) >= 3:
        blocks.append("\n".join(current))
    return blocks


def _asks(text: str) -> bool:
    stripped = text.strip()
    return stripped.endswith(("?", "？")) or bool(
        _re(r"^(?:what|which|how many|how much|who|when|where|why)\b").match(stripped)
    )


def key_results(transcript: Transcript) -> list[str]:
    """Results repeated verbatim: tables from the replies, lines that report figures, and
    the first paragraph of the answer to each question the user asked."""
    found: dict[str, None] = {}
    for round_ in transcript.rounds():
        reply = round_.reply
        if not reply:
            continue
        for table in _tables(reply):
            found[table] = None
        for sentence in sentences(reply):
            if _re(_FIGURE).search(sentence) and not _re(_NOT_DOC).search(sentence):
                found[sentence] = None
        if round_.user is not None and _asks(round_.user.text):
            answer = next((p.strip() for p in _without_code(reply).split("\n\n") if p.strip()), "")
            if answer:
                question = " ".join(round_.user.text.split())[:160]
                found[f"Q: {question}\nA: {answer[:600]}"] = None
    return list(found)[-RESULT_ITEMS:]


# -- Keywords ---------------------------------------------------------------------------------
_STOP_WORDS = (
    "a an the to of in on for and or with by from at as is are be this that these those it its "
    "into about please can could would you we i me my our let's lets help add fix make create "
    "update implement write refactor change remove build set up get use run do look check "
    "some all new now then just also"
)
_STOP = frozenset(_STOP_WORDS.split(" "))
MAX_KEYWORDS = 6


def topic_keywords(topic: str, facts: TranscriptFacts | None = None) -> list[str]:
    """Keywords for the board: the topic's phrases (stop words and leading verbs cut out),
    then the names of the files most edited. CJK topics give their phrases as written."""
    keywords: list[str] = []
    for chunk in _re(r"[,;:()\[\]\"'`|/]+|\s[-–—]\s", 0).split(topic):
        words: list[str] = []
        for word in chunk.split():
            bare = word.strip(".!?").casefold()
            if bare in _STOP or not bare:
                if words:
                    keywords.append(" ".join(words))
                words = []
                continue
            words.append(word.strip(".!?"))
        if words:
            keywords.append(" ".join(words))
    if facts is not None:
        edited = sorted(facts.edited, key=lambda f: f.edits, reverse=True)
        keywords += [f.path.rsplit("/", 1)[-1] for f in edited[:3]]
    unique = list(dict.fromkeys(k for k in keywords if len(k) >= 2))
    return unique[:MAX_KEYWORDS]
