"""Finding a workspace's transcripts where each agent keeps them, under the user's home.

- claude-code: ``~/.claude/projects/<cwd with non-alphanumerics as ->/*.jsonl``, by folder;
- codex: ``~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl``, by ``session_meta.cwd``;
- gemini: ``~/.gemini/tmp/<sha256(cwd) or name>/chats/session-*``, by hash or ``.project_root``;
- cursor: ``~/.cursor/projects/<cwd as dashes>/agent-transcripts/``, by folder;
- openclaw: ``~/.openclaw/agents/<agent>/sessions/*.jsonl``, by the header's ``cwd``; from
  2026.9 the sessions in ``~/.openclaw/agents/<agent>/agent/openclaw-agent.sqlite``, by the
  same header (a session's path is the database's followed by its id, see
  ``openclaw_store.py``).

``home`` is a parameter (tests and other users' folders); by default ``$HOME``. The
environment overrides the agents themselves honour (``CLAUDE_CONFIG_DIR``, ``CODEX_HOME``,
``OPENCLAW_STATE_DIR``) apply only when no ``home`` is given.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

from ..errors import NotFoundError, UsageError
from .naming import PLATFORMS, normalize_platform

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hooks pay for it)
if TYPE_CHECKING:
    from .model import TranscriptRef

TRANSCRIPT_ENV = "WORKMEM_TRANSCRIPT"
_NON_ALNUM = re.compile(r"[^A-Za-z0-9]")
_UUID_TAIL = re.compile(r"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$")
_FIRST_LINE_LIMIT = 4 * 1024 * 1024


def _home(home: Path | None) -> Path:
    return Path(home) if home is not None else Path(os.environ.get("HOME") or Path.home())


def _env_dir(name: str, home: Path | None) -> Path | None:
    value = os.environ.get(name) if home is None else None
    return Path(value) if value else None


def _forms(workspace: Path) -> list[str]:
    forms = [str(workspace)]
    try:
        resolved = str(workspace.resolve())
    except OSError:
        resolved = str(workspace)
    if resolved not in forms:
        forms.append(resolved)
    return forms


def _inside(cwd: str | None, workspace: Path) -> bool:
    if not cwd:
        return False
    candidate = Path(cwd)
    for form in _forms(workspace):
        base = Path(form)
        if candidate == base or base in candidate.parents:
            return True
    return False


def _first_record(path: Path) -> dict[str, object]:
    from ..errors import WorkmemError
    from ..files.bounded import open_regular

    try:
        with open_regular(path, what="transcript") as handle:  # a pipe is passed over
            line = handle.readline(_FIRST_LINE_LIMIT)
    except (OSError, WorkmemError):
        return {}
    try:
        value = json.loads(line)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _ref(platform: str, path: Path, session_id: str | None = None) -> TranscriptRef | None:
    from .model import TranscriptRef  # only once a transcript is found
    from .openclaw_paths import split_session_path

    store = split_session_path(path)  # a session in OpenClaw's database: the database's
    try:
        stat = (store[0] if store and not path.exists() else path).stat()
    except OSError:
        return None
    from ..files.bounded import kind_of

    if kind_of(stat.st_mode) is not None:
        return None  # a pipe, device or socket under a transcript's name: not listed
    return TranscriptRef(platform, path, session_id or path.stem, stat.st_mtime, stat.st_size)


def _claude(workspace: Path, home: Path | None) -> Iterator[TranscriptRef]:
    base = _env_dir("CLAUDE_CONFIG_DIR", home) or _home(home) / ".claude"
    for form in _forms(workspace):
        folder = base / "projects" / _NON_ALNUM.sub("-", form)
        if not folder.is_dir():
            continue
        for path in folder.glob("*.jsonl"):
            if not path.name.startswith("agent-"):
                ref = _ref("claude-code", path)
                if ref:
                    yield ref


def _codex(workspace: Path, home: Path | None) -> Iterator[TranscriptRef]:
    base = _env_dir("CODEX_HOME", home) or _home(home) / ".codex"
    for folder in (base / "sessions", base / "archived_sessions"):
        if not folder.is_dir():
            continue
        for path in folder.rglob("rollout-*.jsonl"):
            first = _first_record(path)
            payload = first.get("payload") if first.get("type") == "session_meta" else None
            if not isinstance(payload, dict) or not _inside(
                str(payload.get("cwd") or ""), workspace
            ):
                continue
            tail = _UUID_TAIL.search(path.stem)
            session_id = payload.get("id")
            ref = _ref(
                "codex",
                path,
                session_id if isinstance(session_id, str) else (tail.group(1) if tail else None),
            )
            if ref:
                yield ref


_GEMINI_ID = re.compile(rb'"sessionId"\s*:\s*("(?:[^"\\]|\\.)*")')


def _gemini_session_id(path: Path) -> str | None:
    """The session id Gemini CLI wrote into the file (its hooks and the reader use it), read
    from the head of the file only: a ``.jsonl`` starts with it, a ``.json`` names it early."""
    from ..files.bounded import read_head

    head = read_head(path, 64 * 1024)
    match = _GEMINI_ID.search(head)
    if match is None:
        return None
    try:
        value = json.loads(match.group(1))
    except ValueError:
        return None
    return value if isinstance(value, str) and value else None


def _gemini(workspace: Path, home: Path | None) -> Iterator[TranscriptRef]:
    base = _home(home) / ".gemini" / "tmp"
    if not base.is_dir():
        return
    import hashlib  # Gemini CLI names project folders by the SHA-256 of their path

    hashes = {hashlib.sha256(form.encode()).hexdigest() for form in _forms(workspace)}
    for project in base.iterdir():
        marker = project / ".project_root"
        matched = project.name in hashes
        if not matched and marker.is_file():
            from ..files.bounded import read_head

            named = read_head(marker, 64 * 1024).decode("utf-8", "replace")
            matched = _inside(named.strip(), workspace)
        if not matched:
            continue
        for path in sorted((project / "chats").glob("session-*")):
            if path.suffix in (".json", ".jsonl"):
                ref = _ref("gemini", path, _gemini_session_id(path))
                if ref:
                    yield ref


def _cursor(workspace: Path, home: Path | None) -> Iterator[TranscriptRef]:
    base = _home(home) / ".cursor" / "projects"
    for form in _forms(workspace):
        names = {
            _NON_ALNUM.sub("-", form).strip("-"),
            _NON_ALNUM.sub("-", form),
            form.strip("/").replace("/", "-"),
        }
        for name in sorted(names):
            folder = base / name / "agent-transcripts"
            if not folder.is_dir():
                continue
            for path in folder.rglob("*.jsonl"):
                if "subagents" in path.relative_to(folder).parts:
                    continue
                ref = _ref("cursor", path)
                if ref:
                    yield ref


def _openclaw(workspace: Path, home: Path | None) -> Iterator[TranscriptRef]:
    base = _env_dir("OPENCLAW_STATE_DIR", home) or _home(home) / ".openclaw"
    agents = base / "agents"
    if not agents.is_dir():
        return
    for path in agents.glob("*/sessions/*.jsonl"):
        header = _first_record(path)
        if header.get("type") == "session" and _inside(str(header.get("cwd") or ""), workspace):
            session_id = header.get("id")
            ref = _ref("openclaw", path, session_id if isinstance(session_id, str) else None)
            if ref:
                yield ref
    yield from _openclaw_store(agents, workspace)


def _openclaw_store(agents: Path, workspace: Path) -> Iterator[TranscriptRef]:
    """OpenClaw 2026.9+: the sessions in each agent's SQLite database, by their header's
    ``cwd``. A database that cannot be read (locked, corrupt, another schema) is passed
    over: finding transcripts never fails for one of them."""
    from .openclaw_paths import DATABASE_NAME

    databases = [p for p in agents.glob(f"*/agent/{DATABASE_NAME}") if p.is_file()]
    if not databases:
        return
    from ..errors import WorkmemError
    from .model import TranscriptRef
    from .openclaw_store import list_sessions

    for database in databases:
        try:
            sessions = list_sessions(database)
        except WorkmemError:
            continue
        for session in sessions:
            if _inside(session.cwd, workspace):
                yield TranscriptRef(
                    "openclaw", session.path, session.session_id, session.modified, session.size
                )


_FINDERS = {
    "claude-code": _claude,
    "codex": _codex,
    "gemini": _gemini,
    "cursor": _cursor,
    "openclaw": _openclaw,
}


def searched_folders(
    workspace_dir: Path, platform: str | None = None, home: Path | None = None
) -> list[tuple[str, Path, str]]:
    """Where ``find_transcripts`` looks for this workspace: (platform, folder, how it tells
    a transcript of this workspace), for telling a person who found nothing where to look."""
    workspace = Path(workspace_dir)
    chosen = normalize_platform(platform)
    claude = _env_dir("CLAUDE_CONFIG_DIR", home) or _home(home) / ".claude"
    codex = _env_dir("CODEX_HOME", home) or _home(home) / ".codex"
    openclaw = _env_dir("OPENCLAW_STATE_DIR", home) or _home(home) / ".openclaw"
    cursor = _home(home) / ".cursor" / "projects"
    import hashlib

    gemini = _home(home) / ".gemini" / "tmp"
    places = [
        *(("claude-code", claude / "projects" / _NON_ALNUM.sub("-", f), "by folder name")
          for f in _forms(workspace)),
        ("codex", codex / "sessions", "sessions started in this folder"),
        ("codex", codex / "archived_sessions", "sessions started in this folder"),
        ("gemini", gemini / hashlib.sha256(str(workspace).encode()).hexdigest() / "chats",
         "by the folder's hash, or a .project_root naming it"),
        *(("cursor", cursor / _NON_ALNUM.sub("-", f).strip("-") / "agent-transcripts",
           "by folder name") for f in _forms(workspace)),
        ("openclaw", openclaw / "agents", "sessions started in this folder"),
    ]  # fmt: skip
    unique = dict.fromkeys(places)
    return [place for place in unique if chosen in (None, place[0])]


def find_transcripts(
    workspace_dir: Path, platform: str | None = None, home: Path | None = None
) -> list[TranscriptRef]:
    """The workspace's transcripts on this machine, newest first."""
    chosen = normalize_platform(platform)
    names = [chosen] if chosen else list(PLATFORMS)
    found: dict[Path, TranscriptRef] = {}
    for name in names:
        for ref in _FINDERS[name](Path(workspace_dir), home):
            found.setdefault(ref.path, ref)
    return sorted(found.values(), key=lambda r: (r.modified, str(r.path)), reverse=True)


