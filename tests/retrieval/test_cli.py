"""``workmem search | get | timeline | reindex | bench locomo`` through their parsers."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from workmem.cli import common_options, search_cmds
from workmem.cli.output import run_handler

from .test_locomo import TINY


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    common = common_options()
    parser = argparse.ArgumentParser(prog="workmem", parents=[common])
    search_cmds.register(parser.add_subparsers(dest="command"), common)
    args = parser.parse_args(argv)
    code = run_handler(args.handler, args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def ws(root: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("WORKMEM_EMBEDDER", raising=False)
    (root / "memory").mkdir()
    (root / "memory" / "2026-05-24.md").write_text(
        "# 2026-05-24\n\n### 09:10 Database choice\n\nWe use SQLite with FTS5.\n\n"
        "### 17:40 收工\n\n今天收工了。\n",
        encoding="utf-8",
    )
    return root


def test_search_json_then_get_and_timeline(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["search", "sqlite", "--json"], capsys)
    assert code == 0
    payload = json.loads(out)
    hit = payload["hits"][0]
    assert payload["ok"] and hit["title"] == "09:10 Database choice"
    assert "text" not in hit and {"id", "date", "kind", "snippet", "tokens"} <= set(hit)
    code, out, _ = run(["get", hit["id"], "--json"], capsys)
    assert code == 0 and json.loads(out)["text"] == "We use SQLite with FTS5."
    code, out, _ = run(["get", hit["id"]], capsys)
    assert "memory/2026-05-24.md:5" in out and "We use SQLite" in out
    code, out, _ = run(["timeline", hit["id"], "--json"], capsys)
    view = json.loads(out)
    assert view["anchor"]["id"] == hit["id"] and view["after"][0]["title"] == "17:40 收工"
    code, out, _ = run(["timeline", hit["id"]], capsys)
    assert code == 0 and ">" in out


def test_search_text_output_and_filters(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["search", "收工", "--kind", "daily", "--since", "2026-05-01"], capsys)
    assert code == 0 and "17:40 收工" in out and "workmem get ID" in out
    code, out, _ = run(["search", "nothing-like-this"], capsys)
    assert code == 0 and "No memory matches" in out


def test_bad_arguments_are_usage_errors(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["search", "x", "--since", "last tuesday"], capsys)
    assert code == 2 and "YYYY-MM-DD" in err
    code, _, err = run(["search", "x", "--kind", "bogus"], capsys)
    assert code == 2 and "unknown kind" in err
    code, out, _ = run(["get", "../../etc/passwd", "--json"], capsys)
    assert code == 2 and json.loads(out)["ok"] is False
    code, _, err = run(["get", "0123456789ab"], capsys)
    assert code == 3


def test_what_a_search_echoes_back_is_redacted(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    token = "ghp_" + "a1B2" * 9  # a GitHub token's shape
    code, _, err = run(["search", "x", "--since", token], capsys)
    assert code == 2 and token[:12] not in err and "[REDACTED:" in err
    code, out, _ = run(["search", f"nothing-like-this {token}"], capsys)
    assert code == 0 and "No memory matches" in out and token[:12] not in out


def test_reindex_reports_problems(ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["reindex", "--full"], capsys)
    assert code == 0 and "Rebuilt" in out
    (ws / "memory" / "2026-05-23.md").write_bytes(b"# x\n\xff\xfe broken\n")
    code, out, _ = run(["reindex", "--json"], capsys)
    payload = json.loads(out)
    assert code == 1 and "memory/2026-05-23.md" in payload["problems"]


def test_bench_locomo_json(tmp_path: Path, ws: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "tiny.json"
    data.write_text(json.dumps(TINY), encoding="utf-8")
    argv = ["bench", "locomo", "--data", str(data), "--k", "1,3", "--embedder", "none", "--json"]
    code, out, _ = run(argv, capsys)
    report = json.loads(out)
    assert code == 0
    assert set(report["workmem"]["recall"]) == {"1", "3"}
    assert set(report) >= {
        "workmem",
        "reference_bm25",
        "context_recall",
        "mean_context_tokens",
        "latency_ms",
        "cpu_ms",
        "build_s",
    }
    assert set(report["workmem"]["hit_rate"]) == {"1", "3"}
    assert report["splits"]["holdout"]["conversations"] == ["tiny-1"]  # not a tune ID
    code, out, err = run(["bench", "locomo", "--data", str(data), "--embedder", "none"], capsys)
    assert code == 0 and "LoCoMo retrieval" in out and "tiny-1" in err
    assert "hit@5" in out and "held back" in out and "held back spread" in out
    assert "search latency: p50 " in out and "(CPU time p50 " in out
    code, _, err = run(["bench", "locomo", "--data", str(tmp_path / "missing.json")], capsys)
    assert code == 2
    code, _, err = run(["bench", "locomo", "--data", str(data), "--k", "0"], capsys)
    assert code == 2


@pytest.mark.parametrize("question", ["", "   ", "\n\t"])
def test_an_empty_question_is_a_usage_error_saying_what_to_give(
    ws: Path, capsys: pytest.CaptureFixture[str], question: str
) -> None:
    code, _, err = run(["search", question], capsys)
    assert code == 2 and "Give a few words to search for" in err and "Traceback" not in err


@pytest.mark.parametrize("question", ["?!...", "what is it", "😀🎉", "— … ?"])
def test_a_question_with_no_words_says_so(
    ws: Path, capsys: pytest.CaptureFixture[str], question: str
) -> None:
    code, out, err = run(["search", question], capsys)
    assert code == 0 and "has no words to search for" in out and not err
    code, out, _ = run(["search", question, "--json"], capsys)
    payload = json.loads(out)
    assert payload["hits"] == [] and "has no words to search for" in payload["notices"][0]


def test_a_question_about_a_day_with_no_entries_says_so_in_its_language(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["search", "what did we do on 2025-01-10"], capsys)
    assert code == 0 and "Nothing in memory is dated 2025-01-10" in out
    code, out, _ = run(["search", "sqlite on 2025-01-10"], capsys)
    assert "the closest matches are shown" in out and "Database choice" in out
    code, out, _ = run(["search", "上週二做了什麼"], capsys)  # the clock: Monday 2026-05-25
    assert code == 0 and "記憶裡沒有 2026-05-19 的內容" in out


def test_a_very_long_or_mixed_question_is_answered_from_its_start(
    ws: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(["search", "sqlite 收工 " + "stack trace line " * 5000], capsys)
    assert code == 0 and "Only the first 2,000 characters" in out
    assert "Database choice" in out and "收工" in out
    code, out, _ = run(["search", "SQLite の 収工 데이터 收工"], capsys)
    assert code == 0 and "17:40 收工" in out


def test_an_install_without_bytecode_keeps_it_in_the_user_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os
    import sys

    from workmem import cli

    compiled = {"yes": True}
    monkeypatch.setattr(cli, "_compiled", lambda package: compiled["yes"])
    monkeypatch.setattr(sys, "pycache_prefix", None)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    monkeypatch.setenv("WORKMEM_CACHE_DIR", str(tmp_path / "cache"))
    assert cli.bytecode_cache() is None  # compiled at install time: nothing changes
    compiled["yes"] = False
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    assert cli.bytecode_cache() is None  # Python writes it beside the modules itself
    # never compiled, and nothing may be written beside the modules: the user cache
    for read_only, no_bytecode in ((True, False), (False, True)):
        monkeypatch.setattr(sys, "pycache_prefix", None)
        monkeypatch.setattr(sys, "dont_write_bytecode", no_bytecode)
        monkeypatch.setattr(os, "access", lambda path, mode, ro=read_only: not ro)
        assert cli.bytecode_cache() == str(tmp_path / "cache" / "pycache")
        assert sys.pycache_prefix == str(tmp_path / "cache" / "pycache")
        assert sys.dont_write_bytecode is False


def test_a_search_where_there_is_no_memory_says_how_to_start_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "plain-folder"
    empty.mkdir()
    monkeypatch.chdir(empty)
    monkeypatch.delenv("WORKMEM_ROOT", raising=False)
    code, out, err = run(["search", "SQLite"], capsys)
    assert code == 0 and "There is no memory here yet" in out and "workmem init" in out
    assert "No memory matches" not in out and not err
    assert list(empty.iterdir()) == []  # a search starts no memory root
