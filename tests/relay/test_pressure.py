"""The prompt hook at each context zone, run on a transcript whose recorded token usage puts
it there: what is saved, what the agent is told, in the user's language, and how often."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from tests.transcripts.util import ClaudeWriter, claude_project
from workmem.cli import main
from workmem.i18n import text
from workmem.relay.zones import zone_for

WINDOW = 200_000  # Claude Sonnet's window
PLAN = [("Port the parser", "completed"), ("Port the encoder", "in_progress")]
PLAN += [("Write the encoder tests", "pending"), ("Update the README", "pending")]


class Session:
    """One Claude Code session in a HOME of its own, driven through the hook entry point."""

    def __init__(
        self,
        root: Path,
        home: Path,
        monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        self.root, self.monkeypatch, self.capsys = root, monkeypatch, capsys
        self.writer = ClaudeWriter(session="zones", cwd=str(root))
        self.path = claude_project(home, root) / "zones.jsonl"
        w = self.writer
        w.user("Port the project to Rust, one module at a time")
        todos = [{"content": c, "activeForm": c, "status": s} for c, s in PLAN]
        w.assistant(tools=[w.tool_use("TodoWrite", "t0", todos=todos)])
        w.result("t0", "ok")
        w.assistant("Plan set.", usage=self.usage(10))
        w.write(self.path)
        self.base = {"session_id": "zones", "transcript_path": str(self.path), "cwd": str(root)}
        self.hook("SessionStart", source="startup")

    @staticmethod
    def usage(percent: float) -> dict[str, int]:
        tokens = int(WINDOW * percent / 100)
        return {
            "input_tokens": tokens,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
            "output_tokens": 5,
        }

    def hook(self, event: str, **extra: str) -> str:
        self.monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps({**self.base, **extra})))
        assert main(["hook", event, "--platform", "claude-code"]) == 0
        out = self.capsys.readouterr().out.strip()
        if not out:
            return ""
        specific = json.loads(out).get("hookSpecificOutput", {})
        return str(specific.get("additionalContext") or "")

    def prompt_at(self, percent: float, prompt: str = "go on with the next step") -> str:
        """The agent answered with ``percent`` of the window in use; the user writes again."""
        self.writer.user(prompt)
        self.writer.assistant("Done with that step.", usage=self.usage(percent))
        self.writer.write(self.path)
        return self.hook("UserPromptSubmit", prompt=prompt)

    def last_save(self) -> dict[str, object] | None:
        path = self.root / "memory" / ".workmem" / "last-save.json"
        return json.loads(path.read_text()) if path.is_file() else None


@pytest.fixture
def session(
    root: Path, home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Session:
    return Session(root, home, monkeypatch, capsys)


def test_below_the_thresholds_nothing_is_saved_or_said(session: Session, root: Path) -> None:
    assert session.prompt_at(30) == ""
    assert session.prompt_at(45) == ""  # awareness: no action yet
    assert session.last_save() is None
    assert not (root / "memory" / "relay-snapshot.md").exists()


def test_at_half_a_checkpoint_is_saved_without_maintenance_and_announced_once(
    session: Session, root: Path
) -> None:
    said = session.prompt_at(52)
    assert said.startswith("[workmem] Context 52% (recorded): past half.")
    assert f'Tell the user, in their language: "{text("en", "zone.checkpoint")}"' in said
    assert "saved session notes, session snapshot" in said
    record = session.last_save()
    assert record is not None and record["reason"] == "checkpoint"
    assert not (root / "MEMORY.md").exists()  # no maintenance at the checkpoint
    assert not (root / "memory" / "relay-snapshot.md").exists()  # the relay starts at 60 %
    assert session.prompt_at(53) == ""  # not again


def test_past_sixty_the_handoff_snapshot_is_merged_and_the_agent_asked_to_be_concise(
    session: Session, root: Path
) -> None:
    said = session.prompt_at(65)  # straight past the checkpoint: it is done now
    assert "past half" in said and "keep replies concise" in said
    snapshot = root / "memory" / "relay-snapshot.md"
    assert snapshot.is_file() and "(65%, recorded)" in snapshot.read_text()
    assert not (root / "HEARTBEAT.md").exists()  # the HEARTBEAT line is for the hot zone
    assert session.prompt_at(66) == ""  # no words, and no save for one point of growth
    assert "(65%, recorded)" in snapshot.read_text()


def test_at_about_75_the_full_save_runs_maintenance_and_lists_what_is_left(
    session: Session, root: Path
) -> None:
    memory = root / "memory"
    memory.mkdir(exist_ok=True)
    (memory / "project_app.md").write_text(
        "---\nname: app\ntype: project\nupdated: 2026-05-01\nexpires: 2026-05-20\n---\nold status\n"
    )
    session.prompt_at(52)
    said = session.prompt_at(76)
    assert said.startswith("[workmem] Context 76% (recorded): nearly full.")
    assert "full save (saved session notes, session snapshot, handoff snapshot)" in said
    assert "memory maintenance (compressed 0, merged 0, marked stale 1)" in said
    left = said.split("What is left (your plan and the session snapshot):\n")[1].split("\nRecord")[
        0
    ]
    assert left.splitlines() == [
        "- Port the encoder",
        "- Write the encoder tests",
        "- Update the README",
    ]
    assert "Port the parser" not in left  # completed: not left
    assert "`workmem wrap --from-file -`" in said
    assert f'"{text("en", "zone.full_save")}"' in said
    assert "project_app.md" in (root / "MEMORY.md").read_text()  # the index, with its [STALE]
    assert "[STALE]" in (root / "MEMORY.md").read_text()
    assert (root / "HEARTBEAT.md").is_file()  # relay hot zone
    record = session.last_save()
    assert record is not None and record["reason"] == "full-save"
    assert session.prompt_at(78) == ""  # the alert is not repeated


def test_past_80_the_agent_is_told_to_keep_replies_minimal(session: Session) -> None:
    session.prompt_at(76)
    said = session.prompt_at(82)
    assert "critical. workmem saved what it can" in said and "minimal" in said
    record = session.last_save()
    assert record is not None and record["reason"] == "emergency"


def test_past_85_the_agent_is_asked_once_to_tell_the_user_in_their_language(
    session: Session, root: Path
) -> None:
    prompt = "次のステップに進んでください"  # the user writes Japanese
    session.prompt_at(76, prompt)
    said = session.prompt_at(88, prompt)
    footer = text("ja", "relay.footer", pct="88")
    assert "Tell the user now, in their language, and end each of your replies" in said
    assert said.endswith(footer)
    assert "上下文" not in said and "Context at 88%" not in said
    # The next prompt at the same level: no new words (the agent was asked for every reply).
    assert session.prompt_at(88.2, prompt) == ""
    higher = session.prompt_at(91, prompt)
    assert higher.endswith(text("ja", "relay.footer", pct="91"))
    assert "from now on" in higher and "Tell the user now" not in higher
    log = (root / "memory" / "2026-05-25.md").read_text()
    assert "### Session Relay Auto-Save" in log  # the force-save synced the daily log


def test_a_jump_straight_past_85_does_the_full_save_and_asks_for_the_warning(
    session: Session,
) -> None:
    said = session.prompt_at(90)
    assert "nearly full" in said and "What is left" in said and "keep every reply minimal" in said
    assert "Tell the user now" in said


def test_after_a_compaction_the_zones_can_be_reached_again(session: Session) -> None:
    assert "past half" in session.prompt_at(52)
    assert "Tell the user now" in session.prompt_at(90)
    assert session.prompt_at(20) == ""  # compacted: the usage fell
    assert "past half" in session.prompt_at(51)
    assert "Tell the user now" in session.prompt_at(87)


def test_a_corrupt_zone_record_is_started_again(session: Session, root: Path) -> None:
    state = root / "memory" / ".workmem" / "hook-zones.json"
    state.parent.mkdir(parents=True, exist_ok=True)
    state.write_text("{not json")
    assert "past half" in session.prompt_at(52)
    assert json.loads(state.read_text())[str(session.path)]["zones"] == ["checkpoint"]


@pytest.mark.parametrize(
    ("percent", "relay", "wrap"),
    [
        (39.9, "none", "normal"),
        (40, "none", "awareness"),
        (50, "none", "checkpoint"),
        (60, "warm", "active-management"),
        (74.9, "warm", "active-management"),
        (75, "hot", "full-save"),
        (80, "hot", "full-save"),
        (80.1, "hot", "critical"),
        (85, "hot", "critical"),
        (85.1, "critical", "critical"),
    ],
)
def test_the_two_named_profiles(percent: float, relay: str, wrap: str) -> None:
    """Session wrap: 40 / 50 / 75 / 80 %; relay: 60 / 75 / 85 %."""
    assert zone_for(percent, "relay").name == relay
    assert zone_for(percent, "wrap").name == wrap


def test_below_the_thresholds_the_prompt_hook_loads_no_zone_machinery(
    session: Session, root: Path
) -> None:
    """Guards the common case's cost without timing it."""
    import subprocess

    session.writer.assistant("more", usage=Session.usage(30))
    session.writer.write(session.path)
    code = (
        "import sys, json\n"
        "from workmem.cli import main\n"
        "sys.argv = ['workmem', 'hook', 'UserPromptSubmit', '--platform', 'claude-code']\n"
        "main()\n"
        "loaded = ['workmem.relay.pressure', 'workmem.relay.workflows', 'workmem.facts.maintain']\n"
        "sys.stderr.write(json.dumps([m for m in loaded if m in sys.modules]))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        input=json.dumps({**session.base, "prompt": "hi"}),
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(proc.stderr.strip().splitlines()[-1]) == []