def resolve_transcript(
    key: str,
    workspace_dir: Path,
    platform: str | None = None,
    home: Path | None = None,
) -> Path:
    """A transcript file from its path, or from a platform session id (or a unique prefix)."""
    from .openclaw_paths import transcript_exists

    candidate = Path(key).expanduser()
    if transcript_exists(candidate):
        return candidate
    if not key or "/" in key or "\\" in key or key.startswith(".") or "\0" in key:
        raise UsageError(f"{key!r} is neither a transcript file nor a session id")
    refs = find_transcripts(workspace_dir, platform, home)
    exact = [r for r in refs if key in (r.session_id, r.path.stem)]
    if not exact:
        exact = [r for r in refs if r.path.stem.endswith(key)]
    if not exact and len(key) >= 6:
        exact = [r for r in refs if r.session_id.startswith(key)]
    if not exact:
        raise NotFoundError(f"no transcript of session {key!r} for {workspace_dir}")
    if len({r.path for r in exact}) > 1:
        names = ", ".join(sorted(r.session_id for r in exact)[:5])
        raise UsageError(f"session id {key!r} is ambiguous: {names}")
    return exact[0].path


def current_transcript(
    workspace_dir: Path, platform: str | None = None, home: Path | None = None
) -> TranscriptRef | None:
    """The transcript of the session running now: ``$WORKMEM_TRANSCRIPT``, else the newest."""
    named = os.environ.get(TRANSCRIPT_ENV)
    if named:
        from .openclaw_paths import transcript_exists

        path = Path(named)
        if not transcript_exists(path):
            raise NotFoundError(f"${TRANSCRIPT_ENV} names {named}, which does not exist")
        from .naming import platform_from_path

        return _ref(normalize_platform(platform) or platform_from_path(path) or "unknown", path)
    refs = find_transcripts(workspace_dir, platform, home)
    return refs[0] if refs else None


def platform_folders(home: Path | None = None) -> list[tuple[str, Path]]:
    """Every folder where an agent keeps its transcripts, for any project: (platform,
    folder). What a transcript path handed in from outside must lie in (``places``)."""
    claude = _env_dir("CLAUDE_CONFIG_DIR", home) or _home(home) / ".claude"
    codex = _env_dir("CODEX_HOME", home) or _home(home) / ".codex"
    openclaw = _env_dir("OPENCLAW_STATE_DIR", home) or _home(home) / ".openclaw"
    return [
        ("claude-code", claude / "projects"),
        ("codex", codex / "sessions"),
        ("codex", codex / "archived_sessions"),
        ("gemini", _home(home) / ".gemini" / "tmp"),
        ("cursor", _home(home) / ".cursor" / "projects"),
        ("openclaw", openclaw / "agents"),
    ]
