"""What a session did, told from its transcript: the account every save leaves behind.

Other agents choose which session to continue by what the board, the snapshot and the
daily log say about it, so those must say what happened, not only what was asked: the
plan as it ended (done, open, dropped), the agent's own closing words, the commits made,
the tests run and how they ended, the decisions in the transcript's own words, the errors
met and whether they were fixed. Completed and open never contradict (both come from the
plan's final state), a finished plan is never "in progress", and nothing is invented: a
fact the transcript does not show is left out, and a session that shows no outcome says
only what it was asked and what it touched.

The account is built once per save from the transcript already read (``extract_facts``
is shared with the other parts) and rendered in the user's language for the board
Summary, the snapshot, the daily log and the resumption note.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

from ..files.shorten import clip_words, flatten
from .facts import TranscriptFacts, extract_facts, shell_command

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from .model import Transcript

FINISHED, IN_PROGRESS, WAITING, UNKNOWN = "finished", "in_progress", "waiting", "unknown"
OPEN_STATUSES = ("in_progress", "pending")
DROPPED_STATUSES = ("cancelled",)

_TEST_COMMAND = re.compile(
    r"(?:^|[\s;&|(/])(?:pytest|py\.test|go test|cargo (?:test|nextest)|(?:npm|pnpm|yarn|bun)"
    r"(?: run)? test|jest|vitest|mocha|rspec|phpunit|ctest|tox|nox|mvn (?:-\S+ )*test"
    r"|gradlew? test|dotnet test|deno test|mix test|swift test|unittest"
    r"|(?:mise|just|make|task) (?:run )?(?:test|check)\S*)(?=$|[\s;&|)])"
)
_TEST_COUNTS = re.compile(
    r"(\d+) (passed|failed|errors?|skipped|tests? passed|tests? failed|passing|failing)", re.I
)
_FAIL_WORDS = re.compile(r"(?m)^(?:--- )?FAIL(?:ED)?\b|\bpanic:|\b[1-9]\d* (?:failed|failing)\b")
_COMMIT = re.compile(r"(?:^|[\s;&|(])git(?: -C \S+)? commit\b")
_COMMIT_LINE = re.compile(r"^\[([^\]\s]+)(?: \([^)]*\))? ([0-9a-f]{7,40})\] (.+)$", re.M)
_HEREDOC = re.compile(r"<<'?\"?EOF'?\"?\s*\n(.*?)\n\s*EOF", re.S)
_SENTENCE = re.compile(r"(?<=[.!?。！？])\s+|(?<=[。！？])")
_FENCE = re.compile(r"```.*?(?:```|$)", re.S)
#: the agent's words that state an outcome (English and the seeds' other languages)
_DONE_WORDS = re.compile(
    r"\b(?:done|complete[d]?|finished|fixed|implemented|ported|added|created|updated|"
    r"resolved|all (?:tests|checks) pass|tests pass|passing|committed|merged|shipped)\b"
    r"|完成|已修|修好|搞定|通過|完了|終わり|修正しました|완료|수정했|끝났",
    re.I,
)
#: a decision in the agent's own words: a choice between things, or one it states
_DECISION = re.compile(
    r"\bdecided\b|\bchose\b|\bgoing with\b|\bopted (?:for|to)\b"
    r"|\b(?:we|I)(?:'ll| will) (?:use|keep|switch to|go with)\b"
    r".*\b(?:instead of|rather than|over)\b"
    r"|\b(?:use|using|keep|switch(?:ed)? to|prefer)\b.*\b(?:instead of|rather than)\b"
    r"|決定|决定|改用|採用|采用|にしました|に決め|로 결정|하기로",
    re.I,
)
_NOT_DECISION = re.compile(
    r"^(?:let me|now|i see|i'm|i am|the (?:issue|problem|error)"
    r"|i'll (?:read|check|look|run|start))",
    re.I,
)
#: the agent's narration of its next tool call, never an outcome
_NARRATION = re.compile(
    r"^(?:let me|now let me|now i|i'll|i will|first,? |next,? |let's"
    r"|good[,!]|great[,!]|perfect[,!])",
    re.I,
)


@dataclass
class TestRun:
    command: str
    passed: bool
    #: the runner's own figures ("12 passed, 1 skipped"), when its output shows them
    figures: str = ""


@dataclass
class SessionAccount:
    status: str = UNKNOWN
    done: list[str] = field(default_factory=list)
    #: (status, text): in progress first, then pending, in plan order
    open: list[tuple[str, str]] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    closing: str = ""
    #: the closing statement says what came of the work (not only what the agent saw)
    closing_states_outcome: bool = False
    question: str = ""
    commits: list[str] = field(default_factory=list)
    tests: list[TestRun] = field(default_factory=list)
    decisions: list[str] = field(default_factory=list)
    #: (what failed, fixed later)
    errors: list[tuple[str, bool]] = field(default_factory=list)
    edited: list[str] = field(default_factory=list)
    first_request: str = ""
    last_request: str = ""
    #: the last request that means something alone (not "yes, do it" or a slash command)
    task: str = ""
    has_plan: bool = False

    @property
    def last_tests(self) -> TestRun | None:
        return self.tests[-1] if self.tests else None

    @property
    def empty(self) -> bool:
        """Nothing happened that the transcript shows (no request, no work)."""
        return not (self.last_request or self.has_plan or self.edited or self.closing)


def sentences(text: str) -> list[str]:
    """The sentences of a message, code blocks left out; a line break ends one too."""
    found: list[str] = []
    for line in _FENCE.sub("\n", text).splitlines():
        flat = flatten(line)
        found.extend(s.strip() for s in _SENTENCE.split(flat) if s.strip())
    return found


def _closing(reply: str) -> tuple[str, str]:
    """(closing statement, question to the user) from the agent's last message: a sentence
    that states an outcome (its narration of the next tool call left out), else its first."""
    said = [s for s in sentences(reply) if len(s) > 3 and not s.endswith((":", "："))]
    if not said:
        return "", ""
    question = said[-1] if said[-1].endswith(("?", "？")) else ""
    stated = [
        s
        for s in said
        if _DONE_WORDS.search(s) and not s.endswith(("?", "？")) and not _NARRATION.match(s)
    ]
    closing = stated[0] if stated else ""
    if not closing and said[0] != question and not _NARRATION.match(said[0]):
        closing = said[0]
    return clip_words(closing, 220), clip_words(question, 220)


def _last_message(transcript: Transcript) -> str:
    """The agent's last words: its last message with text, after the last request."""
    for message in reversed(transcript.conversation):
        if message.role == "user":
            return ""
        if message.role == "assistant" and message.text.strip():
            return message.text
    return ""


