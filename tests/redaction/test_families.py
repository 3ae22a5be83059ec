"""Every family of variants loses every secret it holds; every near-miss stays as it is.

A family is one format written every way people paste it (``families``): a detector that
knows one spelling and misses the next fails here by name. A secret counts as kept when
any 12 characters of it survive (a cut-off piece is still a leak). A text that was valid
JSON is still valid JSON after redaction, and redacting twice changes nothing.
"""

from __future__ import annotations

import json

import pytest

from workmem.redact import redact

from .families import NEAR_MISSES, Family, all_families

FAMILIES = all_families()
PIECE = 12


def leaked(secret: str, clean: str) -> bool:
    if len(secret) <= PIECE:
        return secret in clean
    return any(secret[i : i + PIECE] in clean for i in range(len(secret) - PIECE + 1))


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("family", FAMILIES, ids=[f.name for f in FAMILIES])
def test_every_variant_of_a_family_loses_its_secret(family: Family) -> None:
    kept = []
    for variant in family.variants:
        clean, count = redact(variant.text)
        if count == 0 or any(leaked(secret, clean) for secret in variant.secrets):
            kept.append(f"{variant.label}: {clean[:160]!r}")
            continue
        if _is_json(variant.text):
            assert _is_json(clean), (variant.label, clean)
        assert redact(clean) == (clean, 0), variant.label
    assert kept == []


def test_the_families_cover_every_new_format_and_the_five_languages() -> None:
    names = {family.name for family in FAMILIES}
    for wanted in (
        "putty private key",
        "token: discord bot token",
        "token: discord webhook",
        "oracle user/password@db",
        "base64-encoded private key",
        "docker config auth",
        "token: linear api key",
        "token: atlassian api token",
        "spoken: ko",
        "named: colon label, then the setting",
        "named: colon label, then a colon",
        "named: inline key chain",
        "authorization headers",
    ):
        assert wanted in names
    assert {"spoken: en", "spoken: zh_tw", "spoken: zh_cn", "spoken: ja", "spoken: ko"} <= names
    assert sum(len(f.variants) for f in FAMILIES) >= 600


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_what_must_stay_stays(text: str) -> None:
    assert redact(text) == (text, 0)


def test_the_issue_examples_exactly() -> None:
    """The shapes the attack found stored as they were, each with its words kept."""
    cases = {
        'Set the password: password = "Zq8xN2vL5p"': (
            'Set the password: password = "[REDACTED:assignment]"'
        ),
        "Update token: token: Zq8xN2vL5pR7": "Update token: token: [REDACTED:assignment]",
        "credentials:   aws_secret_access_key: wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ4nB8vT2m": (
            "credentials:   aws_secret_access_key: [REDACTED:assignment]"
        ),
        "비밀번호는 Kettle9-Orchid 입니다": "비밀번호는 [REDACTED:password-phrase] 입니다",
        "--- PASS: TestWriteCommitted_BranchField (0.01s)": (
            "--- PASS: TestWriteCommitted_BranchField (0.01s)"
        ),
        "USER: admin\nPASS: Kettle9-Orchid": "USER: admin\nPASS: [REDACTED:assignment]",
    }
    for text, expected in cases.items():
        assert redact(text)[0] == expected
