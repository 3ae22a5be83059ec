"""The LoCoMo benchmark: data reading, ingestion through the public API, recall figures."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from workmem.errors import FormatError
from workmem.retrieval import bench_locomo, locomo
from workmem.root import Workspace

TINY: list[dict[str, Any]] = [
    {
        "sample_id": "tiny-1",
        "conversation": {
            "speaker_a": "Ana",
            "speaker_b": "Ben",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ana", "dia_id": "D1:1", "text": "Hi Ben! How was your week?"},
                {"speaker": "Ben", "dia_id": "D1:2", "text": "Busy. I started pottery classes."},
                {
                    "speaker": "Ana",
                    "dia_id": "D1:3",
                    "text": "Look at this!",
                    "blip_caption": "a photo of a violin on a stand",
                },
                {"speaker": "Ben", "dia_id": "D1:4", "text": "You play the violin? Since when?"},
            ],
            "session_2_date_time": "10:37 am on 27 June, 2023",
            "session_2": [
                {"speaker": "Ana", "dia_id": "D2:1", "text": "I moved to Lisbon last week."},
                {
                    "speaker": "Ben",
                    "dia_id": "D2:2",
                    "text": "Lisbon! My pottery teacher is from there.",
                },
                {
                    "speaker": "Ana",
                    "dia_id": "D2:3",
                    "text": "Small world. The tram rides are lovely.",
                },
            ],
        },
        "qa": [
            {
                "question": "What class did Ben start?",
                "answer": "pottery",
                "evidence": ["D1:2"],
                "category": 4,
            },
            {
                "question": "Which city did Ana move to?",
                "answer": "Lisbon",
                "evidence": ["D2:1"],
                "category": 2,
            },
            {
                "question": "What connects Ben's pottery teacher and Ana's new home?",
                "answer": "Lisbon",
                "evidence": ["D2:1; D2:2", "D:1:2"],
                "category": 1,
            },
            {
                "question": "What instrument does Ana play?",
                "answer": "violin",
                "evidence": ["D1:3"],
                "category": 3,
            },
            {"question": "Adversarial?", "answer": "-", "evidence": ["D1:1"], "category": 5},
            {"question": "No evidence", "answer": "-", "evidence": ["D"], "category": 4},
        ],
    }
]


@pytest.fixture
def tiny_file(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(TINY), encoding="utf-8")
    return path


def test_evidence_normalization() -> None:
    assert locomo.normalize_evidence(["D8:6; D9:17", "D:11:26", "D", "D1:3"]) == [
        "D8:6",
        "D9:17",
        "D11:26",
        "D1:3",
    ]


def test_session_time_parsing() -> None:
    assert locomo.parse_when("1:56 pm on 8 May, 2023") == (date(2023, 5, 8), "1:56 pm")
    assert locomo.parse_when("10:37 am on 27 June, 2023")[0] == date(2023, 6, 27)
    with pytest.raises(FormatError):
        locomo.parse_when("sometime in spring")


def test_bad_data_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(FormatError):
        locomo.load(bad)
    bad.write_text('{"a": 1}', encoding="utf-8")
    with pytest.raises(FormatError, match="list"):
        locomo.load(bad)
    bad.write_bytes(b"\xff\xfe[]")
    with pytest.raises(FormatError):
        locomo.load(bad)


def test_ingest_writes_dated_daily_logs_keeping_dia_ids(tiny_file: Path, tmp_path: Path) -> None:
    (conversation,) = locomo.load(tiny_file)
    workspace = Workspace(tmp_path / "root")
    assert locomo.ingest(conversation, workspace) == 7
    first = (workspace.memory_dir / "2023-05-08.md").read_text(encoding="utf-8")
    assert first.startswith("# 2023-05-08\n")
    assert "### Ben [D1:2]\n\nBusy. I started pottery classes.\n" in first
    assert "[shared a photo: a photo of a violin on a stand]" in first
    assert (workspace.memory_dir / "2023-06-27.md").is_file()
    assert locomo.dia_id_of("Ben [D1:2]") == "D1:2"


def test_recall_at_k() -> None:
    assert bench_locomo.recall_at(["D1:1", "D1:2", None], ["D1:2", "D2:1"], (1, 2)) == {
        1: 0.0,
        2: 0.5,
    }


def test_benchmark_on_a_tiny_conversation(tiny_file: Path, tmp_path: Path) -> None:
    report = bench_locomo.run(
        tiny_file, ks=(1, 3), budget=1500, embedder="none", tune=["tiny-1"], workdir=tmp_path
    )
    mine = report["workmem"]
    assert mine["questions"] == 4  # category 5 left out, the evidence-less one skipped
    assert report["skipped_no_evidence"] == 1
    assert set(mine["by_category"]) == {"multi-hop", "temporal", "open-domain", "single-hop"}
    # the single-hop and temporal questions name words of exactly one turn
    assert mine["by_category"]["single-hop"]["recall"]["1"] == 1.0
    assert mine["by_category"]["temporal"]["recall"]["1"] == 1.0
    # the image caption is kept, so the violin question finds the photo turn
    assert mine["by_category"]["open-domain"]["recall"]["3"] == 1.0
    assert report["reference_bm25"]["questions"] == 4
    assert 0.0 <= report["reference_bm25"]["recall"]["3"] <= 1.0
    assert report["latency_ms"]["p95"] >= report["latency_ms"]["p50"] > 0
    assert report["cpu_ms"]["p95"] >= report["cpu_ms"]["p50"] > 0
    assert report["turns"] == 7 and report["embedder"] == "none"
    assert set(report["splits"]) == {"tune"}
    assert (tmp_path / "tiny-1" / "memory" / "2023-05-08.md").is_file()
    if report["context_recall_measured"]:
        assert 0.0 <= report["context_recall"] <= 1.0
        assert 0 < report["mean_context_tokens"] <= 1500


def test_dev_file_shape_and_a_real_conversation(shared_dir: Path, tmp_path: Path) -> None:
    data = shared_dir / "data" / "locomo" / "locomo_dev.json"
    if not data.is_file():
        pytest.skip(f"{data} not found")
    conversations = locomo.load(data)
    assert [c.sample_id for c in conversations] == [
        "conv-26",
        "conv-30",
        "conv-41",
        "conv-42",
        "conv-43",
    ]
    assert sum(1 for c in conversations for _ in c.turns()) == 2760
    assert sum(len(c.questions) for c in conversations) == 999
    odd = {e for c in conversations for q in c.questions for e in q.raw_evidence}
    odd -= {e for c in conversations for q in c.questions for e in q.evidence}
    assert odd == {"D8:6; D9:17", "D:11:26", "D"}
    report = bench_locomo.run(
        data, ks=(5, 10), budget=None, embedder="none", only=["conv-30"], workdir=tmp_path
    )
    assert report["workmem"]["questions"] > 80
    # the structured index beats plain BM25 over the same turns by a wide margin
    assert report["workmem"]["recall"]["10"] > report["reference_bm25"]["recall"]["10"] + 0.1


def test_benchmark_refuses_a_used_folder(tiny_file: Path, tmp_path: Path) -> None:
    from workmem.errors import UsageError

    (tmp_path / "tiny-1" / "memory").mkdir(parents=True)
    with pytest.raises(UsageError, match="already holds"):
        bench_locomo.run(tiny_file, embedder="none", budget=None, workdir=tmp_path)


def test_hit_rate_counts_questions_with_any_evidence_found() -> None:
    tally = bench_locomo.Tally((1, 2))
    tally.add(1, bench_locomo.recall_at(["D1:1", "D9:9"], ["D1:1", "D2:2"], (1, 2)))
    tally.add(1, bench_locomo.recall_at(["D9:9", "D2:2"], ["D1:1", "D2:2"], (1, 2)))
    tally.add(4, bench_locomo.recall_at(["D9:9", "D8:8"], ["D3:3"], (1, 2)))
    # recall averages shares of evidence (0.5, 0.5, 0); a hit is any evidence turn at all
    assert tally.recall() == {"1": round(0.5 / 3, 4), "2": round(1.0 / 3, 4)}
    assert tally.hit_rate() == {"1": round(1 / 3, 4), "2": round(2 / 3, 4)}
    merged = bench_locomo.Tally((1, 2))
    merged.merge(tally)
    merged.merge(tally)
    assert merged.hit_rate() == tally.hit_rate() and merged.count == 6
    assert tally.to_dict()["by_category"]["multi-hop"]["hit_rate"] == {"1": 0.5, "2": 1.0}


def test_splits_and_spread_over_conversations(tmp_path: Path) -> None:
    """Two conversations, one tuned on: both splits reported, each conversation, the spread."""
    second = json.loads(json.dumps(TINY[0]))
    second["sample_id"] = "tiny-2"
    for qa in second["qa"]:  # the same memory, questions whose words miss: lower recall
        qa["question"] = "Anything about the weather?"
    data = tmp_path / "two.json"
    data.write_text(json.dumps([TINY[0], second]), encoding="utf-8")
    report = bench_locomo.run(
        data, ks=(1, 3), budget=None, embedder="none", tune=["tiny-1"], workdir=tmp_path
    )
    assert set(report["splits"]) == {"tune", "holdout"}
    assert report["splits"]["tune"]["conversations"] == ["tiny-1"]
    assert report["splits"]["holdout"]["conversations"] == ["tiny-2"]
    per = {name: part["workmem"]["recall"]["1"] for name, part in report["by_conversation"].items()}
    assert per["tiny-1"] > per["tiny-2"]
    spread = report["spread"]["1"]
    assert spread["min"] == per["tiny-2"] and spread["max"] == per["tiny-1"]
    assert spread["stdev"] == pytest.approx(abs(per["tiny-1"] - per["tiny-2"]) / 2, abs=1e-3)
    assert report["splits"]["tune"]["spread"]["1"]["stdev"] == 0.0
    assert 0.0 <= report["workmem"]["hit_rate"]["1"] <= 1.0
