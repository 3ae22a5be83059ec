"""Seed 002 end to end: inherit, snapshot (zones, size, secrets), heartbeat, restore, archive."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from workmem.files.store import Store
from workmem.relay import heartbeat
from workmem.relay.archive import archive_snapshot
from workmem.relay.template import SECTIONS, SnapshotNotes, count_words
from workmem.relay.workflows import inherit, restore, snapshot, status
from workmem.root import Workspace

from ..transcripts.util import ClaudeWriter, claude_project, run_cli

MOD = "workmem.cli.relay_cmds"
SECRETS = [
    "sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Jh1Gf0EdCbA",
    "ghp_abcdefghijklmnopqrstuvwxyz0123456789AB",
    "AKIAABCDEFGHIJKLMNOP",
]


def session(
    cwd: Path,
    name: str,
    *,
    rounds: int = 6,
    used: int = 20_000,
    day: int = 25,
    secret: bool = False,
) -> ClaudeWriter:
    w = ClaudeWriter(session=name, cwd=str(cwd))
    for n in range(rounds):
        w.user(f"{name} request {n}")
        w.assistant(
            f"{name} answer {n}",
            tools=[
                w.tool_use(
                    "Edit",
                    f"{name}-e{n}",
                    file_path=f"{cwd}/src/mod{n}.py",
                    old_string="a",
                    new_string=f"def fn{n}():\n    pass",
                )
            ],
        )
        w.result(f"{name}-e{n}", "ok")
    w.assistant(tools=[w.tool_use("Bash", f"{name}-b", command="pytest -q tests/")])
    w.result(f"{name}-b", "FAILED tests/test_x.py::test_y - AssertionError", is_error=True)
    if secret:
        w.user(f"use token {SECRETS[0]} and {SECRETS[1]}")
        w.assistant(tools=[w.tool_use("Bash", f"{name}-s", command=f"export AWS_KEY={SECRETS[2]}")])
        w.result(f"{name}-s", f"password=hunter2secret {SECRETS[2]}")
    w.assistant(
        f"{name} done",
        usage={
            "input_tokens": used,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
            "output_tokens": 10,
        },
    )
    for record in w.records:
        record["timestamp"] = record["timestamp"].replace("2026-05-25", f"2026-05-{day:02d}")
    return w


def put(home: Path, root: Path, w: ClaudeWriter, mtime: float) -> Path:
    path = w.write(claude_project(home, root) / f"{w.session}.jsonl")
    os.utime(path, (mtime, mtime))
    return path


def all_text(root: Path) -> str:
    return "\n".join(
        p.read_text(errors="replace")
        for p in root.rglob("*")
        if p.is_file() and ".workmem" not in p.parts
    )


def test_inherit_takes_three_sessions_three_rounds_verbatim(root: Path, home: Path) -> None:
    for n, day in enumerate((20, 23, 24, 25)):
        put(home, root, session(root, f"s{n}", day=day), 1000 + n)
    text, inheritance, _ = inherit(Workspace(root), save=False)
    assert [t.session_id for t in inheritance.tails] == ["s3", "s2", "s1"]
    assert all(len(t.rounds) == 3 for t in inheritance.tails)
    assert "**[User]** s3 request 5\n**[Assistant]** s3 answer 5\n\ns3 done" in text
    assert "s3 request 2" not in text  # only the last three rounds
    assert "pytest" not in text  # tool traffic is skipped
    assert "Time gap" in text.split("Session -2")[1]  # s2 ended more than 24 h before now
    assert "Time gap" not in text.split("Session -2")[0]
    assert text.index("## 📋 Carry-Forward State") > text.index("Session -3")


def test_inherit_excludes_current_and_survives_unreadable(
    root: Path, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = put(home, root, session(root, "a"), 1000)
    b = put(home, root, session(root, "b"), 2000)
    broken = claude_project(home, root) / "c.jsonl"
    broken.mkdir()  # a folder named like a transcript: unreadable, skipped
    monkeypatch.setenv("WORKMEM_TRANSCRIPT", str(b))
    _, inheritance, saved = inherit(Workspace(root), save=True)
    assert [t.path for t in inheritance.tails] == [a]
    assert saved == root / "memory" / "relay-context.md" and saved.read_text().startswith(
        "# Session Relay"
    )


def test_snapshot_end_to_end_with_secrets_daily_log_and_zones(root: Path, home: Path) -> None:
    path = put(home, root, session(root, "main", used=160_000, secret=True), 1000)
    notes = SnapshotNotes(
        in_progress=f"Fixing tests/test_x.py; the key {SECRETS[0]} was pasted by the user",
        decisions=["Use argparse, not click: hooks must start fast"],
        preferences=["User wants Chinese summaries"],
    )
    result = snapshot(Workspace(root), notes, transcript=path)
    assert result.written and result.mode == "full"
    assert result.zone is not None and result.zone.name == "hot"  # 160k of 200k = 80 %
    assert (
        result.heartbeat_added and heartbeat.HEARTBEAT_LINE in (root / "HEARTBEAT.md").read_text()
    )
    text = (root / "memory" / "relay-snapshot.md").read_text()
    headings = [line[3:] for line in text.splitlines() if line.startswith("## ")]
    assert headings == [title for _, title in SECTIONS]
    in_progress = text.split("## ✅")[0]
    assert "Fixing tests/test_x.py" in in_progress and "`pytest -q tests/`" in in_progress
    assert "> Model: claude-sonnet-4-5-20250929 | Context: 160,000/200,000 (80%, recorded)" in text
    assert "`src/mod0.py` — modified; functions: fn0" in text
    assert "Bash `pytest -q tests/` failed" in text
    log = (root / "memory" / "2026-05-25.md").read_text()
    assert "### Session Relay Auto-Save (13:18)" in log and "- Context at 80%" in log
    everything = all_text(root)
    for secret in [*SECRETS, "hunter2secret"]:
        assert secret not in everything
    assert result.secrets_removed >= 2


def test_critical_zone_warns_and_warm_zone_merges(root: Path, home: Path) -> None:
    ws = Workspace(root)
    warm = put(home, root, session(root, "w", used=130_000), 1000)  # 65 %
    snapshot(ws, SnapshotNotes(in_progress="first", decisions=["Decision A"]), transcript=warm)
    result = snapshot(
        ws, SnapshotNotes(in_progress="second", decisions=["Decision B"]), transcript=warm
    )
    assert result.mode == "incremental" and not result.heartbeat_added
    text = (root / "memory" / "relay-snapshot.md").read_text()
    assert "Decision A" in text and "Decision B" in text  # merged, nothing lost
    assert "second" in text and "first" not in text.split("## ✅")[0]
    hot = put(home, root, session(root, "c", used=180_000), 2000)  # 90 %
    critical = snapshot(ws, SnapshotNotes(in_progress="x"), transcript=hot)
    assert critical.mode == "full" and critical.warning and "90%" in critical.warning
    # Overwritten, but the decisions the new save did not restate are carried, marked.
    after = (root / "memory" / "relay-snapshot.md").read_text()
    assert "- Decision A (carried over)" in after and "- Decision B (carried over)" in after
    assert "first" not in after and "second" not in after.split("## ✅")[0]


def test_short_session_writes_nothing_unless_forced(root: Path, home: Path) -> None:
    w = ClaudeWriter(session="tiny", cwd=str(root))
    w.user("hi")
    w.assistant("hello")
    path = put(home, root, w, 1000)
    result = snapshot(Workspace(root), SnapshotNotes(), transcript=path)
    assert not result.written and "very short session" in (result.skipped_reason or "")
    assert not (root / "memory").exists()
    assert snapshot(Workspace(root), SnapshotNotes(), transcript=path, force=True).written


def test_size_target_cuts_completed_first(root: Path, home: Path) -> None:
    path = put(home, root, session(root, "big"), 1000)
    notes = SnapshotNotes(
        in_progress="Working",
        completed=[f"finished item number {n} " + "word " * 30 for n in range(120)],
        decisions=["keep me"],
    )
    result = snapshot(Workspace(root), notes, transcript=path)
    text = (root / "memory" / "relay-snapshot.md").read_text()
    assert count_words(text) <= 2000 and "keep me" in text
    assert any("cut" in note and "Completed" in note for note in result.notes)
    log = (root / "memory" / "2026-05-25.md").read_text()
    assert "finished item number 119" in log  # the daily log keeps what the snapshot cut


def test_restore_merges_tails_and_snapshot_removes_heartbeat_archives(
    root: Path, home: Path
) -> None:
    ws = Workspace(root)
    old = put(home, root, session(root, "old", used=160_000), 1000)
    snapshot(
        ws,
        SnapshotNotes(in_progress="Halfway through the parser", pending=["Write docs"]),
        transcript=old,
    )
    (root / "HEARTBEAT.md").write_text("- check mail\n" + heartbeat.HEARTBEAT_LINE + "\n")
    result = restore(ws)
    assert "**[User]** old request 5" in result.text and "Halfway through the parser" in result.text
    assert "- Pending: Write docs" in result.text
    assert result.heartbeat_removed and (root / "HEARTBEAT.md").read_text() == "- check mail\n"
    assert result.archived_to is not None and result.archived_to.name == "2026-05-25-131800.md"
    assert not (root / "memory" / "relay-snapshot.md").exists()
    assert result.archived_to.read_text().startswith("# Session Relay Snapshot")


def test_fresh_start_and_corrupt_snapshot(root: Path, home: Path) -> None:
    ws = Workspace(root)
    memory = root / "memory"
    memory.mkdir()
    (memory / "relay-snapshot.md").write_bytes(b"\xff\xfe not a snapshot")
    result = restore(ws, keep=True)
    assert not result.snapshot_found  # corrupt: treated as no snapshot, nothing lost
    assert (memory / "relay-snapshot.md").read_bytes() == b"\xff\xfe not a snapshot"
    fresh = restore(ws, fresh=True)
    assert fresh.archived_to is not None and fresh.archived_to.read_bytes().startswith(b"\xff\xfe")


def test_archive_never_overwrites_and_heartbeat_file_goes_when_empty(root: Path) -> None:
    store = Store(Workspace(root))
    from workmem.clock import now

    names = []
    for n in range(3):
        (root / "memory").mkdir(exist_ok=True)
        (root / "memory" / "relay-snapshot.md").write_text(f"# Session Relay Snapshot {n}\n")
        target = archive_snapshot(store, now())
        assert target is not None
        names.append(target.name)
    assert names == ["2026-05-25-131800.md", "2026-05-25-131800-2.md", "2026-05-25-131800-3.md"]
    assert archive_snapshot(store, now()) is None
    assert heartbeat.add_line(store) and not heartbeat.add_line(store)
    assert heartbeat.remove_line(store) and not (root / "HEARTBEAT.md").exists()
    assert not heartbeat.remove_line(store)


def test_status_apply_saves_once_per_zone_step(root: Path, home: Path) -> None:
    ws = Workspace(root)
    path = put(home, root, session(root, "s", used=130_000), 1000)
    report = status(ws, transcript=path, apply=True)
    assert report.zone is not None and report.zone.name == "warm"
    assert report.action is not None and report.action.written
    again = status(ws, transcript=path, apply=True)
    assert again.action is None  # no growth since the last save
    w = session(root, "s", used=130_000)
    w.assistant("more", usage={"input_tokens": 172_000, "output_tokens": 1})
    w.write(path)  # the transcript grows by appending, as agents write it
    critical = status(ws, transcript=path, apply=True)
    assert critical.action is not None and critical.warning and critical.heartbeat


def test_cli_snapshot_from_stdin_and_status_json(
    root: Path, home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    put(home, root, session(root, "cli", used=40_000), 1000)
    import io

    monkeypatch.setattr(
        "sys.stdin",
        io.StringIO(
            "## In Progress\nRefactoring the board\n\n## Gotchas\n- flock is per open file\n"
        ),
    )
    code, out, _ = run_cli(capsys, MOD, "relay", "snapshot", "--from-file", "-", "--json")
    payload = json.loads(out)
    assert code == 0 and payload["written"] and payload["zone"]["name"] == "none"
    text = (root / "memory" / "relay-snapshot.md").read_text()
    assert "Refactoring the board" in text and "- flock is per open file" in text
    code, out, _ = run_cli(capsys, MOD, "relay", "status", "--json")
    assert code == 0 and json.loads(out)["usage"]["used_tokens"] == 40_000
    code, out, _ = run_cli(capsys, MOD, "relay", "archive")
    assert code == 0 and "relay-archive/2026-05-25-131800.md" in out


def test_relay_on_the_real_claude_fixture(root: Path, home: Path, fixtures: Path) -> None:
    source = fixtures / "claude-code" / "ccviewer-1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl"
    shutil.copy(source, claude_project(home, root) / "1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl")
    ws = Workspace(root)
    result = snapshot(ws, SnapshotNotes(in_progress="Writing CLAUDE.md"), force=True)
    text = (root / "memory" / "relay-snapshot.md").read_text()
    assert result.written and result.usage is not None and result.usage.used_tokens == 17437
    assert "- Create CLAUDE.md with essential information" in text  # from the TodoWrite plan
    assert "`ls -la`" in text and "Write `CLAUDE.md` failed" in text
    assert "`CLAUDE.md` —" not in text  # the write was refused: not a working file
    restored = restore(ws)
    assert "**[User]** /init" in restored.text and "Writing CLAUDE.md" in restored.text
