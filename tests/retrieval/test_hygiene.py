"""Only memory is indexed: what a template wrote is no hit; copies are one hit; a hit's
title says what it is and where it came from; notes of an open session are found."""

from __future__ import annotations

from pathlib import Path

import pytest

from workmem.errors import FormatError
from workmem.retrieval import kinds
from workmem.retrieval.chunker import chunk_file, chunk_markdown
from workmem.retrieval.pending import chunk_pending
from workmem.retrieval.search import search
from workmem.root import Workspace

SID = "2026-05-25-0900-cursor-main-agent"


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def notes_file() -> str:
    from workmem.notes.template import render

    return render(
        SID,
        {
            "Session Title": "Billing export to CSV",
            "Errors and Corrections": "- `pytest` failed: the fixture path was wrong",
            "Files and Functions": "- `billing/export.py` — created",
        },
    )


def snapshot_file(language: str = "en") -> str:
    from workmem.board.snapshot import render_template

    text = render_template({"Session ID": SID, "Topic": "billing export", "Status": "active"})
    if language != "en":
        text = render_template({"Session ID": SID, "Topic": "billing export"}, language)
    import re

    return re.sub(
        r"## Files / Artifacts\n\n[^\n]*\n",
        "## Files / Artifacts\n\n- `billing/export.py` — created\n",
        text,
    )


def chunks_of(rel: str, text: str) -> list[str]:
    found = kinds.classify(rel)
    assert found is not None
    return [chunk.text for chunk in chunk_file(found, text)]


def test_the_notes_template_prompts_are_no_text_of_any_chunk() -> None:
    texts = chunks_of(f"memory/sessions/{SID}.notes.md", notes_file())
    assert texts == [
        "Billing export to CSV",
        "- `billing/export.py` — created",
        "- `pytest` failed: the fixture path was wrong",
    ]
    assert not any("acceptance criteria" in t or t.startswith("_") for t in texts)


def test_a_person_s_own_italic_line_is_kept() -> None:
    text = "# Session Notes: x\n\n## Key Results\n_We shipped it on Friday_\n"
    assert [c.text for c in chunk_markdown(text, kinds.NOTES)] == ["_We shipped it on Friday_"]


@pytest.mark.parametrize("language", ["en", "zh-TW"])
def test_a_snapshot_s_metadata_table_is_no_chunk_but_names_what_the_file_is_about(
    language: str,
) -> None:
    found = kinds.classify(f"memory/sessions/{SID}.md")
    assert found is not None
    chunks = chunk_file(found, snapshot_file(language))
    assert [c.text for c in chunks] == ["- `billing/export.py` — created"]
    assert chunks[0].about == "billing export"
    assert not any("Field:" in c.text or "Session ID" in c.text for c in chunks)


def test_an_archived_session_s_summary_still_names_it() -> None:
    text = (
        "# Archived Session: s\n\n## Metadata\n\n| Field | Value |\n|---|---|\n"
        "| Topic | parser rewrite |\n| Summary | moved to a PEG grammar |\n| Status | done |\n\n"
        "## Files\n\n- Session: ./session.md\n"
    )
    (chunk,) = chunk_markdown(text, kinds.ARCHIVE)
    assert chunk.about == "parser rewrite · moved to a PEG grammar"


def test_starter_texts_and_empty_template_headings_are_no_chunks() -> None:
    from workmem.facts.memory_md import scaffold_text
    from workmem.journal.resumption import TEMPLATE
    from workmem.journal.templates import ARCHIVE, THREADS

    assert chunks_of("MEMORY.md", scaffold_text(user_name="Ada")) == []
    assert chunks_of("memory/threads.md", THREADS) == []
    assert chunks_of("memory/archive.md", ARCHIVE) == []
    assert chunks_of("memory/resumption.md", TEMPLATE) == []
    filled = scaffold_text() + "\n"
    filled = filled.replace("### Feedback\n", "### Feedback\n- Prefer small pull requests\n")
    assert chunks_of("MEMORY.md", filled) == ["- Prefer small pull requests"]
    # a person's own intro is kept
    assert chunks_of("MEMORY.md", "# Long-term memory\n\nThis repo ships a CLI.\n") == [
        "This repo ships a CLI."
    ]
    # in a daily log a heading alone is an entry ("17:40 收工")
    assert chunks_of("memory/2026-05-24.md", "# 2026-05-24\n\n### 17:40 收工\n") == ["17:40 收工"]


