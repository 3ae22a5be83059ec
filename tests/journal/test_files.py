"""Daily logs, the log index, state.json and the phase budgets, each on its own."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from workmem.errors import FormatError
from workmem.files.store import Store
from workmem.journal.budget import PhaseText
from workmem.journal.daily import append_entry, daily_log_path, digest, list_logs
from workmem.journal.log_index import COLUMNS, rebuild, update_days
from workmem.journal.state import parse_state
from workmem.retrieval.tokens import count_tokens
from workmem.root import Workspace


def test_append_entry_keeps_the_seed_format_and_never_rewrites(root: Path) -> None:
    store = Store(Workspace(root))
    day = date(2026, 5, 25)
    path = append_entry(store, day, "Relay save", "context at 62 %")
    assert path == daily_log_path(store.workspace, day)
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))  # edited on Windows
    append_entry(store, day, "Session 1 · 13:18 · me", "**Summary:** done")
    text = path.read_bytes().decode("utf-8")
    assert text == (
        "# 2026-05-25\r\n\r\n### Relay save\r\n\r\ncontext at 62 %\r\n"
        "\r\n### Session 1 · 13:18 · me\r\n\r\n**Summary:** done\r\n"
    )


def test_only_real_dates_are_daily_logs(root: Path) -> None:
    memory = root / "memory"
    (memory / "daily").mkdir(parents=True)
    for name in ("2026-05-20.md", "2026-02-30.md", "2026-05-21.txt", "notes.md", "2026-5-1.md"):
        (memory / name).write_text("x", "utf-8")
    (memory / "daily" / "2026-05-19.md").write_text("mirror", "utf-8")
    assert [log.day for log in list_logs(Workspace(root))] == [date(2026, 5, 20)]


@pytest.mark.parametrize(
    "text, summary, sessions",
    [
        ("# 2026-05-20\n\n### Session 2 · 10:00 · a\n\n**Summary:** Did A\n", "Did A", 1),
        ("# d\n\n## Summary\n\nShipped the beta.\n\n## Notes\n- x\n", "Shipped the beta.", 1),
        ("Plain first paragraph\nstill it.\n\nSecond one.\n", "Plain first paragraph still it.", 1),
        ("# d\n\n## 09:30 standup\n\nok\n\n## 14:00 review\n\nfine\n", "ok", 2),
        ("", "", 0),
    ],
)
def test_digest_reads_whatever_shape_it_finds(text: str, summary: str, sessions: int) -> None:
    found = digest(text)
    assert found.summary == summary
    assert found.sessions == sessions


def test_log_index_rows_newest_first_and_hand_notes_kept(root: Path) -> None:
    store = Store(Workspace(root))
    for day in (date(2026, 5, 20), date(2026, 5, 22), date(2026, 5, 21)):
        append_entry(
            store, day, "Session 1 · 09:00 · a", f"**Summary:** work of {day} [ref: thread-x]"
        )
    result = rebuild(store, store.workspace)
    assert result.rows == 3
    index = root / "memory" / "log-index.md"
    index.write_text(index.read_text("utf-8") + "\nMy own note under the table.\n", "utf-8")
    append_entry(store, date(2026, 5, 22), "Session 2 · 11:00 · b", "**Summary:** more")
    update_days(store, store.workspace, [date(2026, 5, 22)])
    text = index.read_text("utf-8")
    rows = [line for line in text.split("\n") if line.startswith("| 2026")]
    assert [r[2:12] for r in rows] == ["2026-05-22", "2026-05-21", "2026-05-20"]
    assert rows[0].startswith(
        "| 2026-05-22 | 2 | work of 2026-05-22 [ref: thread-x] / more | thread-x |"
    )
    assert "My own note under the table." in text


def test_log_index_with_a_foreign_table_is_refused(root: Path) -> None:
    store = Store(Workspace(root))
    append_entry(store, date(2026, 5, 20), "S", "**Summary:** a")
    index = root / "memory" / "log-index.md"
    index.write_text("| Day | What |\n|---|---|\n| x | y |\n", "utf-8")
    with pytest.raises(FormatError, match="expected"):
        rebuild(store, store.workspace)
    assert index.read_text("utf-8") == "| Day | What |\n|---|---|\n| x | y |\n"
    assert "Date" in COLUMNS


def test_state_is_read_tolerantly_where_the_meaning_is_clear() -> None:
    state = parse_state(
        json.dumps({"session_count": "12", "flags": {"memory_review_due": True}, "mine": [1]})
    )
    assert state.session_count == 12 and state.flag("memory_review_due")
    assert json.loads(state.render())["mine"] == [1]  # unknown keys kept
    for bad in ('{"session_count": -1}', '{"flags": []}', "[]", '{"open_sessions": {"k": 1}}'):
        with pytest.raises(FormatError):
            parse_state(bad)
    with pytest.raises(FormatError) as caught:
        parse_state('{\n"a": 1,\n}')
    assert caught.value.line == 3


def test_phase_lists_stop_at_the_cap_and_say_what_was_left_out() -> None:
    phase = PhaseText("context", 60, count_tokens)
    items = [
        (f"event:{i}", f"- 2026-03-{i:02d} · purchase: bought thing number {i}")
        for i in range(1, 30)
    ]
    loaded = phase.add_list("## Events", items, what="events")
    assert 0 < loaded < len(items)
    assert phase.tokens <= 60
    assert count_tokens(phase.text()) <= 60
    assert f"… {len(items) - loaded} more events omitted (token budget)" in phase.text()
    assert phase.omitted == [k for k, _ in items[loaded:]]


def test_one_huge_block_is_clipped_not_dropped() -> None:
    phase = PhaseText("anchor", 50, count_tokens)
    note = "\n".join(f"Line {i} of a very long resumption note." for i in range(200))
    assert phase.add_clipped("resumption", note)
    assert phase.tokens <= 50
    assert phase.text().startswith("Line 0 of a very long")
    assert "cut to fit the budget" in phase.text()


def test_cjk_text_is_budgeted_by_characters_not_chars_over_four() -> None:
    phase = PhaseText("anchor", 30, count_tokens)
    assert not phase.add(
        "zh", "我們決定把認證流程改成短期存取權杖加上長期更新權杖，下次先寫測試。" * 3
    )
    assert phase.add_clipped("zh", "我們決定把認證流程改成短期存取權杖。\n下次先寫測試。\n" * 5)
    assert count_tokens(phase.text()) <= 30
