"""What a resume used to miss: a short follow-up without what it answers, a long pasted plan
cut while the budget had room, the file the plan names buried in a long list."""

from __future__ import annotations

from pathlib import Path

from tests.transcripts.util import ClaudeWriter
from workmem.continuity.briefing import build_resume
from workmem.continuity.fit import Part
from workmem.root import Workspace
from workmem.transcripts.read import read_transcript


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


def test_a_short_nudge_in_chinese_comes_with_the_request_it_nudges(
    root: Path, tmp_path: Path
) -> None:
    # "怎么样了" (how is it going) is four characters but two words: a nudge, not a request
    w = ClaudeWriter(cwd=str(root))
    w.user("看下这个PR，有个check报错了，是什么原因")
    w.assistant("我在查看 CI 日志。")
    w.user("怎么样了")
    request = _resume(root, w, tmp_path).split("## Last request")[1]
    assert "Earlier request:" in request and "check报错了" in request
    assert "> 怎么样了" in request


def test_a_question_and_its_answer_stay_one_decision(root: Path, tmp_path: Path) -> None:
    # the same question asked twice, answered differently: each pair whole, no half left
    # on its own line when the other half was said before
    w = ClaudeWriter(cwd=str(root))
    w.user("Find a small markdown issue in the docs to fix in a pull request")
    w.assistant("Found one in the changelog.\n\nShould I open the pull request now?")
    w.user("yes, with a short title")
    w.assistant("The check failed on formatting.\n\nShould I open the pull request now?")
    w.user("close it and pick another issue")
    w.assistant("Looking for another issue.")
    w.user("Keep going with the spelling errors in the guides")
    text = _resume(root, w, tmp_path)
    decisions = text.split("## Decisions")[1].split("\n## ")[0]
    lines = [line for line in decisions.splitlines() if line.startswith("- ")]
    assert "- Should I open the pull request now? → close it and pick another issue" in lines
    assert all(not line.startswith("- →") for line in lines), lines
    assert all(" → " in line for line in lines if line.endswith("?")), lines


def test_the_decision_the_last_request_answers_is_not_said_twice(
    root: Path, tmp_path: Path
) -> None:
    w = ClaudeWriter(cwd=str(root))
    w.user("What do you think of how we keep the API key in an environment variable?")
    w.assistant("It is standard, not ideal.\n\nShall I draft a plan to move it to the keyring?")
    w.user("draft the plan, add it to the roadmap")
    text = _resume(root, w, tmp_path)
    assert text.count("Shall I draft a plan to move it to the keyring?") == 1, text
    assert "> draft the plan, add it to the roadmap" in text


def test_a_title_that_is_only_the_first_message_is_not_the_heading(
    root: Path, tmp_path: Path
) -> None:
    w = ClaudeWriter(cwd=str(root))
    first = "# Context pulse\n\nRead HEARTBEAT.md if it exists and follow it strictly"
    w.user(first)
    w.assistant("Nothing needs attention.")
    w.user("Now fix the flaky upload test in the storage package")
    w.records.append({"type": "ai-title", "aiTitle": "\\# Context pulse Read HEARTBEAT.md if it…"})
    text = _resume(root, w, tmp_path)
    assert text.splitlines()[0].startswith("# Where you left off,"), text.splitlines()[0]
    assert "Read HEARTBEAT.md if it exists" in text  # where the session began, said once
    titled = ClaudeWriter(cwd=str(root))
    titled.user(first)
    titled.assistant("Nothing needs attention.")
    titled.records.append({"type": "ai-title", "aiTitle": "Heartbeat check"})
    heading = _resume(root, titled, tmp_path / "b").splitlines()[0]
    assert heading.startswith("# Where you left off (Heartbeat check)"), heading


def test_a_question_the_user_answered_is_no_open_question(root: Path, tmp_path: Path) -> None:
    from workmem.continuity.work import Sources
    from workmem.continuity.work_parts import work_parts
    from workmem.files.sections import Document

    w = ClaudeWriter(cwd=str(root))
    w.user("What do you think of how we keep the API key in an environment variable?")
    w.assistant("It is standard, not ideal.\n\nShall I draft a plan to move it to the keyring?")
    w.user("draft the plan, add it to the roadmap")
    transcript = read_transcript(w.write(tmp_path / "t.jsonl"), "claude-code")
    snapshot = Document.parse(
        "## Open Questions\n- Shall I draft a plan to move it to the keyring?\n"
        "- Which keyring backend should the CI use?\n"
    )
    parts = {
        p.title: p.lines for p in work_parts(Sources(transcript=transcript, snapshot=snapshot))
    }
    open_now = parts["Next actions and open questions"]
    assert open_now == ["- Which keyring backend should the CI use?"], open_now


def test_where_the_whole_is_is_said_once_across_start_and_continue() -> None:
    from workmem.continuity.fit import compose_within, fact_keys, named_before

    files = ["memory/sessions/s.notes.md"]
    parts = [Part("Last request", [f"> word {n} " * 20 for n in range(40)], 1.0)]
    first = compose_within([], parts, 300, files).text
    assert "The whole of it is in memory/sessions/s.notes.md." in first
    assert named_before(files, fact_keys(first))
    assert not named_before(files, fact_keys("(To stay within 300 tokens, shortened: Plan.)"))
    assert not named_before([], fact_keys(first))
