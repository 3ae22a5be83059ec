"""The board side of a continuation rule by rule: which items of a Continues From an
update accepts as sources, and who references whom.

Written against mutation testing (docs/mutation.md): each test pins a rule of
``board/references.py`` that a small change used to break with the whole suite passing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from workmem.board import Board
from workmem.board.context import BoardContext
from workmem.board.references import inbound_references
from workmem.board.snapshot import continues_from
from workmem.errors import UsageError
from workmem.files.tables import TableDocument


def referenced_by(root: Path) -> dict[str, str]:
    doc = TableDocument.parse((root / "memory" / "index.md").read_text())
    return {r["Session ID"]: r["Referenced By"] for r in doc.records()}


def sources_of(root: Path, sid: str) -> list[str]:
    return continues_from((root / "memory" / "sessions" / f"{sid}.md").read_text())


def test_an_update_takes_bulleted_sources_and_skips_placeholders(root: Path) -> None:
    board = Board()
    first = board.register(topic="First").session_id
    second = board.register(topic="Second", agent_name="second-agent").session_id
    sid = board.register(topic="Current", agent_name="third-agent").session_id
    board.update(sid, sections={"Continues From": f"None\n- {first}\n* {second}\n- {first}"})
    refs = referenced_by(root)
    assert refs[first] == sid
    assert refs[second] == sid
    assert sources_of(root, sid) == [first, second]
    assert board.doctor().healthy


def test_a_source_in_a_code_span_with_spaces_is_accepted(root: Path) -> None:
    board = Board()
    source = board.register(topic="Source").session_id
    sid = board.register(topic="Current", agent_name="other-agent").session_id
    board.update(sid, sections={"Continues From": f"` {source} ` (the auth work)"})
    assert referenced_by(root)[source] == sid
    assert sources_of(root, sid) == [source]
    assert board.doctor().healthy


@pytest.mark.parametrize("written", ["X{source}", "{source}X", "`{source}`X"])
def test_letters_around_a_source_are_part_of_it_and_refused(root: Path, written: str) -> None:
    board = Board()
    source = board.register(topic="Source").session_id
    sid = board.register(topic="Current", agent_name="other-agent").session_id
    token = written.format(source=source).strip("`").split()[0].strip("`")
    with pytest.raises(UsageError) as info:
        board.update(sid, sections={"Continues From": written.format(source=source)})
    assert str(info.value) == (
        f"invalid session ID {token!r}: use lowercase letters, digits and single '-' only "
        "(like 2026-05-25-1318-cursor-main-agent); nothing was written"
    )
    assert referenced_by(root)[source] == "-"


def test_an_update_cannot_make_a_session_continue_from_itself(root: Path) -> None:
    board = Board()
    sid = board.register(topic="Current").session_id
    before = (root / "memory" / "sessions" / f"{sid}.md").read_text()
    with pytest.raises(UsageError) as info:
        board.update(sid, sections={"Continues From": sid})
    assert str(info.value) == "a session cannot continue from itself"
    assert (root / "memory" / "sessions" / f"{sid}.md").read_text() == before


def test_inbound_references_read_every_snapshot_after_a_row_without_one(root: Path) -> None:
    board = Board()
    source = board.register(topic="Source").session_id
    idle = board.start(agent_name="idle-agent").session_id
    follower = board.continue_from(source).session_id
    ctx = BoardContext.open()
    index = root / "memory" / "index.md"
    # Only the snapshot side is left, and the row without a snapshot comes first.
    index.write_text(index.read_text().replace(f"| {follower} |", "| - |", 1))
    rows = {row.session_id: row for row in ctx.index.read().rows()}
    ordered = [rows[idle], rows[source], rows[follower]]
    inbound = inbound_references(ctx, ordered, snapshots={source, follower})
    assert inbound == {idle: [], source: [follower], follower: []}
