"""What a resume used to miss: a short follow-up without what it answers, a long pasted plan
cut while the budget had room, the file the plan names buried in a long list."""

from __future__ import annotations

from pathlib import Path

from tests.transcripts.util import ClaudeWriter
from workmem.continuity.briefing import build_resume
from workmem.root import Workspace


def _resume(root: Path, w: ClaudeWriter, tmp_path: Path, budget: int = 2000) -> str:
    path = w.write(tmp_path / "t.jsonl")
    (root / "memory").mkdir(exist_ok=True)
    done = build_resume(
        Workspace(root), session_id=None, transcript=path, platform="claude-code", budget=budget
    )
    return done.text


def test_a_short_follow_up_comes_with_what_it_answers(root: Path, tmp_path: Path) -> None:
    w = ClaudeWriter(cwd=str(root))
    w.user("Review the caching layer and tell me what you would change in it")
    w.assistant(
        "Three options:\n\n1. Evict by size\n2. Add metrics\n3. Make the TTL configurable"
        "\n\nWhich ones should I do?"
    )
    w.user("do 1 and 3")
    text = _resume(root, w, tmp_path)
    request = text.split("## Last request")[1]
    assert "Evict by size" in request and "Make the TTL configurable" in request
    assert request.index("Earlier request:") < request.index("It answers") < request.index("Then:")
    assert "> do 1 and 3" in request


def test_a_long_pasted_plan_is_kept_whole_when_the_budget_has_room(
    root: Path, tmp_path: Path
) -> None:
    steps = "\n".join(
        f"{n}. Step {n}: migrate module number {n} to the new settings API" for n in range(1, 60)
    )
    w = ClaudeWriter(cwd=str(root))
    w.user(f"Implement this plan:\n\n{steps}\n\nEnd of the plan.")
    w.assistant("Starting with step 1.")
    text = _resume(root, w, tmp_path)
    assert "Step 59: migrate module number 59" in text and "End of the plan." in text


def test_the_file_the_open_plan_names_comes_first(root: Path, tmp_path: Path) -> None:
    w = ClaudeWriter(cwd=str(root))
    w.user("Refactor the storage package and then fix the exporter that depends on it")
    w.assistant(tools=[w.tool_use("Read", "r0", file_path=f"{root}/src/exporter.py")])
    w.result("r0", "def export(): ...")
    for n in range(30):
        w.assistant(tools=[w.tool_use("Read", f"r{n + 1}", file_path=f"{root}/src/store_{n}.py")])
        w.result(f"r{n + 1}", "x = 1")
    todos = [
        {"content": "Refactor storage", "status": "completed", "activeForm": "x"},
        {
            "content": "Fix exporter.py to use the new API",
            "status": "in_progress",
            "activeForm": "x",
        },
    ]
    w.assistant(tools=[w.tool_use("TodoWrite", "t1", todos=todos)])
    w.result("t1", "ok")
    text = _resume(root, w, tmp_path)
    files = text.split("## Files in play")[1].split("\n## ")[0]
    assert files.strip().splitlines()[0].startswith("- `src/exporter.py`")


def test_a_short_answer_to_the_agents_question_is_a_follow_up_a_short_request_is_not(
    root: Path, tmp_path: Path
) -> None:
    w = ClaudeWriter(cwd=str(root))
    w.user("What do you think of how we keep the API key in an environment variable?")
    w.assistant("It is standard, not ideal.\n\n**Shall I draft a plan to move it to the keyring?**")
    w.user("draft the plan, add it to the roadmap")
    request = _resume(root, w, tmp_path).split("## Last request")[1]
    assert "Earlier request:" in request and "keyring?" in request
    w2 = ClaudeWriter(cwd=str(root))
    w2.user("Summarise the feature branch for me")
    w2.assistant("Done: the branch adds the suppression flag.")
    w2.user("git me a commit message for this feature")
    alone = _resume(root, w2, tmp_path / "b").split("## Last request")[1]
    assert "Earlier request:" not in alone and "> git me a commit message" in alone
