"""LoCoMo conversations as a person would keep them in workmem.

LoCoMo (Maharana et al., ACL 2024) is long multi-session chat with questions whose evidence
is given as dialogue turn IDs (``D3:11``). To measure search as it will be used, each
conversation goes into its own memory root through the public API: every session a dated
daily log, every turn one entry whose heading keeps its ``dia_id``. Nothing is indexed
directly; the index sees only the files.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from ..errors import FormatError
from ..root import Workspace

_DIA = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)")
_SESSION_KEY = re.compile(r"^session_(\d+)$")
_WHEN = re.compile(
    r"(?P<h>\d{1,2}):(?P<m>\d{2})\s*(?P<ap>am|pm)\s+on\s+(?P<d>\d{1,2})\s+(?P<mon>[A-Za-z]+),?\s+(?P<y>\d{4})",
    re.I,
)
_MONTH_NAMES = "january february march april may june july august september october november"
_MONTHS = {m: i for i, m in enumerate([*_MONTH_NAMES.split(), "december"], start=1)}
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
_HEADING_ID = re.compile(r"\[(D\d+:\d+)\]")


@dataclass
class Turn:
    dia_id: str
    speaker: str
    text: str
    caption: str | None = None

    @property
    def body(self) -> str:
        """What a person would note: the words, and what a shared photo showed."""
        if self.caption:
            return f"{self.text}\n\n[shared a photo: {self.caption}]"
        return self.text


@dataclass
class Session:
    number: int
    when: str
    day: date
    time: str
    turns: list[Turn]


@dataclass
class Question:
    question: str
    category: int
    evidence: list[str]
    raw_evidence: list[str] = field(default_factory=list)


@dataclass
class Conversation:
    sample_id: str
    sessions: list[Session]
    questions: list[Question]

    def turns(self) -> Iterator[tuple[Session, Turn]]:
        for session in self.sessions:
            for turn in session.turns:
                yield session, turn


def normalize_evidence(values: list[Any]) -> list[str]:
    """``["D8:6; D9:17", "D:11:26", "D"]`` -> ``["D8:6", "D9:17", "D11:26"]``."""
    found: list[str] = []
    for value in values:
        for match in _DIA.finditer(str(value)):
            found.append(f"D{int(match.group(1))}:{int(match.group(2))}")
    return list(dict.fromkeys(found))


def parse_when(text: str) -> tuple[date, str]:
    """``"1:56 pm on 8 May, 2023"`` -> (2023-05-08, "1:56 pm")."""
    match = _WHEN.search(text)
    if not match or match.group("mon").lower() not in _MONTHS:
        raise FormatError(f"cannot read the session time {text!r}")
    day = date(int(match.group("y")), _MONTHS[match.group("mon").lower()], int(match.group("d")))
    return day, f"{int(match.group('h'))}:{match.group('m')} {match.group('ap').lower()}"


def load(path: Path) -> list[Conversation]:
    """Read a LoCoMo JSON file (a list of samples), checking the fields we rely on."""
    try:
        data = json.loads(path.read_bytes().decode("utf-8-sig"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FormatError(f"cannot read LoCoMo data: {exc}", path=str(path)) from None
    if not isinstance(data, list):
        raise FormatError("expected a JSON list of conversations", path=str(path))
    return [_conversation(item, str(path)) for item in data]


def _conversation(item: Any, where: str) -> Conversation:
    if not isinstance(item, dict) or not isinstance(item.get("conversation"), dict):
        raise FormatError("a sample without a 'conversation' object", path=where)
    conv = item["conversation"]
    sessions: list[Session] = []
    for key, turns in conv.items():
        match = _SESSION_KEY.match(key)
        if not match or not isinstance(turns, list):
            continue
        number = int(match.group(1))
        when = str(conv.get(f"{key}_date_time", ""))
        day, time = parse_when(when)
        parsed = [
            Turn(
                str(t["dia_id"]),
                str(t.get("speaker", "")),
                str(t.get("text", "")),
                t.get("blip_caption"),
            )
            for t in turns
            if isinstance(t, dict) and "dia_id" in t
        ]
        sessions.append(Session(number, when, day, time, parsed))
    sessions.sort(key=lambda s: s.number)
    questions = [
        Question(
            str(q.get("question", "")),
            int(q.get("category", 0)),
            normalize_evidence(list(q.get("evidence") or [])),
            [str(e) for e in q.get("evidence") or []],
        )
        for q in item.get("qa") or []
        if isinstance(q, dict)
    ]
    return Conversation(str(item.get("sample_id", "?")), sessions, questions)


def heading(session: Session, turn: Turn) -> str:
    """``Caroline [D1:3]``: who spoke, and the turn's ID for citing it.

    The session's clock time is left out: in the heading it cost dense recall@5 0.05 on
    the tune split, and no question of categories 1-4 asks for the hour.
    """
    del session
    return f"{turn.speaker} [{turn.dia_id}]"


def dia_id_of(title: str) -> str | None:
    match = _HEADING_ID.search(title)
    return match.group(1) if match else None


def ingest(conversation: Conversation, workspace: Workspace) -> int:
    """Write every turn as an entry of its session's daily log; returns the entries written."""
    from ..files.store import Store
    from ..journal.daily import append_entry

    store = Store(workspace)
    written = 0
    for session, turn in conversation.turns():
        append_entry(store, session.day, heading(session, turn), turn.body)
        written += 1
    return written
