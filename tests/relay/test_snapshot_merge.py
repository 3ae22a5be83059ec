"""The relay snapshot across saves: the size cut keeps the newest items and names every one
it cuts, a save's word count is the file's, a session's lists survive a full save."""

from __future__ import annotations

from pathlib import Path

import pytest

from workmem.errors import WriteError
from workmem.files.sections import Document
from workmem.relay import snapshot_merge
from workmem.relay.snapshot_merge import MAX_WORDS
from workmem.relay.template import SnapshotNotes, count_words, section_key
from workmem.relay.workflows import snapshot
from workmem.root import Workspace

from .test_relay import put, session


def items(root: Path, key: str) -> list[str]:
    doc = Document.parse((root / "memory" / "relay-snapshot.md").read_text())
    found = next(s for s in doc.sections if section_key(s.title) == key)
    return [i for i in found.items() if i != "None"]


def long_items(prefix: str, count: int) -> list[str]:
    return [f"{prefix} {n:03d} " + "word " * 30 for n in range(count)]


def test_the_size_cut_keeps_the_newest_completed_items_and_names_each_one_it_cut(
    root: Path, home: Path
) -> None:
    path = put(home, root, session(root, "big"), 1000)
    result = snapshot(
        Workspace(root), SnapshotNotes(completed=long_items("done", 80)), transcript=path
    )
    kept = items(root, "completed")
    assert kept and kept[-1].startswith("done 079")  # the newest stays
    assert not any(i.startswith("done 000") for i in kept)  # the oldest went first
    cut = [n for n in result.notes if n.startswith("cut ")]
    assert len(cut) == 1 and "Completed" in cut[0] and "the daily log keeps them" in cut[0]
    dropped = 80 - len(kept)
    assert f"cut {dropped} Completed item(s)" in cut[0]
    for n in range(dropped):  # every item cut is named
        assert f"done {n:03d}" in cut[0]
    assert result.words == count_words((root / "memory" / "relay-snapshot.md").read_text())
    assert result.words <= MAX_WORDS


def test_the_reported_word_count_is_the_files_after_a_warm_merge(root: Path, home: Path) -> None:
    """Warm-zone saves merge into the file: the cut and the count are of the merged file
    (the count once said "90 words" for a file of over 2,000)."""
    ws = Workspace(root)
    path = put(home, root, session(root, "w", used=130_000), 1000)  # 65 %: incremental
    snapshot(ws, SnapshotNotes(completed=long_items("first", 40)), transcript=path)
    result = snapshot(ws, SnapshotNotes(completed=long_items("second", 40)), transcript=path)
    text = (root / "memory" / "relay-snapshot.md").read_text()
    assert result.mode == "incremental"
    assert result.words == count_words(text) and result.words <= MAX_WORDS
    assert not any("under the" in n for n in result.notes)  # not "90 words"
    kept = items(root, "completed")
    assert kept[-1].startswith("second 039") and not kept[0].startswith("first 000")
    assert any(n.startswith("cut ") and "first 000" in n for n in result.notes)


def test_a_second_full_save_keeps_the_agents_working_files_and_completed_items(
    root: Path, home: Path
) -> None:
    ws = Workspace(root)
    path = put(home, root, session(root, "f"), 1000)  # 10 %: full saves
    notes = SnapshotNotes(
        in_progress="Wiring the exporter",
        completed=["Reader done"],
        files=["`docs/design.md` — the exporter's design, agreed with the user"],
    )
    snapshot(ws, notes, transcript=path)
    second = snapshot(ws, SnapshotNotes(), transcript=path)  # a hook save: no notes
    files = items(root, "files")
    assert "`docs/design.md` — the exporter's design, agreed with the user" in files
    assert any(f.startswith("`src/mod0.py`") for f in files)
    assert items(root, "completed") == ["Reader done"]
    text = (root / "memory" / "relay-snapshot.md").read_text()
    assert "Wiring the exporter" in text.split("## ✅")[0]
    assert not any(n.startswith("no longer") for n in second.notes)


def test_another_sessions_full_save_reports_what_it_no_longer_lists(root: Path, home: Path) -> None:
    ws = Workspace(root)
    first = put(home, root, session(root, "a"), 1000)
    snapshot(
        ws,
        SnapshotNotes(
            in_progress="Wiring the exporter",
            completed=["Reader done"],
            files=["`docs/design.md` — the design"],
        ),
        transcript=first,
    )
    other = put(home, root, session(root, "b"), 2000)
    result = snapshot(ws, SnapshotNotes(), transcript=other)
    assert "no longer listed under Completed: Reader done" in result.notes
    assert "no longer listed under Working Files: `docs/design.md` — the design" in result.notes
    assert "no longer listed under In Progress: Wiring the exporter" in result.notes
    assert items(root, "completed") == []


def test_a_step_now_completed_leaves_pending(root: Path, home: Path) -> None:
    ws = Workspace(root)
    path = put(home, root, session(root, "w", used=130_000), 1000)  # incremental
    snapshot(ws, SnapshotNotes(pending=["Run tests and lint", "Write docs"]), transcript=path)
    result = snapshot(ws, SnapshotNotes(completed=["Run tests and lint"]), transcript=path)
    assert items(root, "pending") == ["Write docs"]
    assert items(root, "completed") == ["Run tests and lint"]
    assert not any("Run tests" in n for n in result.notes)  # done, not dropped


