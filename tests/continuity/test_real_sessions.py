"""Real recorded sessions that no one here wrote: saved, compacted, given back.

Each session of ``../shared/data/continuity`` (Claude Code, Codex, Gemini CLI in both of
its layouts, OpenClaw) is cut where the agent had work in flight (the benchmark's cut
points), saved as the pre-compact hook saves it, then resumed; the context must hold the
open plan steps, the last request and the files the agent went back to. The full benchmark
with baselines is ``workmem bench continuity`` (``make bench``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SHARED
from workmem.continuity.bench import cut_points, transcripts_under, truth_at
from workmem.continuity.resume import build_resume_context
from workmem.continuity.save import PRE_COMPACT_PARTS, save_session
from workmem.continuity.score import score
from workmem.continuity.truth import read_recording
from workmem.retrieval.tokens import count_tokens
from workmem.root import Workspace

FOLDER = SHARED / "data" / "continuity"
SESSIONS = transcripts_under(FOLDER) if FOLDER.is_dir() else []
#: every platform the shared data holds must be read, and cut, by the benchmark
PLATFORMS = {"claude-code", "codex", "gemini", "openclaw"}


def test_every_platform_of_the_data_is_read_and_cut() -> None:
    if not SESSIONS:
        pytest.skip(f"real sessions not found at {FOLDER} (set WORKMEM_SHARED)")
    cut: dict[str, int] = {}
    for path in SESSIONS:
        rec = read_recording(path)
        cut[rec.platform] = cut.get(rec.platform, 0) + len(cut_points(rec, 3))
    assert set(cut) >= PLATFORMS, cut
    assert all(count > 0 for count in cut.values()), cut


@pytest.mark.parametrize(
    "path", SESSIONS or [None], ids=[p.name for p in SESSIONS] or ["no-shared-data"]
)
def test_a_real_session_comes_back_after_a_compaction(
    path: Path | None, root: Path, tmp_path: Path
) -> None:
    from workmem.board.context import BoardContext
    from workmem.board.start import start_session

    if path is None:
        pytest.skip(f"real sessions not found at {FOLDER} (set WORKMEM_SHARED)")
    rec = read_recording(path)
    points = cut_points(rec, 1)
    if not points:
        pytest.skip(f"{path.name}: too few tool calls for a cut with work after it")
    line, _kind = points[0]
    prefix = tmp_path / f"cut{path.suffix}"
    prefix.write_bytes(rec.prefix(line))
    workspace = Workspace(root)
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
    assert count_tokens(context) <= 2000
    truth = truth_at(rec, line)
    parts = score(truth.plan, truth.request, truth.files, context)
    assert parts.plan in (None, 1.0), truth.plan
    assert parts.score is not None and parts.score >= 0.85, parts
