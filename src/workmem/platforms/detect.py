"""Which agent platform a project belongs to: seed 000's detection table, top-down.

Each row names a platform, the signals that identify it (folders or files in the project
or home folder, environment variables, a command on ``PATH``), where its memory is written
and which file holds its instructions. Rows are checked in the seed's order and the first
match wins; the result says which signal matched, so a surprising answer can be explained
(a ``~/.claude`` folder on the machine makes every project "Claude Code", as the seed
orders it). ``WORKMEM_PLATFORM`` or ``platform`` in workmem.toml overrides the table.
``detect`` reads no file, only ``exists`` checks, so it is cheap enough for a hook.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import UsageError

FALLBACK_MEMORY = ".ai-memory/"
_NON_ALNUM = re.compile(r"[^A-Za-z0-9]")


@dataclass(frozen=True)
class Context:
    """What detection looks at; tests build one, real runs use ``Context.current``."""

    project: Path
    home: Path
    env: Mapping[str, str]
    which: Callable[[str], str | None]

    @classmethod
    def current(cls, project: Path, home: Path | None = None) -> Context:
        return cls(project, home or Path.home(), os.environ, shutil.which)


Signal = Callable[[Context], str | None]


def _project(*names: str) -> Signal:
    def check(ctx: Context) -> str | None:
        for name in names:
            if (ctx.project / name.rstrip("/")).exists():
                return name
        return None

    return check


def _home(name: str) -> Signal:
    def check(ctx: Context) -> str | None:
        return f"~/{name}" if (ctx.home / name.rstrip("/")).is_dir() else None

    return check


def _env(*prefixes: str, exact: tuple[str, ...] = ()) -> Signal:
    def check(ctx: Context) -> str | None:
        for key in sorted(ctx.env):
            if not ctx.env.get(key):
                continue
            if key in exact or any(key.startswith(p) for p in prefixes):
                return f"${key}"
        return None

    return check


def _command(name: str) -> Signal:
    def check(ctx: Context) -> str | None:
        return f"`{name}` on PATH" if ctx.which(name) else None

    return check


def _shell(suffix: str) -> Signal:
    def check(ctx: Context) -> str | None:
        shell = ctx.env.get("SHELL", "")
        return f"$SHELL={shell}" if shell.endswith(suffix) else None

    return check


@dataclass(frozen=True)
class PlatformRow:
    key: str
    name: str
    how: str
    memory: str
    instructions: str
    signals: tuple[Signal, ...]
    #: Has its own memory the seed says not to touch (no bootstrap directive).
    native: bool = False


#: Seed 000's table, in its order. ``how`` is the seed's own wording.
TABLE: tuple[PlatformRow, ...] = (
    PlatformRow(
        "claude-code",
        "Claude Code",
        "~/.claude/ dir or CLAUDE_* env",
        "~/.claude/projects/<hash>/memory/",
        "CLAUDE.md (3 layers)",
        (_home(".claude/"), _env("CLAUDE_", exact=("CLAUDECODE",)), _command("claude")),
        native=True,
    ),
    PlatformRow(
        "codex",
        "Codex (OpenAI)",
        "AGENTS.md present or codex CLI",
        ".ai-memory/",
        "AGENTS.md",
        (_project("AGENTS.md"), _command("codex"), _env("CODEX_")),
    ),
    PlatformRow(
        "gemini",
        "Gemini CLI",
        "~/.gemini/ dir or GEMINI.md",
        ".ai-memory/",
        "GEMINI.md (3 layers)",
        (_home(".gemini/"), _project("GEMINI.md")),
    ),
    PlatformRow(
        "cursor",
        "Cursor",
        ".cursor/ dir",
        ".cursor/memory/",
        ".cursor/rules/*.mdc",
        (_project(".cursor/"),),
    ),
    PlatformRow(
        "windsurf",
        "Windsurf",
        ".windsurf/ dir or .windsurfrules",
        "Native Memories DB + .ai-memory/ backup",
        ".windsurfrules",
        (_project(".windsurf/", ".windsurfrules"),),
        native=True,
    ),
    PlatformRow(
        "cline",
        "Cline",
        ".cline/ dir or .clinerules",
        ".cline/memory/",
        ".cline/rules/",
        (_project(".cline/", ".clinerules"),),
    ),
    PlatformRow(
        "roo",
        "Roo Code",
        ".roo/ dir or .roorules",
        ".roo/memory/",
        ".roo/rules/",
        (_project(".roo/", ".roorules"),),
    ),
    PlatformRow(
        "aider",
        "Aider",
        ".aider.conf.yml",
        ".ai-memory/",
        ".aider.conf.yml",
        (_project(".aider.conf.yml"),),
    ),
    PlatformRow(
        "continue",
        "Continue.dev",
        ".continue/ dir",
        ".ai-memory/",
        ".continuerules",
        (_project(".continue/"),),
    ),
    PlatformRow(
        "copilot",
        "GitHub Copilot",
        ".github/copilot-instructions.md",
        ".ai-memory/",
        ".github/copilot-instructions.md",
        (_project(".github/copilot-instructions.md"),),
    ),
    PlatformRow(
        "amp",
        "Amp",
        "AGENT.md (Sourcegraph)",
        ".ai-memory/",
        "AGENT.md (3 layers)",
        (_project("AGENT.md"),),
    ),
    PlatformRow(
        "openclaw",
        "OpenClaw",
        "~/.openclaw/ dir or openclaw.json",
        "~/.openclaw/workspace/memory/",
        "workspace AGENTS.md + SOUL.md",
        (_home(".openclaw/"), _project("openclaw.json"), _env("OPENCLAW_")),
    ),
    PlatformRow(
        "openhands",
        "OpenHands",
        ".openhands/ dir or openhands env",
        ".ai-memory/",
        ".openhands/config.toml",
        (_project(".openhands/"), _env("OPENHANDS")),
    ),
    PlatformRow(
        "amazon-q",
        "Amazon Q",
        ".amazonq/ dir or Q env vars",
        ".ai-memory/",
        ".amazonq/rules/",
        (_project(".amazonq/"), _env("AMAZON_Q", "Q_", exact=("QTERM",))),
    ),
    PlatformRow(
        "tabnine",
        "Tabnine",
        ".tabnine/ dir",
        ".ai-memory/",
        "Tabnine IDE settings",
        (_project(".tabnine/"),),
    ),
    PlatformRow(
        "supermaven",
        "Supermaven",
        ".supermaven/ dir",
        ".ai-memory/",
        "Supermaven IDE settings",
        (_project(".supermaven/"),),
    ),
    PlatformRow(
        "devin",
        "Devin",
        "Cloud environment",
        ".ai-memory/ in repo",
        "Cloud Knowledge base",
        (_env("DEVIN"),),
    ),
    PlatformRow(
        "bolt",
        "bolt.new",
        "WebContainer environment",
        ".ai-memory/",
        "UI System Prompt",
        (_env("WEBCONTAINER", "STACKBLITZ"), _shell("/jsh")),
    ),
)
#: The fallback when no row matches. One name everywhere: "universal" is the platform of a
#: session ID (``universal-main-agent``) and of a typed memory's frontmatter alike.
FALLBACK_KEY = "universal"
UNKNOWN = PlatformRow(
    FALLBACK_KEY, "Universal", "None of above", ".ai-memory/ in project root", "—", ()
)
_BY_KEY = {row.key: row for row in (*TABLE, UNKNOWN)}
_ALIASES = {
    "gemini-cli": "gemini",
    "roo-code": "roo",
    "continue.dev": "continue",
    "amazonq": "amazon-q",
    "bolt.new": "bolt",
    "unknown": FALLBACK_KEY,
}


def claude_project_dir(project: Path) -> str:
    """Claude Code's folder name for a project: every non-alphanumeric character -> ``-``."""
    return _NON_ALNUM.sub("-", str(project))


