"""Real recorded sessions that no one here wrote: saved, compacted, given back.

Each session of ``../shared/data/continuity`` is cut where the agent had work in flight
(the benchmark's cut points), saved as the pre-compact hook saves it, then resumed; the
context must hold the open plan steps, the last request and the files the agent went back
to. The full benchmark with baselines is ``workmem bench continuity`` (``make bench``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from workmem.continuity.bench import cut_points, truth_at
from workmem.continuity.resume import build_resume_context
from workmem.continuity.save import PRE_COMPACT_PARTS, save_session
from workmem.continuity.score import score
from workmem.continuity.truth import read_recording
from workmem.retrieval.tokens import count_tokens
from workmem.root import Workspace


def sessions(shared: Path) -> list[Path]:
    folder = shared / "data" / "continuity"
    if not folder.is_dir():
        pytest.skip(f"real sessions not found at {folder}")
    return sorted(folder.rglob("*.jsonl"))


def test_every_real_session_comes_back_after_a_compaction(
    shared_dir: Path, root: Path, tmp_path: Path
) -> None:
    workspace = Workspace(root)
    scores: list[float] = []
    for number, path in enumerate(sessions(shared_dir)):
        rec = read_recording(path)
        line, _kind = cut_points(rec, 1)[0]
        prefix = tmp_path / f"cut-{number}.jsonl"
        prefix.write_bytes(b"\n".join(rec.lines[: line + 1]) + b"\n")
        from workmem.board.context import BoardContext
        from workmem.board.start import start_session

        sid = start_session(BoardContext.open(root, platform=rec.platform)).session_id
        report = save_session(
            workspace,
            session_id=sid,
            transcript=prefix,
            platform=rec.platform,
            reason="pre-compact",
            parts=PRE_COMPACT_PARTS,
            home=tmp_path,
        )
        assert report.ok, (path.name, report.failed)
        context = build_resume_context(
            workspace,
            session_id=sid,
            transcript=prefix,
            platform=rec.platform,
            home=tmp_path,
            header=[f"Your Memory Session ID is: {sid}"],
        ).text
        assert count_tokens(context) <= 2000, path.name
        truth = truth_at(rec, line)
        parts = score(truth.plan, truth.request, truth.files, context)
        assert parts.plan in (None, 1.0), (path.name, truth.plan)
        assert parts.score is not None and parts.score >= 0.85, (path.name, parts)
        scores.append(parts.score)
    assert sum(scores) / len(scores) >= 0.95
