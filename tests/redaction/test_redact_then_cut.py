"""Redact first, then cut: no clipped field keeps a piece of a secret.

The attack put each detector's token at every offset of a clipped field: wherever "…"
fell inside the token, the field kept a piece of it (19 of an AWS key's 20 characters)
that no detector recognised any more. Here, the same at three levels:

* every clipping helper (``files.freetext``) with every detector's token at every offset
  around its cut: no 8 characters of the secret survive, and a cut never splits a
  redaction's marker;
* a real save (the pre-compact hook's parts, twice, then the restore that archives the
  relay snapshot) of a session whose fields each cut through the token: no file under
  the root (board, snapshot, notes, relay snapshot and archive, ``auto-summaries.json``,
  state) holds a piece of it, nor does the restored context;
* no module cuts text with "…" by slicing it itself: every cut goes through the helpers.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.transcripts.util import ClaudeWriter
from workmem.files.freetext import clip, cut_at, neutralize_block, neutralize_line, shorten
from workmem.files.shorten import clip_words

from .test_formats import KIND_CASES

PIECE = 8


def pieces(secret: str) -> set[str]:
    size = min(PIECE, len(secret))
    return {secret[i : i + size] for i in range(len(secret) - size + 1)}


def kept_pieces(secret: str, stored: str) -> list[str]:
    return sorted(p for p in pieces(secret) if p in stored)


def _filler(length: int) -> str:
    """Words of ``length`` characters, the last one a line break (so what follows starts a
    line and a word, as a pasted block does)."""
    words = "we went over the plan and then the tests again before the release " * 40
    return words[: max(length - 1, 0)] + "\n" if length else ""


CUTTERS: dict[str, Callable[[str, int], str]] = {
    "neutralize_line": lambda text, width: neutralize_line(text, limit=width),
    "shorten": shorten,
    "shorten, folded": lambda text, width: shorten(text, width, fold=True),
    "clip": clip,
    "neutralize_block": lambda text, width: neutralize_block(text, max_line=width),
    "clip_words": clip_words,
}
WIDTH = 120


@pytest.mark.parametrize("cutter", sorted(CUTTERS))
@pytest.mark.parametrize("kind", sorted(KIND_CASES))
def test_no_cut_keeps_a_piece_of_any_detectors_token(kind: str, cutter: str) -> None:
    template, secret = KIND_CASES[kind]
    cut = CUTTERS[cutter]
    line = template.replace("<S>", secret)
    at = line.index(secret)
    leaks = []
    # the cut falls before the token, at each of its characters, and after it
    for offset in range(-2, len(secret) + 3):
        text = _filler(max(WIDTH - at - offset, 0)) + line
        out = cut(text, WIDTH)
        kept = kept_pieces(secret, out)
        if kept:
            leaks.append((offset, kept[:2], out[-60:]))
        assert not re.search(r"\[REDACTED(?::[a-z0-9-]*)?(?:…| …|$)", out), out[-60:]
    assert leaks == []


def test_a_cut_moves_before_a_marker_never_into_it() -> None:
    text = "abc [REDACTED:aws-access-key] def"
    assert cut_at(text, 10) == 4
    assert cut_at(text, 29) == 29  # the marker ends right before the cut: kept whole
    assert cut_at(text, 28) == 4
    assert cut_at(text, 3) == 3
    assert cut_at(text, 100) == len(text)
    assert cut_at("x [REDACTED:jwt", 12) == 2  # a marker someone cut before us
    assert shorten("key AKIAFHYM4L1VFZ3ZFKKI here and more words", 16) == "key…"


def test_what_the_attack_stored_is_now_a_marker_or_nothing() -> None:
    """The four pieces the attack found: an AWS key cut at 19 of 20, a GCP key at 34 of 39,
    a GitLab token at 25 of 26, a JWT with its header and claims whole."""
    for kind, kept in (
        ("aws-access-key", 19),
        ("google-api-key", 34),
        ("gitlab-token", 25),
        ("jwt", 95 if len(KIND_CASES["jwt"][1]) > 95 else 60),
    ):
        secret = KIND_CASES[kind][1]
        text = "Fix the deploy script, it uses " + secret + " and more words after it"
        width = len("Fix the deploy script, it uses ") + kept + 1
        for out in (neutralize_line(text, limit=width), shorten(text, width)):
            assert kept_pieces(secret, out) == [], out
            assert "[REDACTED:" in out or out.endswith("uses…"), out


# -- a real save --------------------------------------------------------------------------

#: The fields a save cuts, by their limits: the board's topic (80), a notes "Then:" line
#: (300), the last request in notes (400) and in the state (600), the summary (200).
TOPIC, THEN, LAST = 80, 300, 400


def _placed(line: str, secret: str, limit: int, into: int) -> str:
    """``line`` after filler, so that a cut at ``limit`` falls ``into`` characters into
    the secret."""
    at = line.index(secret)
    return _filler(max(limit - 1 - at - into, 0)) + line


def _session(path: Path, line: str, secret: str) -> Path:
    w = ClaudeWriter(session="sess-cut", cwd=str(path.parent))
    half = len(secret) // 2
    w.user(_placed(line, secret, TOPIC, half))
    w.assistant("Looking at it.")
    for into in (1, 3, half, len(secret) - 2, len(secret) - 1):
        w.user(_placed(line, secret, THEN, into))
        w.assistant("Done with that step.")
    w.assistant(_placed(line, secret, LAST, half))
    w.user(_placed(line, secret, LAST, half + 1))
    return w.write(path)


SAVE_KINDS = [
    "aws-access-key",
    "google-api-key",
    "gitlab-token",
    "jwt",
    "private-key",
    "assignment",
    "password-phrase",
    "discord-token",
    "putty-key",
    "oracle-password",
]


@pytest.mark.parametrize("kind", SAVE_KINDS)
def test_a_save_stores_no_piece_of_a_secret_its_fields_cut(
    kind: str, root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from workmem.board.context import BoardContext
    from workmem.board.start import start_session
    from workmem.continuity.save import PRE_COMPACT_PARTS, save_session
    from workmem.relay.restore import restore
    from workmem.root import Workspace

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    template, secret = KIND_CASES[kind]
    line = template.replace("<S>", secret)
    transcript = _session(tmp_path / "sess-cut.jsonl", line, secret)
    workspace = Workspace(root)
    sid = start_session(BoardContext.open(root, platform="claude-code")).session_id
    for minute in ("13:18", "13:19"):  # the second save merges into the first
        monkeypatch.setenv("WORKMEM_NOW", f"2026-05-25 {minute}")
        report = save_session(
            workspace,
            session_id=sid,
            transcript=transcript,
            platform="claude-code",
            reason="compact",
            parts=PRE_COMPACT_PARTS,
        )
        assert not report.failed, report.failed
    restored = restore(workspace, platform="claude-code", home=tmp_path / "home")
    assert restored.archived_to is not None and kept_pieces(secret, restored.text) == []
    stored = {
        p.relative_to(root).as_posix(): p.read_text(encoding="utf-8", errors="replace")
        for p in root.rglob("*")
        if p.is_file() and "locks" not in p.parts
    }
    archived = [name for name in stored if name.startswith("memory/relay-archive/")]
    assert "memory/index.md" in stored and archived  # the restore moved the snapshot there
    assert any(name.endswith(".notes.md") for name in stored)
    leaks = {name: kept_pieces(secret, text)[:2] for name, text in stored.items()}
    assert {name: kept for name, kept in leaks.items() if kept} == {}
    assert any("[REDACTED:" in text for text in stored.values())  # it was there, as a marker


# -- one layer ------------------------------------------------------------------------------

#: ``text[:n] + "…"``: a cut made by hand, which would skip the redaction before it (a
#: slice that ends at ``cut_at(…)`` is the helpers' cut, of text redacted just before).
_HAND_CUT = re.compile(r"\[\s*:[^\]\n]*\]\s*(?:\.rstrip\(\)\s*)?\+\s*f?[\"'] ?…")
#: Where a hand cut only shortens what is shown, never what is stored.
_DISPLAY_ONLY = {
    "cli/output.py",  # a table column on the terminal
    "web/app.py",  # a query echoed in the viewer
    "web/memory_reader.py",  # a day or a memory name from a URL, echoed in its error
    "journal/budget.py",  # the loader's context, cut from memory files already redacted
    "demo.py",
}


def test_no_module_cuts_free_text_by_hand() -> None:
    src = Path(__file__).resolve().parents[2] / "src" / "workmem"
    found = []
    for path in sorted(src.rglob("*.py")):
        rel = path.relative_to(src).as_posix()
        if rel == "files/freetext.py" or rel in _DISPLAY_ONLY:
            continue
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _HAND_CUT.search(text) and "cut_at(" not in text:  # cut_at: the helper's cut
                found.append(f"{rel}:{number}: {text.strip()}")
    assert found == []


# -- the search index -----------------------------------------------------------------------


def test_the_index_redacts_a_memory_file_whole_before_cutting_it_into_chunks(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A key someone pasted into a memory file by hand, long enough to fall across two
    chunks: cut first, its second half (no BEGIN line) would be indexed as it is."""
    import random
    import string

    from workmem.retrieval.database import db_path
    from workmem.retrieval.search import reindex
    from workmem.root import Workspace

    monkeypatch.setenv("WORKMEM_EMBEDDER", "none")
    rng = random.Random(7)
    body = [
        "".join(rng.choice(string.ascii_letters + string.digits + "+/") for _ in range(64))
        for _ in range(60)
    ]
    key = "-----BEGIN RSA PRIVATE KEY-----\n" + "\n".join(body) + "\n-----END RSA PRIVATE KEY-----"
    prose = "\n".join(f"- note {n}: the deploy went fine on the staging host" for n in range(60))
    (root / "memory").mkdir()
    (root / "memory" / "2026-05-25.md").write_text(
        f"# 2026-05-25\n\n## Notes\n\n{prose}\n{key}\nafter the key\n", encoding="utf-8"
    )
    workspace = Workspace(root)
    report = reindex(workspace)
    assert report.problems == {}
    data = db_path(workspace).read_bytes().decode("latin-1")
    assert [line for line in body if line[: PIECE * 2] in data] == []
    import sqlite3

    lines = (root / "memory" / "2026-05-25.md").read_text(encoding="utf-8").splitlines()
    after = lines.index("after the key") + 1
    with sqlite3.connect(db_path(workspace)) as con:
        rows = con.execute("SELECT line_start, line_end, text FROM chunks").fetchall()
    ((start, end),) = [(a, b) for a, b, text in rows if "after the key" in text]
    assert start <= after <= end  # lines after the marker keep their numbers
    assert any("[REDACTED:private-key]" in text for _, _, text in rows)


def test_a_redaction_can_keep_the_line_count_and_markers_are_counted() -> None:
    from workmem.redact import redact
    from workmem.redact.engine import markers_in

    pem = KIND_CASES["private-key"][1]
    text = f"before\n{pem}\nafter"
    kept, count = redact(text, keep_lines=True)
    assert count == 1 and kept.count("\n") == text.count("\n")
    assert kept.splitlines()[1] == "[REDACTED:private-key]" and kept.endswith("\nafter")
    assert redact(text)[0] == "before\n[REDACTED:private-key]\nafter"
    assert markers_in(kept) == 1 and markers_in("no marker") == 0
    assert markers_in("[REDACTED:jwt] and [REDACTED] and [REDACTED:x-y]") == 3
