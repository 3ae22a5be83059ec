"""threads.md: odd hand-made shapes are read, other threads stay byte-identical, nothing is lost."""

from __future__ import annotations

from pathlib import Path

import pytest

from workmem.errors import FormatError, UsageError, WriteError
from workmem.files.store import Store
from workmem.journal.thread_updates import ThreadUpdate, write_updates
from workmem.journal.threads import ThreadsDoc, check_thread_id
from workmem.root import Workspace

HAND_MADE = """# Threads

Notes I keep by hand. A code sample:

```
## not a thread (inside a fence)
```

## thread-auth-redesign — Auth redesign
Status: active
**Current Position:** Sessions move to JWT; refresh flow undecided.

### Key decisions
- 2026-05-01: Drop cookie sessions

### Open
- How long should refresh tokens live?
- Rotate signing keys?

### Links I collected
- https://example.org/rfc7519

## 記憶系統 設計
### 目前進度
正在寫 loader。

### 未決問題
- 要不要支援日文？

## Untitled idea
Just a line, no parts at all.
"""


def _write(root: Path, text: str, newline: str = "\n") -> Path:
    path = root / "memory" / "threads.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.replace("\n", newline).encode("utf-8"))
    return path


def test_reads_hand_made_shapes() -> None:
    doc = ThreadsDoc.parse(HAND_MADE)
    assert [t.id for t in doc.threads] == ["thread-auth-redesign", "記憶系統-設計", "untitled-idea"]
    auth = doc.threads[0]
    assert auth.name == "Auth redesign"
    assert auth.status() == "active"
    assert auth.position() == "Sessions move to JWT; refresh flow undecided."
    assert auth.part("Open Questions") is not None
    assert len(auth.part("Open Questions").items()) == 2  # type: ignore[union-attr]
    chinese = doc.threads[1]
    assert chinese.position() == "正在寫 loader。"
    assert doc.render() == HAND_MADE  # lossless


def test_update_changes_one_thread_and_keeps_the_rest_byte_identical(root: Path) -> None:
    path = _write(root, HAND_MADE)
    store = Store(Workspace(root))
    updates = {
        "thread-auth-redesign": ThreadUpdate(
            current_position="Refresh tokens live 14 days; rotation next.",
            new_open_questions=["Where to store the rotation schedule?"],
            closed_questions=["How long should refresh tokens live?"],
            new_decisions=["2026-05-25: Refresh tokens live 14 days"],
        )
    }
    changes = write_updates(store, path, updates, [], "2026-05-25 13:18 (session 3)", "2026-05-25")
    assert changes.positions["thread-auth-redesign"][0].startswith("Sessions move to JWT")
    text = path.read_text("utf-8")
    doc = ThreadsDoc.parse(text)
    auth = doc.get("thread-auth-redesign")
    assert auth is not None
    assert auth.position() == "Refresh tokens live 14 days; rotation next."
    assert auth.part("Open Questions").items() == [  # type: ignore[union-attr]
        "Rotate signing keys?",
        "Where to store the rotation schedule?",
    ]
    assert auth.part("Closed Questions").items() == [  # type: ignore[union-attr]
        "How long should refresh tokens live? (closed 2026-05-25)"
    ]
    assert "- 2026-05-01: Drop cookie sessions" in text  # old decision kept
    assert "https://example.org/rfc7519" in text  # unknown subsection kept
    assert "Last touched: 2026-05-25 13:18 (session 3)" in text
    # the other threads and the preamble are byte for byte what they were
    tail = HAND_MADE[HAND_MADE.index("## 記憶系統 設計") :]
    assert text.endswith(tail)
    assert text.startswith(HAND_MADE[: HAND_MADE.index("## thread-auth-redesign")])


def test_touching_a_new_thread_creates_it(root: Path) -> None:
    path = root / "memory" / "threads.md"
    store = Store(Workspace(root))
    changes = write_updates(
        store,
        path,
        {"thread-billing": ThreadUpdate(current_position="Invoices render.", title="Billing")},
        ["thread-billing"],
        "2026-05-25 13:18 (session 1)",
        "2026-05-25",
    )
    assert changes.created == ["thread-billing"]
    doc = ThreadsDoc.parse(path.read_text("utf-8"))
    assert doc.threads[0].heading == "## thread-billing — Billing"
    assert doc.threads[0].position() == "Invoices render."


