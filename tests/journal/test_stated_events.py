"""What the hooks cannot see, recorded at a save: dated events the user states go to the
event ledger, and the board's Keywords follow the session's real topic."""

from __future__ import annotations

import io
import json
import sys
from datetime import date
from pathlib import Path

import pytest

from workmem.cli import main
from workmem.files.tables import TableDocument
from workmem.journal.events import parse_ledger
from workmem.journal.stated_events import record_stated_events, stated_events
from workmem.root import Workspace
from workmem.transcripts.model import Message, Transcript

SAID = "2026-05-27T10:00:00Z"  # a Wednesday


def chat(*texts: str, role: str = "user") -> Transcript:
    messages = [Message(role=role, text=t, time=SAID) for t in texts]
    return Transcript(platform="claude-code", path=Path("t.jsonl"), messages=messages)


@pytest.mark.parametrize(
    ("text", "kind", "day"),
    [
        ("We shipped the parser on Monday.", "milestone", date(2026, 5, 25)),
        ("The demo is on the 12th.", "meeting", date(2026, 6, 12)),
        ("Code freeze is on June 3.", "deadline", date(2026, 6, 3)),
        ("we bought two more CI runners yesterday", "purchase", date(2026, 5, 26)),
        ("the outage last night took the API down", "issue", date(2026, 5, 26)),
        ("我們上週五上線了新版本", "milestone", date(2026, 5, 22)),
        ("週一開會討論架構", "meeting", date(2026, 6, 1)),
        ("デモは12日です", "meeting", date(2026, 6, 12)),
        ("先週の金曜にリリースした", "milestone", date(2026, 5, 22)),
        ("데모는 12일이야", "meeting", date(2026, 6, 12)),
        ("지난주 금요일에 배포했어", "milestone", date(2026, 5, 22)),
    ],
)
def test_a_stated_event_is_found_with_its_date(text: str, kind: str, day: date) -> None:
    found = stated_events(chat(text))
    assert [(e.type, e.when.date) for e in found] == [(kind, day)]
    assert found[0].text == text.rstrip()


@pytest.mark.parametrize(
    "text",
    [
        "When is the demo?",  # a question
        "fix the bug from yesterday's deploy",  # a request to the agent
        "please deploy it on Monday",
        "幫我把週一的會議記錄整理一下",
        "デモの資料を12日までに作って",
        "The API uses JWT auth.",  # no date
        "See you on Monday!",  # no event
        "上次的 bug 修好了嗎？",
    ],
)
def test_questions_requests_and_undated_talk_are_no_events(text: str) -> None:
    assert stated_events(chat(text)) == []


def test_the_assistants_words_are_not_the_users_events() -> None:
    assert stated_events(chat("We shipped the parser on Monday.", role="assistant")) == []


def test_recording_twice_adds_nothing_the_second_time(root: Path) -> None:
    transcript = chat("We shipped the parser on Monday.", "The demo is on the 12th.")
    workspace = Workspace(root)
    assert record_stated_events(workspace, "2026-05-27-1000-x", transcript) == 2
    assert record_stated_events(workspace, "2026-05-27-1000-x", transcript) == 0
    ledger = parse_ledger((root / "memory" / "events.json").read_text())
    assert [(e.type, e.normalized_date) for e in ledger.events] == [
        ("milestone", "2026-05-25"),
        ("meeting", "2026-06-12"),
    ]
    assert ledger.events[0].source == "memory/sessions/2026-05-27-1000-x.md"


def test_a_broken_ledger_is_refused_and_left_as_it_was(root: Path) -> None:
    from workmem.errors import FormatError

    path = root / "memory" / "events.json"
    path.parent.mkdir(parents=True)
    path.write_text("{broken")
    with pytest.raises(FormatError):
        record_stated_events(Workspace(root), None, chat("We shipped the parser on Monday."))
    assert path.read_text() == "{broken"


def _claude_line(kind: str, uuid: str, text: str, stamp: str) -> str:
    return json.dumps(
        {
            "type": kind,
            "uuid": uuid,
            "sessionId": "s-ev",
            "timestamp": stamp,
            "cwd": "/w",
            "message": {"role": kind, "content": [{"type": "text", "text": text}]},
        }
    )


def test_a_save_records_the_events_and_the_keywords_from_the_topic(
    root: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    transcript = tmp_path / "s.jsonl"
    transcript.write_text(
        "\n".join(
            [
                _claude_line("user", "u1", "Add rate limiting to the login endpoint", SAID),
                _claude_line("assistant", "a1", "Done: the limiter is in place.", SAID),
                _claude_line("user", "u2", "FYI we shipped the parser on Monday.", SAID),
            ]
        )
        + "\n"
    )
    base = {"session_id": "s-ev", "transcript_path": str(transcript), "cwd": str(root)}

    def fire(event: str, **extra: object) -> None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps({**base, **extra})))
        assert main(["hook", event, "--platform", "claude-code"]) == 0
        capsys.readouterr()

    fire("SessionStart", source="startup")
    row = next(TableDocument.parse((root / "memory" / "index.md").read_text()).records())
    assert row["Keywords"] == "sessionStart, claude-code-agent"
    fire("PreCompact", trigger="auto")
    row = next(TableDocument.parse((root / "memory" / "index.md").read_text()).records())
    assert row["Topic"] == "Add rate limiting to the login endpoint"
    assert row["Keywords"] == "rate limiting, login endpoint, claude-code-agent"
    ledger = parse_ledger((root / "memory" / "events.json").read_text())
    assert [(e.type, e.normalized_date) for e in ledger.events] == [("milestone", "2026-05-25")]
