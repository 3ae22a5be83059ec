"""The finer measures of a context: are its plan marks right, does it repeat itself, are
the long-term memories in it, does the account a session leaves agree with its plan.

Plan marks are read from lines as the briefings write them: ``- [in progress] …``,
``- [pending] …``, ``- [done] …``, ``- [dropped] …``, and the resume's ``- N done: a; b``
line. An item is matched to the recorded plan when one text holds the other (after case,
spacing, markdown escapes and a trailing ``…`` are set aside).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .score import content_words, flat
from .truth import PlanState

OPEN, DONE, DROPPED = "open", "done", "dropped"
_MARK = re.compile(
    r"^\s*(?:[-*+]|\d+[.)])?\s*"
    r"\[(in progress|in_progress|pending|done|completed|dropped|cancelled)\]\s*(.+)$",
    re.I,
)
_DONE_LINE = re.compile(r"^\s*[-*+]?\s*\d+\s+done:\s*(.+)$", re.I)
_MARK_STATE = {
    "in progress": OPEN,
    "in_progress": OPEN,
    "pending": OPEN,
    "done": DONE,
    "completed": DONE,
    "dropped": DROPPED,
    "cancelled": DROPPED,
}
#: a line or sentence counts for repeats when it has this many content words
REPEAT_MIN_WORDS = 4
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+")
_BULLET = re.compile(r"^\s*(?:[-*+>]|\d+[.)]|#+)\s*")


def truth_state(status: str) -> str:
    if status in ("in_progress", "pending"):
        return OPEN
    if status == "completed":
        return DONE
    return DROPPED


def _clean_item(text: str) -> str:
    return flat(re.sub(r"[\s.…]+$", "", text.replace("**", "").replace("`", "")))


def marked_items(context: str) -> list[tuple[str, str]]:
    """(item text, open/done/dropped) for every plan mark in the context, in order."""
    found: list[tuple[str, str]] = []
    for line in context.splitlines():
        mark = _MARK.match(line)
        if mark:
            found.append((mark.group(2).strip(), _MARK_STATE[mark.group(1).lower()]))
            continue
        done = _DONE_LINE.match(line)
        if done:
            found += [(part.strip(), DONE) for part in done.group(1).split("; ") if part.strip()]
    return found


def _match(shown: str, plan: PlanState) -> tuple[str, str] | None:
    text = _clean_item(shown)
    if not text:
        return None
    for item, status in plan:
        wanted = _clean_item(item)
        if wanted and (wanted in text or text in wanted):
            return item, status
    return None


@dataclass
class Precision:
    """How right the plan marks of a context are, against the plan at the cut."""

    marks: int = 0
    correct: int = 0
    open_marks: int = 0
    open_correct: int = 0
    #: items done before the cut that the context shows as open (the worst mistake)
    done_shown_open: int = 0
    done_items: int = 0
    done_shown_done: int = 0

    @property
    def precision(self) -> float | None:
        return self.correct / self.marks if self.marks else None

    @property
    def open_precision(self) -> float | None:
        return self.open_correct / self.open_marks if self.open_marks else None

    @property
    def done_recall(self) -> float | None:
        return self.done_shown_done / self.done_items if self.done_items else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "precision": self.precision,
            "open_precision": self.open_precision,
            "done_recall": self.done_recall,
            "marks": self.marks,
            "done_shown_open": self.done_shown_open,
        }


def plan_precision(plan: PlanState | None, context: str) -> Precision:
    """Every mark is checked: an open mark on an item not open at the cut (done, dropped or
    no item of the plan at all) is wrong, and so is a done mark on an open item."""
    result = Precision()
    plan = plan or []
    result.done_items = sum(1 for _, status in plan if truth_state(status) == DONE)
    shown_done: set[str] = set()
    for text, state in marked_items(context):
        result.marks += 1
        matched = _match(text, plan)
        right = matched is not None and truth_state(matched[1]) == state
        result.correct += right
        if state == OPEN:
            result.open_marks += 1
            result.open_correct += right
            if matched is not None and truth_state(matched[1]) == DONE:
                result.done_shown_open += 1
        if state == DONE and right and matched is not None:
            shown_done.add(matched[0])
    result.done_shown_done = len(shown_done)
    return result


_LEAD_LABEL = re.compile(r"^[^:\n]{1,40}:\s+")
_QUOTES = "\"'“”‘’«»「」『』> "


def _units(context: str) -> list[str]:
    """Lines, split into sentences, without list marks, a leading label ("Where I left
    it: …", "last request: …") or quotes: what a reader would see as the same words."""
    units: list[str] = []
    for line in context.splitlines():
        body = _BULLET.sub("", line).strip()
        if not body:
            continue
        sentences = [s for s in _SENTENCE_END.split(body) if s.strip()]
        for sentence in sentences if len(sentences) > 1 else [body]:
            rest = _LEAD_LABEL.sub("", sentence, count=1)
            if len(content_words(rest)) >= REPEAT_MIN_WORDS:
                sentence = rest
            units.append(sentence.strip(_QUOTES))
    return units


def repeated_lines(context: str) -> list[str]:
    """Non-trivial lines or sentences the context shows more than once (each extra time)."""
    seen: set[str] = set()
    repeats: list[str] = []
    for unit in _units(context):
        if len(content_words(unit)) < REPEAT_MIN_WORDS:
            continue
        key = _clean_item(unit).strip(_QUOTES)
        if key in seen:
            repeats.append(unit)
        seen.add(key)
    return repeats


def memory_present(context: str, memories: dict[str, str]) -> dict[str, bool]:
    """Is each memory's content (not its name) in the context, word for word?"""
    text = _clean_item(context.replace("\n", " "))
    return {name: _clean_item(content) in text for name, content in memories.items()}


@dataclass
class Agreement:
    """What a saved account says of the plan, against the plan it should report."""

    items: int = 0
    #: every item of the plan was done or dropped
    finished: bool = False
    #: per document: items it names, names with a readable state, with the right one,
    #: and 1 when it calls a finished plan "in progress"
    documents: dict[str, dict[str, int]] = field(default_factory=dict)

    def _sum(self, key: str) -> int:
        return sum(doc[key] for doc in self.documents.values())

    @property
    def share(self) -> float | None:
        """Of the states the account gives plan items, the share that are right."""
        checked = self._sum("checked")
        return self._sum("agree") / checked if checked else None

    @property
    def named(self) -> float | None:
        """How much of the plan the account names at all (every document, every item)."""
        room = self.items * len(self.documents)
        return self._sum("named") / room if room else None

    @property
    def finished_called_in_progress(self) -> bool:
        return self._sum("finished_in_progress") > 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "agreement": self.share,
            "named": self.named,
            "finished_called_in_progress": self.finished_called_in_progress,
            "documents": self.documents,
        }


