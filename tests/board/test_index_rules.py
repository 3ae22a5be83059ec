"""The board file, its transactions, the issued-ID record and the note of an interrupted
change, rule by rule (in one process; the real kills are in ``test_interrupted``).

Written against mutation testing (docs/mutation.md): each test pins a rule of
``board/index.py``, ``intent.py``, ``issued.py``, ``context.py`` or ``repair.py`` that a
small change used to break with the whole suite passing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workmem.board import Board
from workmem.board.context import BoardContext
from workmem.board.index import INTENT_NAME, BoardEdit, empty_board, neutral_row
from workmem.board.intent import Intent, digest, read_intent
from workmem.board.issued import RECORD_NAME, issued_ids, record_issued
from workmem.board.model import COLUMNS, BoardRow
from workmem.board.repair import repair_board
from workmem.doctor import DoctorReport
from workmem.errors import NotFoundError, UsageError, WriteError
from workmem.files.tables import TableDocument, format_row, format_separator
from workmem.files.text import PLAIN

A = "2026-05-01-0900-cursor-main-agent"
B = "2026-05-02-0900-cursor-main-agent"


def values(sid: str, topic: str = "T", status: str = "active", refs: str = "-") -> list[str]:
    return [sid, "cursor-main-agent", topic, "S", "k", status, refs, "t1", "t2"]


def board_text(*rows: list[str]) -> str:
    lines = ["# Memory Index", "", format_row(COLUMNS), format_separator(len(COLUMNS))]
    return "\n".join([*lines, *(format_row(r) for r in rows)]) + "\n"


def write_board(root: Path, *rows: list[str]) -> Path:
    path = root / "memory" / "index.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(board_text(*rows))
    return path


def rows(root: Path) -> dict[str, dict[str, str]]:
    doc = TableDocument.parse((root / "memory" / "index.md").read_text())
    return {r["Session ID"]: r for r in doc.records()}


# -- BoardEdit ------------------------------------------------------------------------------


def edit_of(*rows: list[str]) -> BoardEdit:
    return BoardEdit(TableDocument.parse(board_text(*rows)), PLAIN)


def test_an_edit_reads_rows_by_id_and_the_first_of_a_duplicate_wins() -> None:
    edit = edit_of(values(A, "first"), values(B), values(A, "second"))
    assert edit.ids() == {A, B}
    found = edit.get(A)
    assert found is not None and found.topic == "first"
    assert edit.get("missing") is None
    assert [r.topic for r in edit.rows()] == ["first", "T", "second"]
    assert not edit.changed


def test_require_names_the_board_file() -> None:
    with pytest.raises(NotFoundError) as info:
        edit_of().require(A)
    assert str(info.value) == f"session {A} is not on the board (memory/index.md)"


def test_put_changes_only_the_cells_that_changed() -> None:
    text = board_text(values(A)).replace("| T |", "|  T  |")
    edit = BoardEdit(TableDocument.parse(text), PLAIN)
    row = edit.require(A)
    edit.put(row)  # no value changed: the row's odd spacing stays
    assert edit.finish() == text
    row.summary = "New"
    edit.put(row)
    assert f"| {A} | cursor-main-agent | T | New | k |" in edit.finish()
    assert edit.changed
    assert edit.intended_rows() == {A: row.values()}


def test_removed_rows_leave_at_finish_and_are_expected_gone() -> None:
    edit = edit_of(values(A), values(B))
    gone = edit.remove(A)
    assert gone.session_id == A
    assert [r.session_id for r in edit.rows()] == [B]
    assert edit.ids() == {B}
    assert edit.intended_rows() == {A: None}
    text = edit.finish()
    assert A not in text and B in text
    assert edit.finish() == text  # finishing again changes nothing


def test_appended_rows_are_neutralised_free_text() -> None:
    edit = edit_of()
    row = BoardRow(A, "cursor-main-agent", "## Topic", "---", "<!-- k", "active", "-", "t", "t")
    edit.append(row)
    assert (row.topic, row.summary, row.keywords) == ("\\## Topic", "\\---", "<\\!-- k")
    assert edit.get(A) == row
    assert edit.intended_rows() == {A: row.values()}


def test_neutral_row_leaves_neutral_text_alone() -> None:
    row = BoardRow(A, "a", "Topic", "Sum", "k", "active", "-", "t", "t")
    assert neutral_row(row) is row
    assert row.values() == [A, "a", "Topic", "Sum", "k", "active", "-", "t", "t"]


def test_an_empty_board_has_the_title_and_the_columns() -> None:
    board = empty_board()
    assert board.render() == "# Memory Index\n\n" + format_row(COLUMNS) + "\n" + (
        format_separator(len(COLUMNS)) + "\n"
    )


# -- transactions ---------------------------------------------------------------------------


def test_a_blank_board_file_is_an_empty_board_in_its_own_style(root: Path) -> None:
    path = root / "memory" / "index.md"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\xef\xbb\xbf\r\n")
    sid = Board().start().session_id
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf# Memory Index\r\n\r\n| Session ID |")
    assert sid.encode() in data


def test_a_transaction_that_changes_nothing_writes_nothing(root: Path) -> None:
    path = write_board(root, values(A))
    before = path.stat().st_mtime_ns
    ctx = BoardContext.open()
    with ctx.index.transaction() as board:
        board.get(A)
    assert path.stat().st_mtime_ns == before
    assert not (root / "memory" / ".workmem" / INTENT_NAME).exists()


def test_a_failed_transaction_runs_every_undo_in_reverse(root: Path) -> None:
    write_board(root, values(A))
    ctx = BoardContext.open()
    order: list[int] = []
    with pytest.raises(RuntimeError), ctx.index.transaction() as board:
        board.on_rollback(lambda: order.append(1))
        board.on_rollback(lambda: order.append(2))
        raise RuntimeError("stop")
    assert order == [2, 1]


def test_verification_catches_a_row_that_did_not_land(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_board(root, values(A))
    before = path.read_bytes()
    ctx = BoardContext.open()
    real_finish = BoardEdit.finish

    def wrong(self: BoardEdit) -> str:
        return real_finish(self).replace("Changed", "Other")

    monkeypatch.setattr(BoardEdit, "finish", wrong)
    with pytest.raises(WriteError) as info, ctx.index.transaction() as board:
        row = board.require(A)
        row.topic = "Changed"
        board.put(row)
    assert str(info.value) == f"verification failed: row {A} does not hold the intended values"
    assert path.read_bytes() == before


def test_verification_catches_a_removed_row_still_there(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_board(root, values(A), values(B))
    before = path.read_bytes()
    ctx = BoardContext.open()
    monkeypatch.setattr(BoardEdit, "finish", lambda self: self.doc.render())
    with pytest.raises(WriteError) as info, ctx.index.transaction() as board:
        board.remove(A)
    assert str(info.value) == f"verification failed: {A} is still on the board"
    assert path.read_bytes() == before


def test_verification_reads_rows_whose_id_was_escaped(root: Path) -> None:
    write_board(root)
    ctx = BoardContext.open()
    odd = "odd|id"
    with ctx.index.transaction() as board:
        board.append(BoardRow(odd, "a", "T", "S", "k", "active", "-", "t", "t"))
    assert odd in rows(root)


def test_verification_of_many_rows_reads_every_line(root: Path) -> None:
    write_board(root)
    ctx = BoardContext.open()
    ids = [f"2026-05-{day:02d}-0900-cursor-main-agent" for day in range(1, 20)]
    with ctx.index.transaction() as board:
        for sid in ids:
            board.append(BoardRow(*values(sid)))
    assert list(rows(root)) == ids


def test_a_duplicated_row_fails_verification(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_board(root, values(A))
    ctx = BoardContext.open()
    real_finish = BoardEdit.finish

    def doubled(self: BoardEdit) -> str:
        text = real_finish(self)
        line = next(line for line in text.split("\n") if line.startswith(f"| {A} "))
        return text + line + "\n"

    monkeypatch.setattr(BoardEdit, "finish", doubled)
    with (
        pytest.raises(WriteError, match="does not hold the intended values"),
        ctx.index.transaction() as board,
    ):
        row = board.require(A)
        row.topic = "X"
        board.put(row)


# -- the note of an interrupted change ------------------------------------------------------


def test_an_intent_round_trips_through_json() -> None:
    intent = Intent(files=[("memory/sessions/a.md", "ab")], rows={A: values(A), B: None}, pid=7)
    text = intent.to_json()
    assert text.endswith("\n")
    assert json.loads(text) == {
        "pid": 7,
        "files": [["memory/sessions/a.md", "ab"]],
        "rows": {A: values(A), B: None},
    }
    back = Intent.from_json(text)
    assert (back.files, back.rows, back.pid) == (intent.files, intent.rows, 7)
    assert Intent.from_json('{"files": [], "rows": {}}').pid == 0


@pytest.mark.parametrize(
    "text, reason",
    [
        ('{"rows": {}}', "'files'"),
        ('{"files": [], "rows": {"a": ["a"]}}', "row a does not have the board's columns"),
        (
            json.dumps({"files": [], "rows": {A: values(B)}}),
            f"row {A} does not have the board's columns",
        ),
        ('{"files": [["a"]], "rows": {}}', "not enough values"),
        ('{"files": [], "rows": []}', "'list' object has no attribute 'items'"),
        ('{"files": [], "rows": {}, "pid": "x"}', "invalid literal"),
        ("[1]", "list indices must be integers"),
        ("{", "Expecting property name"),
    ],
)
def test_an_untrustworthy_note_is_refused_with_the_reason(text: str, reason: str) -> None:
    with pytest.raises(UsageError) as info:
        Intent.from_json(text)
    assert str(info.value).startswith("unreadable note of an interrupted board change: ")
    assert reason in str(info.value)


def test_a_note_naming_an_unsafe_id_is_refused() -> None:
    with pytest.raises(UsageError, match=r"^invalid session ID '\.\./x'"):
        Intent.from_json('{"files": [], "rows": {"../x": null}}')


def test_values_of_a_note_are_read_as_text() -> None:
    row = [A, 1, 2, 3, 4, 5, 6, 7, 8]
    intent = Intent.from_json(json.dumps({"files": [[1, 2]], "rows": {A: row}}))
    assert intent.files == [("1", "2")]
    assert intent.rows[A] == [A, "1", "2", "3", "4", "5", "6", "7", "8"]


def test_a_note_landed_when_any_file_holds_its_new_content(root: Path) -> None:
    ctx = BoardContext.open()
    (root / "memory").mkdir()
    (root / "memory" / "a.md").write_bytes(b"new")
    (root / "memory" / "b.md").write_bytes(b"other")
    landed = Intent(
        files=[("memory/b.md", digest(b"new")), ("memory/a.md", digest(b"new"))], rows={}
    )
    assert landed.landed(ctx.workspace)
    not_yet = Intent(files=[("memory/a.md", digest(b"old")), ("memory/c.md", digest(b""))], rows={})
    assert not not_yet.landed(ctx.workspace)
    (root / "memory" / "dir.md").mkdir()
    assert not Intent(files=[("memory/dir.md", digest(b""))], rows={}).landed(ctx.workspace)


def test_a_note_that_is_not_text_is_unreadable(root: Path) -> None:
    ctx = BoardContext.open()
    assert read_intent(ctx.store) is None
    path = root / "memory" / ".workmem" / INTENT_NAME
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\xff")
    with pytest.raises(UsageError) as info:
        read_intent(ctx.store)
    assert str(info.value).startswith("unreadable note of an interrupted board change: ")
    assert "not valid UTF-8" in str(info.value)


def test_finishing_an_interrupted_change_reports_what_it_did(root: Path) -> None:
    write_board(root, values(A), values(B))
    (root / "memory" / "sessions").mkdir()
    snap = root / "memory" / "sessions" / f"{A}.md"
    snap.write_bytes(b"snapshot")
    note = root / "memory" / ".workmem" / INTENT_NAME
    note.parent.mkdir(parents=True)
    ctx = BoardContext.open()
    assert ctx.index.finish_interrupted() is None

    wanted = values(A, topic="Completed")
    note.write_text(
        Intent([(f"memory/sessions/{A}.md", digest(b"snapshot"))], {A: wanted, B: None}).to_json()
    )
    assert ctx.index.pending_intent() is not None
    assert ctx.index.finish_interrupted() == "completed"
    assert rows(root)[A]["Topic"] == "Completed" and B not in rows(root)
    assert not note.exists()
    assert ctx.index.pending_intent() is None

    note.write_text(Intent([(f"memory/sessions/{A}.md", digest(b"x"))], {A: None}).to_json())
    assert ctx.index.finish_interrupted() == "dropped"
    assert A in rows(root) and not note.exists()

    note.write_text("{broken")
    assert ctx.index.finish_interrupted() == "unreadable"
    assert not note.exists()


def test_completing_adds_a_row_that_never_reached_the_board(root: Path) -> None:
    write_board(root, values(A))
    (root / "memory" / "sessions").mkdir()
    (root / "memory" / "sessions" / f"{B}.md").write_bytes(b"s")
    note = root / "memory" / ".workmem" / INTENT_NAME
    note.parent.mkdir(parents=True)
    note.write_text(
        Intent([(f"memory/sessions/{B}.md", digest(b"s"))], {B: values(B), A: values(A)}).to_json()
    )
    before = (root / "memory" / "index.md").read_text()
    Board().list()  # a read finishes nothing
    assert (root / "memory" / "index.md").read_text() == before
    Board().start()  # the next transaction completes it
    assert list(rows(root))[:2] == [A, B]
    assert rows(root)[A] == dict(zip(COLUMNS, values(A), strict=True))


def test_a_transaction_that_writes_beside_the_board_leaves_no_note_when_done(
    root: Path,
) -> None:
    board = Board()
    sid = board.register(topic="T").session_id
    assert not (root / "memory" / ".workmem" / INTENT_NAME).exists()
    board.update(sid, sections={"Decisions": "x"})
    assert not (root / "memory" / ".workmem" / INTENT_NAME).exists()


def test_the_note_records_the_rows_before_the_file_is_written(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from workmem.board import index as board_index

    seen: list[dict[str, object]] = []

    def look() -> None:
        seen.append(json.loads((root / "memory" / ".workmem" / INTENT_NAME).read_text()))

    monkeypatch.setattr(board_index, "between_writes", look)
    sid = Board().register(topic="Noted").session_id
    assert len(seen) == 1
    assert seen[0]["files"] == [
        [
            f"memory/sessions/{sid}.md",
            digest((root / "memory" / "sessions" / f"{sid}.md").read_bytes()),
        ]
    ]
    noted = seen[0]["rows"]
    assert isinstance(noted, dict) and noted[sid][2] == "Noted"


# -- the issued-ID record -------------------------------------------------------------------


def test_the_record_starts_with_its_header_and_adds_each_id_once(root: Path) -> None:
    ctx = BoardContext.open()
    (root / "memory").mkdir()
    path = root / "memory" / ".workmem" / RECORD_NAME
    assert issued_ids(ctx.store) == set()
    record_issued(ctx.store, A)
    record_issued(ctx.store, A)
    record_issued(ctx.store, B)
    assert path.read_text() == (
        "# Session IDs issued in this memory root, one a line. workmem never issues one of\n"
        "# them again, even after organize or archive removed its row. Keep this file.\n"
        f"{A}\n{B}\n"
    )
    assert issued_ids(ctx.store) == {A, B}


def test_a_record_with_only_a_header_gets_a_newline_before_the_next_id(root: Path) -> None:
    ctx = BoardContext.open()
    path = root / "memory" / ".workmem" / RECORD_NAME
    path.parent.mkdir(parents=True)
    path.write_text("# mine")
    record_issued(ctx.store, A)
    assert path.read_text() == f"# mine\n{A}\n"
    assert issued_ids(ctx.store) == {A}


def test_a_record_that_does_not_verify_is_an_error(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from workmem.board import issued

    ctx = BoardContext.open()
    (root / "memory").mkdir()
    monkeypatch.setattr(issued, "_ids", lambda text: set())
    with pytest.raises(WriteError) as info:
        record_issued(ctx.store, A)
    assert str(info.value) == f"the record of issued session IDs does not hold {A}"


# -- context and repair ---------------------------------------------------------------------


def test_the_context_knows_snapshots_by_one_listing(root: Path) -> None:
    ctx = BoardContext.open()
    assert ctx.snapshot_ids() == set()
    sessions = root / "memory" / "sessions"
    sessions.mkdir(parents=True)
    (sessions / f"{A}.md").write_text("x")
    (sessions / f"{B}.notes.md").write_text("x")
    (sessions / "other.txt").write_text("x")
    assert ctx.snapshot_ids() == {A}
    assert ctx.has_snapshot(A) and not ctx.has_snapshot(B)
    assert ctx.snapshot_text(A) == "x"
    assert ctx.snapshot_text(B) is None


def test_the_agent_name_comes_from_the_call_then_settings_then_the_platform(root: Path) -> None:
    assert BoardContext.open().agent_name() == "cursor-main-agent"
    assert BoardContext.open(platform="codex").agent_name() == "codex-main-agent"
    assert BoardContext.open().agent_name("mine") == "mine"
    (root / "workmem.toml").write_text('agent_name = "team-agent"\n')
    assert BoardContext.open().agent_name() == "team-agent"
    with pytest.raises(UsageError):
        BoardContext.open().agent_name("Bad Name")


def test_a_snapshot_keeps_its_style_when_rewritten(root: Path) -> None:
    board = Board()
    sid = board.register(topic="T").session_id
    path = root / "memory" / "sessions" / f"{sid}.md"
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    board.update(sid, sections={"Decisions": "Keep CRLF"})
    data = path.read_bytes()
    assert b"- Keep CRLF\r\n" in data
    assert data.count(b"\n") == data.count(b"\r\n")


def test_repair_reports_each_outcome_and_stops_quietly_on_a_broken_board(root: Path) -> None:
    write_board(root, values(A))
    note = root / "memory" / ".workmem" / INTENT_NAME
    note.parent.mkdir(parents=True)
    note.write_text("{broken")
    report = DoctorReport(fix=True)
    repair_board(BoardContext.open(), report)
    assert report.repairs == ["removed an unreadable note of an interrupted board change"]
    note.write_text(Intent([("memory/x.md", digest(b"never"))], {A: None}).to_json())
    report = DoctorReport(fix=True)
    repair_board(BoardContext.open(), report)
    assert report.repairs == [
        "removed the note of a board change that was stopped before it wrote anything"
    ]
    (root / "memory" / "index.md").write_text("| broken |\n|---|\n| a | b |\n")
    report = DoctorReport(fix=True)
    repair_board(BoardContext.open(), report)
    assert report.repairs == [] and report.findings == []


def test_repair_completes_only_references_to_other_rows_on_the_board(root: Path) -> None:
    ghost = "2026-01-01-0000-ghost"
    write_board(root, values(A), values(B))
    sessions = root / "memory" / "sessions"
    sessions.mkdir(parents=True)
    for sid, sources in ((A, [A, ghost]), (B, [A])):
        body = "\n".join(f"- {s}" for s in sources)
        (sessions / f"{sid}.md").write_text(
            f"# Session: {sid}\n\n## Metadata\n\n| Field | Value |\n|---|---|\n\n"
            f"## Continues From\n\n{body}\n"
        )
    report = DoctorReport(fix=True)
    repair_board(BoardContext.open(), report)
    assert report.repairs == [f"{A} Referenced By now lists {B}, whose snapshot continues from it"]
    assert rows(root)[A]["Referenced By"] == B
    again = DoctorReport(fix=True)
    repair_board(BoardContext.open(), again)
    assert again.repairs == []


def test_a_note_landed_even_when_an_earlier_file_is_outside_the_root(root: Path) -> None:
    ctx = BoardContext.open()
    (root / "memory").mkdir()
    (root / "memory" / "a.md").write_bytes(b"new")
    intent = Intent(
        files=[("../outside.md", digest(b"x")), ("memory/a.md", digest(b"new"))], rows={}
    )
    assert intent.landed(ctx.workspace)


def test_repair_goes_on_past_rows_and_sources_it_skips(root: Path) -> None:
    ghost = "2026-01-01-0000-ghost"
    c = "2026-05-03-0900-cursor-main-agent"
    write_board(root, values(c), values(A), values(B))  # c has no snapshot
    sessions = root / "memory" / "sessions"
    sessions.mkdir(parents=True)
    for sid, sources in ((A, []), (B, [ghost, B, A])):
        body = "\n".join(f"- {s}" for s in sources) or "None"
        (sessions / f"{sid}.md").write_text(
            f"# Session: {sid}\n\n## Metadata\n\n| Field | Value |\n|---|---|\n\n"
            f"## Continues From\n\n{body}\n"
        )
    report = DoctorReport(fix=True)
    repair_board(BoardContext.open(), report)
    assert report.repairs == [f"{A} Referenced By now lists {B}, whose snapshot continues from it"]