def _commit_message(command: str) -> str:
    heredoc = _HEREDOC.search(command)
    if heredoc:
        return heredoc.group(1).strip().splitlines()[0]
    import shlex

    try:
        words = shlex.split(command)
    except ValueError:
        return ""
    for flag, value in itertools.pairwise(words):
        if flag in ("-m", "--message"):
            return value.strip().splitlines()[0] if value.strip() else ""
    return ""


def _shell_outcomes(transcript: Transcript, account: SessionAccount) -> None:
    """Commits and test runs, from the shell calls and their full results."""
    calls: dict[str, str] = {}
    order: list[tuple[str, str | None]] = []
    for message in transcript.messages:
        for call in message.tool_calls:
            command = shell_command(call)
            if command and (_COMMIT.search(command) or _TEST_COMMAND.search(command)):
                order.append((command, call.id))
                if call.id:
                    calls[call.id] = command
        for result in message.tool_results:
            command = calls.get(result.call_id or "")
            if command is None and result.call_id is None and order:
                command = order[-1][0]
            if command is None:
                continue
            output = result.output or ""
            if _COMMIT.search(command):
                made = _COMMIT_LINE.search(output)
                if made and not result.is_error:
                    account.commits.append(f"{made.group(2)[:7]} {made.group(3).strip()}")
                elif not result.is_error and "nothing to commit" not in output:
                    text = _commit_message(command)
                    if text:
                        account.commits.append(text)
            elif _TEST_COMMAND.search(command):
                tail = output[-4000:]
                failed = result.is_error or bool(_FAIL_WORDS.search(tail))
                counts = {what.lower(): n for n, what in _TEST_COUNTS.findall(tail) if n != "0"}
                figures = ", ".join(f"{n} {what}" for what, n in counts.items())
                account.tests.append(TestRun(clip_words(command, 120), not failed, figures))


def _decisions(transcript: Transcript) -> list[str]:
    """Choices in the transcript's own words: the user's answers to the agent's questions,
    and the agent's sentences that state a choice (its tool narration left out)."""
    found: list[str] = []
    asked = ""
    for message in transcript.conversation:
        if message.role == "assistant":
            said = sentences(message.text)
            asked = said[-1] if said and said[-1].endswith(("?", "？")) else ""
            for sentence in said:
                if (
                    _DECISION.search(sentence)
                    and not _NOT_DECISION.match(sentence)
                    and not sentence.endswith(("?", "？"))
                    and 20 <= len(sentence) <= 400
                ):
                    found.append(clip_words(sentence, 240))
        elif message.role == "user" and asked:
            answer = flatten(message.text)
            if (
                answer
                and len(answer) <= 200
                and not answer.endswith(("?", "？", "/"))
                and (not answer.startswith("/"))
            ):
                found.append(clip_words(f"{asked} → {answer}", 240))
            asked = ""
    unique = list(dict.fromkeys(found))
    return unique[-6:]


