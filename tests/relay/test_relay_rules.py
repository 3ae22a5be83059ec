"""The relay snapshot's seed rules that an audit found partial: each test names its rule."""

from __future__ import annotations

from pathlib import Path

from workmem.files.sections import Document
from workmem.relay.template import SECTIONS, SnapshotNotes, section_key
from workmem.relay.workflows import snapshot
from workmem.root import Workspace

from .test_relay import put, session


def sections(root: Path) -> dict[str, str]:
    doc = Document.parse((root / "memory" / "relay-snapshot.md").read_text())
    return {str(section_key(s.title)): s.content() for s in doc.sections}


def warm(home: Path, root: Path) -> Path:
    return put(home, root, session(root, "w", used=130_000), 1000)  # 65 %: incremental


def test_incremental_save_keeps_the_in_progress_text_it_does_not_repeat(
    root: Path, home: Path
) -> None:
    ws, path = Workspace(root), warm(home, root)
    snapshot(ws, SnapshotNotes(in_progress="Halfway through the parser rewrite"), transcript=path)
    result = snapshot(ws, SnapshotNotes(decisions=["Keep the old API"]), transcript=path)
    assert result.mode == "incremental"
    assert "Halfway through the parser rewrite" in sections(root)["in_progress"]


def test_incremental_save_adds_no_placeholder_after_real_items(root: Path, home: Path) -> None:
    ws, path = Workspace(root), warm(home, root)
    snapshot(ws, SnapshotNotes(pending=["Write docs"], decisions=["Use JSON"]), transcript=path)
    snapshot(ws, SnapshotNotes(in_progress="later"), transcript=path)
    found = sections(root)
    for key in ("pending", "decisions", "files"):
        lines = [line.strip() for line in found[key].splitlines() if line.strip()]
        assert "None" not in lines, (key, lines)
    assert "Write docs" in found["pending"] and "Use JSON" in found["decisions"]


def test_full_save_carries_over_decisions_and_gotchas_it_does_not_restate(
    root: Path, home: Path
) -> None:
    ws = Workspace(root)
    path = put(home, root, session(root, "f", used=20_000), 1000)  # 10 %: full save
    snapshot(
        ws,
        SnapshotNotes(
            decisions=["Postgres over SQLite"],
            gotchas=["The CI cache hides stale wheels"],
            preferences=["Short commit messages"],
            pending=["Migrate the users table"],
        ),
        transcript=path,
    )
    result = snapshot(ws, SnapshotNotes(decisions=["Ship on Friday"]), transcript=path)
    assert result.mode == "full"
    found = sections(root)
    assert "Postgres over SQLite (carried over)" in found["decisions"]
    assert "Ship on Friday" in found["decisions"]
    assert "The CI cache hides stale wheels (carried over)" in found["gotchas"]
    assert "Short commit messages (carried over)" in found["preferences"]
    assert "no longer listed under Pending: Migrate the users table" in result.notes


def test_daily_log_sync_keeps_key_items_of_every_section(root: Path, home: Path) -> None:
    ws = Workspace(root)
    path = put(home, root, session(root, "d"), 1000)
    snapshot(
        ws,
        SnapshotNotes(
            in_progress="Wiring the exporter",
            completed=["Reader done"],
            pending=["Exporter tests"],
            decisions=["CSV stays the default"],
            preferences=["No emojis in output"],
            gotchas=["Windows paths in fixtures"],
        ),
        transcript=path,
    )
    log = (root / "memory" / "2026-05-25.md").read_text()
    for text in (
        "Wiring the exporter",
        "Reader done",
        "Exporter tests",
        "CSV stays the default",
        "No emojis in output",
        "Windows paths in fixtures",
    ):
        assert text in log, text


def test_daily_log_sync_does_not_repeat_an_identical_entry(root: Path, home: Path) -> None:
    ws = Workspace(root)
    path = put(home, root, session(root, "r"), 1000)
    notes = SnapshotNotes(in_progress="Same state")
    snapshot(ws, notes, transcript=path)
    second = snapshot(ws, notes, transcript=path)
    assert second.written and second.daily_log is None
    log = (root / "memory" / "2026-05-25.md").read_text()
    assert log.count("### Session Relay Auto-Save") == 1


def test_agent_text_with_headings_cannot_break_the_relay_snapshot(root: Path, home: Path) -> None:
    ws = Workspace(root)
    path = put(home, root, session(root, "h"), 1000)
    hostile = "## Summary\n---\n```\n## Completed\n```\n<!-- workmem:x -->"
    snapshot(
        ws,
        SnapshotNotes(in_progress=hostile, decisions=[hostile], gotchas=["### Gotcha\nline"]),
        transcript=path,
    )
    text = (root / "memory" / "relay-snapshot.md").read_text()
    headings = [line[3:] for line in text.splitlines() if line.startswith("## ")]
    assert headings == [title for _, title in SECTIONS]
    assert "<!--" not in text and "\\## Summary" in text
    # and the next save (incremental merge) still reads it
    snapshot(ws, SnapshotNotes(in_progress="next"), transcript=warm(home, root))
    again = (root / "memory" / "relay-snapshot.md").read_text()
    assert [line[3:] for line in again.splitlines() if line.startswith("## ")] == headings


def test_a_rule_the_user_set_in_the_transcript_is_a_user_preference(root: Path, home: Path) -> None:
    w = session(root, "p", used=130_000)
    w.user("From now on, always run the linter before you propose a commit.")
    w.assistant("Will do.")
    w.user("Now fix the exporter's quoting")
    path = put(home, root, w, 1000)
    snapshot(Workspace(root), SnapshotNotes(preferences=["Short answers"]), transcript=path)
    found = sections(root)["preferences"]
    assert "Short answers" in found
    assert "always run the linter before you propose a commit" in found


def test_a_rule_the_user_set_is_kept_without_its_secret(root: Path, home: Path) -> None:
    from workmem.continuity.briefing import build_resume

    secret = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    w = session(root, "s", used=130_000)
    w.user(f"From now on, always push with the token {secret} to the mirror.")
    w.assistant("Understood.")
    w.user("# Release\nNow tag the release")
    path = put(home, root, w, 1000)
    snapshot(Workspace(root), SnapshotNotes(), transcript=path)
    found = sections(root)["preferences"]
    assert "always push with the token" in found and secret not in found
    resumed = build_resume(
        Workspace(root), session_id=None, transcript=path, platform="claude-code"
    ).text
    assert "always push with the token" in resumed and secret not in resumed
    assert "\n# Release" not in resumed  # the user's heading is text, not a heading