def test_the_relay_snapshot_header_is_no_chunk() -> None:
    text = (
        "# Session Relay Snapshot\n> Auto-saved by session-relay | 2026-05-25T10:00:00\n"
        "> Model: m | Context: 1/2 (50%, recorded)\n\n## ✅ Completed This Session\n\n- Ship\n"
    )
    assert chunks_of("memory/relay-snapshot.md", text) == ["- Ship"]


def test_a_hit_is_titled_by_its_headings_and_its_session() -> None:
    from workmem.retrieval.labels import label

    notes = kinds.classify(f"memory/sessions/{SID}.notes.md")
    assert notes is not None
    errors = next(c for c in chunk_file(notes, notes_file()) if "pytest" in c.text)
    assert label(notes, errors) == "Errors and Corrections · Billing export to CSV"
    daily = kinds.classify("memory/2026-05-25.md")
    assert daily is not None
    text = "# 2026-05-25\n\n### Session 3 · 17:00 · codex\n\n#### Decisions\n- Use SQLite\n"
    (decision,) = [c for c in chunk_file(daily, text) if "SQLite" in c.text]
    assert label(daily, decision) == "Decisions · Session 3 · 17:00 · codex"
    snapshot = kinds.classify(f"memory/sessions/{SID}.md")
    assert snapshot is not None
    (files,) = chunk_file(snapshot, snapshot_file())
    assert label(snapshot, files) == "Files / Artifacts · billing export"
    relay_text = "# Session Relay Snapshot\n\n## ✅ Completed This Session\n\n- Ship\n"
    for rel, when in [
        ("memory/relay-archive/2026-05-20-101500.md", "2026-05-20 10:15"),
        ("memory/relay-snapshot.md", "latest"),
    ]:
        relay = kinds.classify(rel)
        assert relay is not None
        (done,) = chunk_file(relay, relay_text)
        assert label(relay, done) == f"✅ Completed This Session · handoff {when}"


def test_an_item_nested_under_a_label_item_is_titled_by_that_label() -> None:
    # a save's daily-log entry files its items under "- Decisions:", "- Gotchas:" items
    from workmem.retrieval.labels import label

    daily = kinds.classify("memory/2026-05-25.md")
    assert daily is not None
    text = (
        "# 2026-05-25\n\n### Session Relay Auto-Save (09:45)\n\n- Context at 36.7%\n"
        "- Decisions:\n  - Use addedMap instead of newMap\n- Gotchas：\n  - lint failed\n"
        "- Active: run the tests\n  continued on a second line\n- Plain item\n"
    )
    titles = {c.text: label(daily, c) for c in chunk_file(daily, text)}
    heading = "Session Relay Auto-Save (09:45)"
    assert titles["- Use addedMap instead of newMap"] == f"Decisions · {heading}"
    assert titles["- lint failed"] == f"Gotchas · {heading}"
    assert titles["- Decisions:"] == heading  # the label item itself stays an entry
    assert titles["- Plain item"] == heading  # the group ends with the nested items
    assert titles["- Active: run the tests\n  continued on a second line"] == heading


@pytest.fixture
def ws(root: Path, monkeypatch: pytest.MonkeyPatch) -> Workspace:
    monkeypatch.delenv("WORKMEM_EMBEDDER", raising=False)
    workspace = Workspace(root)
    write(root / "memory" / "sessions" / f"{SID}.notes.md", notes_file())
    write(root / "memory" / "sessions" / f"{SID}.md", snapshot_file())
    return workspace