def test_crlf_file_keeps_its_newlines(root: Path) -> None:
    path = _write(root, HAND_MADE, "\r\n")
    store = Store(Workspace(root))
    write_updates(store, path, {}, ["untitled-idea"], "2026-05-25 13:18 (session 1)", "2026-05-25")
    raw = path.read_bytes()
    assert b"\r\n" in raw and b"\n" not in raw.replace(b"\r\n", b"")
    assert "Last touched: 2026-05-25 13:18" in raw.decode("utf-8")


def test_non_utf8_threads_file_is_refused_untouched(root: Path) -> None:
    path = root / "memory" / "threads.md"
    path.parent.mkdir(parents=True)
    data = "## thread-x\n\ncaf\xe9\n".encode("latin-1")
    path.write_bytes(data)
    with pytest.raises(FormatError, match="UTF-8"):
        write_updates(Store(Workspace(root)), path, {}, ["thread-x"], "t", "2026-05-25")
    assert path.read_bytes() == data


def test_a_change_that_would_lose_a_line_is_refused(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _write(root, HAND_MADE)
    from workmem.journal import thread_updates

    real = thread_updates.apply_updates

    def lossy(doc, *args, **kwargs):  # a bug that drops a thread must not reach the disk
        changes = real(doc, *args, **kwargs)
        doc.threads.pop()
        return changes

    monkeypatch.setattr(thread_updates, "apply_updates", lossy)
    with pytest.raises(WriteError, match="would lose"):
        write_updates(Store(Workspace(root)), path, {}, ["thread-auth-redesign"], "t", "2026-05-25")
    assert path.read_text("utf-8") == HAND_MADE


@pytest.mark.parametrize("bad", ["", "../etc/passwd", "thread x", "a|b", "#heading", "x" * 200])
def test_thread_ids_are_checked(bad: str) -> None:
    with pytest.raises(UsageError):
        check_thread_id(bad)


def test_unknown_update_keys_are_refused() -> None:
    with pytest.raises(UsageError, match="unknown key"):
        ThreadUpdate.from_mapping("thread-x", {"current_postion": "typo"})
    with pytest.raises(UsageError, match="list of text"):
        ThreadUpdate.from_mapping("thread-x", {"new_open_questions": [1, 2]})


def test_a_session_end_links_the_log_and_the_thread_both_ways(root: Path) -> None:
    """Seed 004: "lightweight bidirectional refs": the log names the thread, the thread
    names the log (its Last touched line, and each decision the session added)."""
    from workmem.journal.writer import MemoryWriter

    writer = MemoryWriter(root)
    writer.end_session(
        session_summary="Auth work",
        resumption_note="Pick up the refresh flow.",
        thread_updates={
            "thread-auth": {
                "current_position": "JWT chosen; refresh flow next.",
                "new_decisions": ["Use JWT access tokens"],
            }
        },
    )
    log = (root / "memory" / "2026-05-25.md").read_text()
    assert "Use JWT access tokens [ref: thread-auth]" in log  # log -> thread
    thread = ThreadsDoc.parse((root / "memory" / "threads.md").read_text()).get("thread-auth")
    assert thread is not None
    text = "\n".join(thread.lines())
    assert "Use JWT access tokens [ref: memory/2026-05-25.md#decisions]" in text  # thread -> log
    assert "[ref: memory/2026-05-25.md]" in next(x for x in thread.head if "Last touched" in x)
    assert thread.last_touched().startswith("2026-05-25")
    # the same decision noted again another day is not added twice
    writer.end_session(
        session_summary="More auth",
        resumption_note="n",
        thread_updates={"thread-auth": {"new_decisions": ["Use JWT access tokens"]}},
    )
    again = (root / "memory" / "threads.md").read_text()
    assert again.count("Use JWT access tokens") == 1