_DONE_WORDS = re.compile(r"\b(done|completed?|finished|shipped)\b|✅|\[x\]", re.I)
_OPEN_WORDS = re.compile(
    r"in[ _]progress|\bpending\b|\bnext\b|\btodo\b|\bremaining\b|\bopen\b|\[ \]|\bwip\b", re.I
)
_IN_PROGRESS = re.compile(r"in[ _]progress", re.I)


_LABEL = re.compile(r"([^\W\d_][\w \-]{0,30}):(?=\s)", re.U)


def _state_of(text: str) -> str | None:
    is_done, is_open = bool(_DONE_WORDS.search(text)), bool(_OPEN_WORDS.search(text))
    if is_done == is_open:
        return None
    return DONE if is_done else OPEN


def _said_state(line: str, at: int, heading: str) -> str | None:
    """Done or open: the line's own mark, else the last label before the item on its line
    ("in progress: a. next: b; c", "3 done: a; b"), else the heading it sits under."""
    mark = _MARK.match(line)
    if mark:
        return _MARK_STATE[mark.group(1).lower()]
    labels = _LABEL.findall(line[:at])
    if labels:
        return _state_of(labels[-1])
    return _state_of(heading)


def _document(plan: PlanState, text: str, finished: bool) -> dict[str, int]:
    named: set[str] = set()
    checked = agree = in_progress = 0
    heading = ""
    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            heading = line
            continue
        if line.rstrip().endswith(":") and _BULLET.match(line):
            heading = line  # "- Completed:" heads the items indented under it
            continue
        body = _BULLET.sub("", line).strip().casefold()
        if finished and body and body not in _NOTHING and _IN_PROGRESS.search(line + heading):
            in_progress = 1
        lowered = flat(line)
        for item, status in plan:
            wanted = _clean_item(item)
            at = lowered.find(wanted) if wanted else -1
            if at < 0:
                continue
            named.add(item)
            state = _said_state(lowered, at, heading)
            if state is not None:
                checked += 1
                agree += state == truth_state(status)
    return {
        "named": len(named),
        "checked": checked,
        "agree": agree,
        "finished_in_progress": in_progress,
    }