def test_a_vague_question_finds_memory_not_templates(ws: Workspace) -> None:
    hits = search(ws, "what was asked for and the acceptance criteria", k=10)
    assert all("acceptance" not in hit.text for hit in hits)
    hits = search(ws, "session id", k=10)
    assert all("Field" not in hit.text for hit in hits)


def test_the_same_file_line_in_the_snapshot_and_the_notes_is_one_hit(ws: Workspace) -> None:
    hits = search(ws, "which files did we create", k=10)
    copies = [hit for hit in hits if "billing/export.py" in hit.text]
    assert len(copies) == 1
    (hit,) = copies
    other = {f"memory/sessions/{SID}.md", f"memory/sessions/{SID}.notes.md"} - {hit.path}
    assert [place.split(":")[0] for place in hit.also] == sorted(other)
    assert "billing export" in hit.title.lower()  # the session it came from


def test_a_topic_word_finds_its_session_s_entries(ws: Workspace) -> None:
    # "billing" is in the notes' title, never in the error entry itself
    hits = search(ws, "billing", k=10)
    assert any("fixture path" in hit.text for hit in hits)


# -- notes of a session still open -------------------------------------------------------

STATE = """{
  "version": 1,
  "session_count": 0,
  "open_sessions": {
    "default": {
      "notes": [
        {"id": "a1", "kind": "decision", "at": "2026-05-25 10:30",
         "text": "Chose SQLite over Postgres", "reasoning": "single-user app"},
        {"id": "b2", "kind": "question", "at": "2026-05-25 10:40", "text": "Sync later?"},
        {"id": "c3", "kind": "event", "at": "2026-05-25 10:50", "text": "deploy failed"},
        {"id": "d4", "kind": "thread", "at": "2026-05-25 10:55", "thread": "t-1"}
      ]
    },
    "2026-05-25-0900-codex-main-agent": {"notes": [
        {"id": "e5", "kind": "pattern", "at": "2026-05-25 11:00", "text": "Retries hide bugs"}
    ]}
  }
}
"""


def test_open_notes_are_chunks_with_their_line_day_and_session() -> None:
    chunks = chunk_pending(STATE)
    assert [(c.title, c.text, c.line_start, c.date, c.session_id) for c in chunks] == [
        ("Decision", "Chose SQLite over Postgres — single-user app", 7, "2026-05-25", None),
        ("Open question", "Sync later?", 9, "2026-05-25", None),
        ("Pattern", "Retries hide bugs", 15, "2026-05-25", "2026-05-25-0900-codex-main-agent"),
    ]
    assert '"id": "a1"' in STATE.split("\n")[6]  # `workmem get` shows the note's own line


@pytest.mark.parametrize(
    "text", ["", "[]", '{"open_sessions": []}', '{"open_sessions": {"k": {"notes": 3}}}']
)
def test_odd_state_files_have_no_notes(text: str) -> None:
    assert chunk_pending(text) == []


def test_a_broken_state_file_is_a_format_error_naming_it() -> None:
    with pytest.raises(FormatError, match=r"state\.json"):
        chunk_pending('{"open_sessions": ', "memory/state.json")


def test_a_decision_is_found_as_soon_as_it_is_noted_and_once_after_the_session_ends(
    root: Path,
) -> None:
    """The README's example."""
    from workmem.journal import MemoryWriter

    workspace = Workspace(root)
    writer = MemoryWriter(root)
    writer.note_decision("Chose SQLite over Postgres — single-user app")
    for question in ("what did we decide about the database", "which database did we choose"):
        hits = search(workspace, question, k=3)
        assert hits and hits[0].text.startswith("Chose SQLite over Postgres"), question
        assert hits[0].kind == "pending"
    writer.end_session("Picked the storage", "Next: the schema.")
    hits = search(workspace, "which database did we choose", k=10)
    found = [hit for hit in hits if "SQLite over Postgres" in hit.text]
    assert [hit.kind for hit in found] == ["daily"]  # written to the log, gone from state