@dataclass(frozen=True)
class Detection:
    row: PlatformRow
    signal: str
    memory_path: Path
    instructions: str

    @property
    def key(self) -> str:
        return self.row.key

    @property
    def name(self) -> str:
        return self.row.name

    def to_dict(self) -> dict[str, Any]:
        return {
            "platform": self.row.key,
            "name": self.row.name,
            "signal": self.signal,
            "how": self.row.how,
            "memory_path": str(self.memory_path),
            "memory_path_seed": self.row.memory,
            "instructions_file": self.instructions,
            "native_memory": self.row.native,
        }


def memory_path(row: PlatformRow, ctx: Context) -> Path:
    """Where the platform keeps memory, resolved for this project and home folder."""
    if row.key == "claude-code":
        return ctx.home / ".claude" / "projects" / claude_project_dir(ctx.project) / "memory"
    if row.key == "openclaw":
        return ctx.home / ".openclaw" / "workspace" / "memory"
    native = {"cursor": ".cursor/memory", "cline": ".cline/memory", "roo": ".roo/memory"}
    return ctx.project / native.get(row.key, ".ai-memory")


def row_for(key: str) -> PlatformRow:
    name = key.strip().casefold()
    row = _BY_KEY.get(_ALIASES.get(name, name))
    if row is None:
        known = ", ".join(r.key for r in (*TABLE, UNKNOWN))
        raise UsageError(f"unknown platform {key!r}; known: {known}")
    return row


def detect(
    ctx: Context, configured: str | None = None, *, override_env: str = "WORKMEM_PLATFORM"
) -> Detection:
    """The first row whose signal matches; an explicit setting wins over the table."""
    explicit = ctx.env.get(override_env)
    if explicit or configured:
        row = row_for(explicit or configured or "")
        why = f"${override_env}={explicit}" if explicit else f"workmem.toml platform = {configured}"
        return Detection(row, why, memory_path(row, ctx), row.instructions)
    for row in TABLE:
        for check in row.signals:
            found = check(ctx)
            if found:
                return Detection(row, found, memory_path(row, ctx), row.instructions)
    return Detection(UNKNOWN, "none of the signals matched", memory_path(UNKNOWN, ctx), "—")


def detect_all(ctx: Context) -> list[Detection]:
    """Every row whose signals match, in the table's order: one machine often runs several
    agents on one project, and ``setup`` serves each of them (``detect`` picks one)."""
    found: list[Detection] = []
    for row in TABLE:
        signal = next((hit for check in row.signals if (hit := check(ctx))), None)
        if signal:
            found.append(Detection(row, signal, memory_path(row, ctx), row.instructions))
    return found


def detect_platform(project: Path, home: Path | None = None) -> Detection:
    """Detection for a real project folder, honouring workmem.toml's ``platform``."""
    from ..config import load_settings
    from ..root import Workspace

    configured = load_settings(Workspace(project)).platform
    return detect(Context.current(project, home), configured)