def account_agreement(plan: PlanState | None, documents: dict[str, str]) -> Agreement:
    """For each document (board summary, snapshot, resumption note, …): which plan items it
    names, and whether the state it gives each (by the line's mark or the heading it is
    under) is the plan's: done said done, open said open. A finished plan must never be
    called "in progress" (a non-empty line under such a heading, or on such a line)."""
    plan = plan or []
    finished = bool(plan) and all(truth_state(s) != OPEN for _, s in plan)
    result = Agreement(items=len(plan), finished=finished)
    for name, text in documents.items():
        result.documents[name] = _document(plan, text, finished)
    return result


_PLAN_HEADING = re.compile(r"plan|in[ _]progress|pending|next|todo|steps|open items", re.I)
_NOTHING = {"none", "nothing", "n/a", "-", "(none)", "none yet", "nothing recorded yet"}


def leaked_items(open_items: list[str], context: str) -> list[str]:
    """Open items of another, still running session that the context hands over as plan
    items: on a plan mark, as (most of) a list item, under a plan heading, or on more than
    one line. A single line that mentions the other session is allowed."""
    leaked: list[str] = []
    lines = context.splitlines()
    for item in open_items:
        wanted = _clean_item(item)
        if not wanted:
            continue
        heading, hits, as_plan = "", 0, False
        for line in lines:
            if line.lstrip().startswith("#"):
                heading = line
                continue
            if wanted not in flat(line):
                continue
            hits += 1
            body = _BULLET.sub("", line).strip()
            listed = body != line.strip() and len(wanted) >= 0.6 * len(_clean_item(body))
            if (
                _MARK.match(line)
                or listed
                or (_PLAN_HEADING.search(heading) and body != line.strip())
            ):
                as_plan = True
        if as_plan or hits > 1:
            leaked.append(item)
    return leaked


_CELL = re.compile(r"(?<!\\)\|")


def board_summaries(board: str) -> list[str]:
    """The Summary cell of every row of the board (``memory/index.md``)."""
    rows = [line for line in board.splitlines() if line.lstrip().startswith("|")]
    if len(rows) < 2:
        return []
    header = [cell.strip() for cell in _CELL.split(rows[0].strip().strip("|"))]
    if "Summary" not in header:
        return []
    column = header.index("Summary")
    found = []
    for row in rows[2:]:
        cells = [cell.strip() for cell in _CELL.split(row.strip().strip("|"))]
        if len(cells) > column:
            found.append(cells[column])
    return found


def account_documents(memory: Path) -> dict[str, str]:
    """What a session leaves for the next: the board's Summary, its snapshot, the relay
    snapshot, the resumption note and the daily log (each as text; missing ones left out)."""

    def read(path: Path) -> str | None:
        try:
            return path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None

    found: dict[str, str] = {}
    board = read(memory / "index.md")
    if board:
        found["board summary"] = "\n".join(board_summaries(board))
    snapshots = sorted(
        p for p in (memory / "sessions").glob("*.md") if not p.name.endswith(".notes.md")
    )
    texts = [t for t in (read(p) for p in snapshots) if t]
    if texts:
        found["snapshot"] = "\n".join(texts)
    for name, file in (("relay snapshot", "relay-snapshot.md"), ("resumption", "resumption.md")):
        text = read(memory / file)
        if text:
            found[name] = text
    daily = [t for t in (read(p) for p in sorted(memory.glob("[0-9]" * 4 + "-*.md"))) if t]
    if daily:
        found["daily log"] = "\n".join(daily)
    return found