_WORD = re.compile(r"[a-z0-9_]+|[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
#: words that carry no request on their own ("yes, please do it now")
_FILLER = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "be",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "done",
        "for",
        "from",
        "go",
        "going",
        "have",
        "i",
        "if",
        "in",
        "is",
        "it",
        "it's",
        "just",
        "let",
        "lets",
        "me",
        "my",
        "no",
        "not",
        "now",
        "of",
        "ok",
        "okay",
        "on",
        "or",
        "please",
        "so",
        "sure",
        "that",
        "the",
        "then",
        "there",
        "this",
        "to",
        "too",
        "us",
        "we",
        "well",
        "what",
        "will",
        "with",
        "would",
        "yes",
        "yeah",
        "yep",
        "you",
        "your",
    ]
)


#: how a reply to the agent starts ("yes, do it", "ok go ahead", "1 and 3", 好, はい, 네)
_AGREEING = re.compile(
    r"^\s*(?:yes|yeah|yep|yup|ok(?:ay)?|sure|go|go ahead|do it|do that|proceed|please do|"
    r"sounds good|lgtm|continue|next|both|all of (?:them|it)|the (?:first|second|third)|"
    r"\d+(?:\s*(?:,|and|&|\+)\s*\d+)*|好|好的|可以|行|对|對|是的|はい|お願い|네|좋아)\b",
    re.I,
)


def is_follow_up(request: str) -> bool:
    """A short follow-up ("yes, do it", "do 1 and 3", "/execute-plan") that means little
    without what it answers: a slash command, a message of one or two words that carry
    meaning, or a short one that starts by agreeing or by naming options. "git me a commit
    message for this feature" is short but stands alone."""
    text = request.strip()
    if text.startswith("/"):
        return True
    words = meaningful_words(text)
    if words < 3:
        return True
    return words < 6 and _AGREEING.match(text) is not None


def meaningful_words(text: str) -> int:
    """Words that carry meaning: three letters or more and no filler; in Chinese, Japanese
    and Korean a word is about two characters, so two characters count as one ("怎么样了",
    how is it going, is a nudge of two words, not a request of four)."""
    found = [w for w in _WORD.findall(text.lower()) if w not in _FILLER]
    letters = sum(1 for w in found if w.isascii() and len(w) >= 3)
    characters = sum(1 for w in found if not w.isascii())
    return letters + characters // 2


def build_account(transcript: Transcript, facts: TranscriptFacts | None = None) -> SessionAccount:
    """The account of ``transcript`` (see the module docstring)."""
    facts = facts or extract_facts(transcript)
    account = SessionAccount()
    plan = facts.plan or list(transcript.plan)
    account.has_plan = bool(plan)
    account.done = [p.text for p in plan if p.status == "completed"]
    account.open = [(p.status, p.text) for p in plan if p.status == "in_progress"]
    account.open += [(p.status, p.text) for p in plan if p.status == "pending"]
    account.dropped = [p.text for p in plan if p.status in DROPPED_STATUSES]
    requests = [r for r in transcript.user_requests() if r.strip()]
    if requests:
        account.first_request = requests[0]
        account.last_request = requests[-1]
        account.task = next((r for r in reversed(requests) if not is_follow_up(r)), requests[-1])
    account.closing, account.question = _closing(_last_message(transcript))
    words = len(account.closing.split()) + sum(1 for c in account.closing if c >= "\u3040")
    account.closing_states_outcome = words >= 4 and bool(_DONE_WORDS.search(account.closing))
    _shell_outcomes(transcript, account)
    account.decisions = _decisions(transcript)
    account.errors = [
        (clip_words(f"{e.tool} {e.subject}".strip() + f": {flatten(e.error)}", 200), e.resolved)
        for e in facts.errors[-6:]
    ]
    account.edited = [f.path for f in facts.edited]
    account.status = _status(account)
    return account


def _status(account: SessionAccount) -> str:
    if account.open:
        return IN_PROGRESS
    if account.has_plan and account.done:
        return FINISHED  # a question at the end of a finished plan is an offer, told beside
    if account.question:
        return WAITING
    tests = account.last_tests
    if account.closing_states_outcome and (tests is None or tests.passed):
        return FINISHED
    return UNKNOWN
