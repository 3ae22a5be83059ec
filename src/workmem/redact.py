"""One redactor for everything that enters memory from a transcript or a tool's output.

Agents paste keys into chats and tools echo ``.env`` files; a memory file is read by every
later session and often committed to git, so a secret that reaches one leaks for good.
Each pattern replaces the secret itself with ``[REDACTED:<kind>]`` and keeps the words
around it, so the memory still says *that* a key was set, never *which*.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from re import Match

_SECRET_NAME = (
    r"[A-Za-z0-9_.-]*(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey"
    r"|access[_-]?key|private[_-]?key|client[_-]?secret|auth[_-]?key|credentials?)[A-Za-z0-9_.-]*"
)

# (kind, pattern, group to replace or 0 for the whole match). Order matters: specific first.
_PATTERNS: list[tuple[str, re.Pattern[str], int]] = [
    (
        "private-key",
        re.compile(
            r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
            r"(?:.*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|.*\Z)",
            re.S,
        ),
        0,
    ),
    ("anthropic-key", re.compile(r"\bsk-ant-[A-Za-z0-9_-]{16,}"), 0),
    ("openai-key", re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}"), 0),
    (
        "github-token",
        re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})"),
        0,
    ),
    ("gitlab-token", re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}"), 0),
    ("aws-access-key", re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b"), 0),
    ("google-api-key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}"), 0),
    ("slack-token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}"), 0),
    ("slack-webhook", re.compile(r"https://hooks\.slack\.com/services/[A-Za-z0-9/_-]+"), 0),
    ("stripe-key", re.compile(r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}"), 0),
    ("huggingface-token", re.compile(r"\bhf_[A-Za-z0-9]{30,}"), 0),
    ("npm-token", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b"), 0),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"), 0),
    ("bearer-token", re.compile(r"(?i)\bbearer\s+([A-Za-z0-9._~+/=-]{16,})"), 1),
    ("url-password", re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s:/@]+:([^\s@/]+)@"), 1),
    (
        "assignment",
        re.compile(
            rf"(?i)\b{_SECRET_NAME}[\"']?\s*(?:=|:|=>)\s*(?P<q>[\"'])(?P<value>[^\"'\n]{{4,}})(?P=q)"
        ),
        -1,
    ),
    (
        "assignment",
        re.compile(rf"(?i)\b{_SECRET_NAME}[\"']?\s*(?:=|:|=>)\s*(?P<value>[^\s\"',;]{{4,}})"),
        -1,
    ),
]
_ALREADY = re.compile(r"^\[REDACTED(?::[a-z-]+)?\]$")


def _replace_group(kind: str, group: int) -> Callable[[Match[str]], str]:
    def replace(match: Match[str]) -> str:
        whole = match.group(0)
        if group == 0:
            return f"[REDACTED:{kind}]"
        name = "value" if group == -1 else group
        value = match.group(name)
        start = match.start(name) - match.start(0)
        return whole[:start] + f"[REDACTED:{kind}]" + whole[start + len(value) :]

    return replace


def _is_harmless(match: Match[str]) -> bool:
    """Assignments whose value is a number, a placeholder or already redacted."""
    value = match.group("value")
    return (
        value.replace(".", "").replace("_", "").isdigit()
        or bool(_ALREADY.match(value))
        or value.startswith(("[REDACTED", "$", "${", "<", "%"))
        or value.lower() in {"none", "null", "true", "false", "required", "optional", "xxxx"}
    )


def _apply(text: str, kind: str, pattern: re.Pattern[str], group: int) -> tuple[str, int]:
    replace = _replace_group(kind, group)
    count = 0

    def counted(match: Match[str]) -> str:
        nonlocal count
        if kind == "assignment" and _is_harmless(match):
            return match.group(0)
        count += 1
        return replace(match)

    return pattern.sub(counted, text), count


def redact(text: str) -> tuple[str, int]:
    """``text`` with every recognised secret replaced, and how many were replaced."""
    if not text:
        return text, 0
    total = 0
    for kind, pattern, group in _PATTERNS:
        text, count = _apply(text, kind, pattern, group)
        total += count
    return text, total