def test_a_save_that_would_lose_an_item_unreported_writes_nothing(
    root: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = Workspace(root)
    path = put(home, root, session(root, "x"), 1000)
    snapshot(ws, SnapshotNotes(decisions=["Keep the old API"]), transcript=path)
    before = (root / "memory" / "relay-snapshot.md").read_text()

    def careless(existing: str, fresh: str, *, same_session: bool) -> tuple[str, list[object]]:
        return fresh, []  # an overwrite that forgets the decision and says nothing

    monkeypatch.setattr("workmem.relay.snapshot.carry_over", careless)
    with pytest.raises(WriteError, match="Decisions: Keep the old API"):
        snapshot(ws, SnapshotNotes(), transcript=path)
    assert (root / "memory" / "relay-snapshot.md").read_text() == before


def test_fit_cuts_gotchas_and_files_oldest_first_and_pending_from_the_end() -> None:
    from workmem.relay.snapshot import render

    def fitted(pending: int, gotchas: int, files: int) -> tuple[str, set[tuple[str, str]]]:
        sections = {
            "pending": [f"{n}. step {n} " + "word " * 60 for n in range(1, pending + 1)],
            "gotchas": [f"- gotcha {n} " + "word " * 60 for n in range(gotchas)],
            "files": [f"- `f{n}.py` — file {n} " + "word " * 60 for n in range(files)],
        }
        text, cut = snapshot_merge.fit(render(["# Session Relay Snapshot"], sections))
        assert count_words(text) <= MAX_WORDS and all(d.cut for d in cut)
        return text, {(d.section, " ".join(d.text.split()[:2])) for d in cut}

    text, gone = fitted(pending=5, gotchas=20, files=12)
    assert ("gotchas", "gotcha 0") in gone and ("gotchas", "gotcha 19") not in gone
    assert not any(section == "pending" for section, _ in gone)
    text, gone = fitted(pending=40, gotchas=5, files=5)
    assert gone and all(section == "pending" for section, _ in gone)
    assert ("pending", "step 40") in gone and ("pending", "step 1") not in gone
    assert "\n1. step 1 " in text and "\n2. step 2 " in text  # numbered 1, 2, … still


def test_a_hook_save_reports_its_drops_in_the_save_record(root: Path, home: Path) -> None:
    from workmem.continuity.save import RELAY, last_save, save_session

    ws = Workspace(root)
    snapshot(
        ws,
        SnapshotNotes(completed=["Reader done"]),
        transcript=put(home, root, session(root, "a"), 1),
    )
    other = put(home, root, session(root, "b"), 2000)
    report = save_session(
        ws,
        session_id=None,
        transcript=other,
        platform="claude-code",
        reason="pre-compact",
        parts=(RELAY,),
    )
    words = count_words((root / "memory" / "relay-snapshot.md").read_text())
    assert report.done[RELAY] == f"{words} words; no longer listed under Completed: Reader done"
    record = last_save(ws)
    assert record is not None and "Reader done" in record["done"][RELAY]


def test_clip_words_cuts_after_a_whole_word() -> None:
    from workmem.relay.template import clip_words

    text = "Delete all the Python source files when you're done but keep the Justfile"
    assert clip_words(text, 200) == text
    cut = clip_words(text, 40)
    assert cut.endswith("…") and len(cut) <= 40
    assert text.startswith(cut[:-1]) and text[len(cut) - 1] == " "  # whole words only
    assert clip_words("x" * 50, 10) == "x" * 9 + "…"  # no space: cut at the width
    assert clip_words("## Heading\nsecond", 200) == "\\## Heading second"  # still neutral


def test_the_last_commands_run_stay_one_item_with_the_newest_text() -> None:
    from workmem.relay.snapshot import render

    def doc(*completed: str) -> str:
        return render(["# Session Relay Snapshot"], {"completed": [f"- {c}" for c in completed]})

    old = doc("Port the parser", "Commands run: `a`; `b`")
    new = doc("Port the parser", "Commands run: `b`; `c`")
    text, dropped = snapshot_merge.carry_over(old, new, same_session=True)
    found = Document.parse(text)
    completed = next(s for s in found.sections if section_key(s.title) == "completed")
    assert completed.items() == ["Port the parser", "Commands run: `b`; `c`"]
    assert dropped == [] and snapshot_merge.unaccounted(old, text, dropped) == []
    merged, _ = snapshot_merge.merge_into(old, new)
    assert "Commands run: `a`" not in merged and "Commands run: `b`; `c`" in merged


def test_the_daily_log_logs_the_last_commands_run_once() -> None:
    from workmem.relay.daily_sync import entry_body, logged

    snap = "# Session Relay Snapshot\n"
    first = entry_body(snap, ["Done", "Commands run: `a`"], None)
    assert first is not None and "Commands run: `a`" in first
    log = f"# 2026-05-25\n\n### Session Relay Auto-Save (10:00)\n\n{first}\n"
    assert entry_body(snap, ["Done", "Commands run: `b`"], None, before=logged(log)) is None
