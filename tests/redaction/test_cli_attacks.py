"""Secrets handed to the real CLI reach no file under the root: memory files nor the index.

Each command runs as its own process (as an agent runs it), with secrets of several kinds
in every free-text option. Afterwards every byte under the root is searched, the search
index database and its journal included; the redaction markers prove the text itself was
written, only without the secret.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

SID = "2026-05-25-1318-cursor-main-agent"

ANTHROPIC = "sk-ant-api03-" + "Qm7xV2pL9kR4tW8z" * 3
GITHUB = "ghp_" + "aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ4nB8vT2m"
DB_PASS = "Pg4-Vault_9931xx"
SPOKEN = "Kettle9-Orchid"
MYSQL = "Myq7Root!pw"
SENDGRID = "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"
BASIC_USERPASS = "deploy:Bas1c-Cred-Zeta"  # sent base64-encoded below
STRIPE = "sk_live_" + "51HxQ2kLmN8pR4tV6wY0zB3dF5"
DB_URL_PASS = "Url5ecretPw"
FLAG_TOKEN = "flagTok3n-7781-QQ"
TWILIO = "SK" + "0123456789abcdef" * 2
NPM = "npm_" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2"
CHINESE = "Zh0ngWen-Mima"
AZURE = "Zm9vYmFyYmF6cXV4" * 5 + "AbCd1234=="
NESTED = "Cr3dBlock-Value77"

SECRETS = [
    ANTHROPIC,
    GITHUB,
    AWS_SECRET,
    DB_PASS,
    SPOKEN,
    MYSQL,
    SENDGRID,
    "Bas1c-Cred-Zeta",
    "ZGVwbG95OkJhczFjLUNyZWQtWmV0YQ",  # the base64 of BASIC_USERPASS, without padding
    STRIPE,
    DB_URL_PASS,
    FLAG_TOKEN,
    TWILIO,
    NPM,
    CHINESE,
    AZURE,
    NESTED,
]


def _basic() -> str:
    import base64

    return base64.b64encode(BASIC_USERPASS.encode()).decode()


Run = Callable[..., str]


@pytest.fixture
def workmem(root: Path, tmp_path: Path) -> Run:
    exe = shutil.which("workmem", path=str(Path(sys.executable).parent))
    command = [exe] if exe else [sys.executable, "-m", "workmem"]
    env = {
        **os.environ,
        "WORKMEM_ROOT": str(root),
        "WORKMEM_SESSION_ID": SID,
        "HOME": str(tmp_path / "home"),
    }

    def run(*args: str, stdin: str | None = None) -> str:
        done = subprocess.run(
            [*command, *args],
            input=stdin,
            capture_output=True,
            text=True,
            env=env,
            cwd=root,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, f"{args[:2]} failed: {done.stdout}\n{done.stderr}"
        return done.stdout

    return run


def _all_bytes(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }


def _leaks(root: Path) -> list[tuple[str, str]]:
    found = []
    for rel, data in _all_bytes(root).items():
        for secret in SECRETS:
            if secret.encode() in data:
                found.append((rel, secret))
    return found


def test_every_writer_command_stores_no_secret(root: Path, workmem: Run) -> None:
    run = workmem
    run("init")
    run(
        "session",
        "register",
        "--topic",
        f"Deploy key {ANTHROPIC}",
        "--keywords",
        f"deploy, token={GITHUB}",
        "--context",
        "-",
        stdin=(
            f"We set export DB_PASS={DB_PASS} for staging.\n"
            "The config we pasted:\n\ncredentials:\n"
            f"  aws_secret_access_key: {AWS_SECRET}\n"
            f"  default: {NESTED}\n"
        ),
    )
    board = (root / "memory" / "index.md").read_text()
    sid = next(line.split("|")[1].strip() for line in board.splitlines() if "Deploy key" in line)
    run(
        "session",
        "update",
        sid,
        "--summary",
        f"my password is {SPOKEN} (do not share)",
        "--section",
        f"Decisions=Seed the db with mysql -u root -p{MYSQL} app",
        "--section",
        f"Next Actions=Rotate the SendGrid key {SENDGRID}\nCheck Authorization: Basic {_basic()}",
    )
    run("session", "update", sid, "--section", f"Next Actions=Rotate the SendGrid key {SENDGRID}")
    run("note", "decision", f"Charge with {STRIPE}", "--why", f"postgres://app:{DB_URL_PASS}@db/x")
    run(
        "event",
        "add",
        "--type",
        "issue",
        "--text",
        f"CI failed: deploy.sh --token {FLAG_TOKEN} was rejected on 3/15",
    )
    run(
        "memory",
        "add",
        "--type",
        "reference",
        "--topic",
        "twilio",
        "--description",
        "SMS provider",
        "--content",
        f"API key SID {TWILIO}; publish with npm token {NPM}",
    )
    run(
        "relay",
        "snapshot",
        "--force",
        "--in-progress",
        f"Wiring storage: AccountKey={AZURE};EndpointSuffix=core.windows.net",
        "--decision",
        f"密碼是 {CHINESE}，只給部署用",
    )
    run(
        "end",
        "--summary",
        f"Deployed. The admin password is {SPOKEN}x9 now; key {ANTHROPIC}",
        "--resumption",
        f"Next I rotate {GITHUB} and DB_PASS={DB_PASS}",
    )
    found = json.loads(run("search", "SendGrid key", "--json"))
    assert any("[REDACTED:sendgrid-key]" in hit["snippet"] for hit in found["hits"])

    assert _leaks(root) == []
    files = _all_bytes(root)
    assert any(name.endswith((".sqlite", ".db", ".sqlite3")) for name in files) or any(
        ".workmem/" in name and b"SQLite format 3" in data[:16] for name, data in files.items()
    ), "the search index database exists, so it was searched too"
    everything = b"\n".join(files.values()).decode("utf-8", "replace")
    for kind in (
        "anthropic-key",
        "github-token",
        "assignment",
        "nested-secret",
        "password-phrase",
        "cli-password",
        "sendgrid-key",
        "basic-auth",
        "stripe-key",
        "url-password",
        "cli-flag",
        "twilio-key",
        "npm-token",
        "azure-key",
    ):
        assert f"[REDACTED:{kind}]" in everything, kind
    snapshot = (root / "memory" / "sessions" / f"{sid}.md").read_text()
    assert "Seed the db with mysql -u root -p[REDACTED:cli-password] app" in snapshot
    assert snapshot.count("Rotate the SendGrid key [REDACTED:sendgrid-key]") == 1, (
        "the re-sent item matched the redacted one instead of being added again"
    )
    assert "We set export DB_PASS=[REDACTED:assignment] for staging." in snapshot


def test_a_secret_written_by_hand_is_kept_out_of_the_index(root: Path, workmem: Run) -> None:
    """A person may paste a key into a memory file with an editor: search never stores it."""
    run = workmem
    run("init")
    (root / "memory" / "2026-05-24.md").write_text(
        f"# 2026-05-24\n\n### Session 1 · 10:00 · editor\n\nSet GITHUB_TOKEN={GITHUB} on CI.\n",
        "utf-8",
    )
    found = json.loads(run("search", "GITHUB_TOKEN on CI", "--json"))
    assert [hit["snippet"] for hit in found["hits"]] == [
        "Set GITHUB_TOKEN=[REDACTED:github-token] on CI."
    ]
    leaks = [(rel, s) for rel, s in _leaks(root) if rel != "memory/2026-05-24.md"]
    assert leaks == []
