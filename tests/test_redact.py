"""Planted secrets of every kind are replaced; ordinary text is left alone."""

from __future__ import annotations

import pytest

from workmem.redact import redact

SECRETS = {
    "anthropic": "sk-ant-api03-" + "a1B2c3D4e5" * 4,
    "openai": "sk-proj-" + "Zx9Yw8Vu7T" * 4,
    "github": "ghp_" + "abcdEFGH12" * 4,
    "github-pat": "github_pat_" + "11ABCDEFG0" * 5,
    "aws": "AKIAIOSFODNN7EXAMPL2",
    "google": "AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q",
    "slack": "xoxb-1234567890-abcdefghijkl",
    "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
    + "dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gF",
}


@pytest.mark.parametrize("name", sorted(SECRETS))
def test_known_key_formats_are_redacted(name: str) -> None:
    secret = SECRETS[name]
    text, count = redact(f"here is the key: {secret} keep this")
    assert secret not in text
    assert count >= 1
    assert text.endswith("keep this")


@pytest.mark.parametrize(
    "line, secret",
    [
        ("Authorization: Bearer abcdefghijklmnopqrstuvwxyz123", "abcdefghijklmnopqrstuvwxyz123"),
        ("DATABASE_URL=postgres://app:hunter2hunter2@db/prod", "hunter2hunter2"),
        ('password = "correct horse"', "correct"),
        ("DB_PASSWORD=Sup3rS3cret!", "Sup3rS3cret!"),
        ("client_secret: 8f14e45fceea167a5a36dedd4bea2543", "8f14e45fceea167a5a36dedd4bea2543"),
        ("export STRIPE_SECRET=sk_live_4eC39HqLyjWDarjtT1zd", "sk_live_4eC39HqLyjWDarjtT1zd"),
    ],
)
def test_assignments_urls_and_bearer_tokens(line: str, secret: str) -> None:
    text, count = redact(line)
    assert secret not in text
    assert count == 1
    assert "[REDACTED" in text


def test_private_key_block_even_when_cut_off() -> None:
    block = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n"
    text, count = redact("before\n" + block)
    assert "b3BlbnNzaC1rZXktdjEAAAAA" not in text and count == 1
    assert text.startswith("before\n")


@pytest.mark.parametrize(
    "harmless",
    [
        "max_tokens: 4096",
        "input_tokens=1200",
        "token: ${GITHUB_TOKEN}",
        "the password field is required",
        "我們把 API key 放在環境變數裡",
        "see https://example.com/docs",
    ],
)
def test_ordinary_text_is_untouched(harmless: str) -> None:
    assert redact(harmless) == (harmless, 0)


def test_redaction_is_idempotent() -> None:
    once, _ = redact("api_key=abcd1234efgh5678")
    assert redact(once) == (once, 0)
