"""The optional LLM extractor: an OpenAI-compatible or Anthropic endpoint the user configured.

It is restricted the way seed 003's background agent is: it receives the notes and the
recent (redacted) conversation and may only answer with edits to named sections, as JSON
``{"edits": [{"section": "...", "content": "..."}]}``. Answers that break the rules are
sent back with the reason, at most 4 turns, all within 3 minutes; any failure raises
``ExtractionError`` and the caller leaves the notes as they were. Only the standard
library's HTTP client is used: no SDK is needed.

Configuration, ``[llm]`` in workmem.toml: ``provider`` ("openai" or "anthropic"),
``base_url``, ``model``, ``api_key_env`` (the name of the environment variable holding the
key: the key itself never goes into a file), ``max_tokens``.
"""

from __future__ import annotations

import json
import os
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

from .template import NAMES, SECTIONS
from .validate import ExtractionError, check_edits

MAX_TURNS = 4
MAX_SECONDS = 180.0
_TRANSCRIPT_CHARS = 60_000


@dataclass(frozen=True)
class LlmConfig:
    provider: str
    base_url: str
    model: str
    api_key: str | None = None
    max_tokens: int = 4096

    @classmethod
    def from_table(cls, table: dict[str, Any]) -> LlmConfig:
        provider = str(table.get("provider", "openai")).lower()
        if provider not in ("openai", "anthropic"):
            raise ExtractionError(f"[llm] provider must be openai or anthropic, got {provider!r}")
        base_url = table.get("base_url") or (
            "https://api.anthropic.com" if provider == "anthropic" else "https://api.openai.com/v1"
        )
        model = table.get("model")
        if not isinstance(model, str) or not model:
            raise ExtractionError("[llm] model is not set")
        key_env = table.get("api_key_env")
        api_key = os.environ.get(key_env) if isinstance(key_env, str) else None
        max_tokens = table.get("max_tokens", 4096)
        return cls(provider, str(base_url).rstrip("/"), model, api_key, int(max_tokens))


SYSTEM_PROMPT = (
    "You maintain a session-notes file for a coding agent. You can only edit its sections; "
    "you cannot read files or run commands. Answer with JSON only, of the form "
    '{"edits": [{"section": "<section name>", "content": "<new content>"}]}. '
    "Include only sections whose content should change. Section names are exactly: "
    + "; ".join(f"{name} ({purpose})" for name, purpose in SECTIONS)
    + ". Never write headers (lines starting with #) or the italic description lines. "
    "Keep each section under about 2,000 tokens and all of them under 12,000. Be concrete: "
    "file paths, commands, error messages. Current State matters most."
)


def _conversation(transcript_text: str) -> str:
    if len(transcript_text) <= _TRANSCRIPT_CHARS:
        return transcript_text
    return "[… earlier conversation omitted …]\n" + transcript_text[-_TRANSCRIPT_CHARS:]


def _post(url: str, body: dict[str, Any], headers: dict[str, str], timeout: float) -> Any:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json", **headers},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as exc:
        raise ExtractionError(f"LLM endpoint answered HTTP {exc.code}") from None
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        raise ExtractionError(f"LLM endpoint unreachable: {exc}") from None
    except ValueError:
        raise ExtractionError("LLM endpoint returned something that is not JSON") from None


def _ask(config: LlmConfig, messages: list[dict[str, str]], timeout: float) -> str:
    if config.provider == "anthropic":
        headers = {"anthropic-version": "2023-06-01"}
        if config.api_key:
            headers["x-api-key"] = config.api_key
        reply = _post(
            f"{config.base_url}/v1/messages",
            {
                "model": config.model,
                "max_tokens": config.max_tokens,
                "system": SYSTEM_PROMPT,
                "messages": messages,
            },
            headers,
            timeout,
        )
        try:
            return "".join(b.get("text", "") for b in reply["content"] if isinstance(b, dict))
        except (KeyError, TypeError):
            raise ExtractionError("Anthropic reply has no content") from None
    headers = {"authorization": f"Bearer {config.api_key}"} if config.api_key else {}
    reply = _post(
        f"{config.base_url}/chat/completions",
        {
            "model": config.model,
            "temperature": 0,
            "max_tokens": config.max_tokens,
            "messages": [{"role": "system", "content": SYSTEM_PROMPT}, *messages],
        },
        headers,
        timeout,
    )
    try:
        return str(reply["choices"][0]["message"]["content"])
    except (KeyError, IndexError, TypeError):
        raise ExtractionError("OpenAI-compatible reply has no message content") from None


def parse_edits(answer: str) -> dict[str, str]:
    text = answer.strip()
    if text.startswith("```"):
        text = text.strip("`")
        text = text[text.find("{") :] if "{" in text else text
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end < start:
        raise ExtractionError("the answer is not JSON")
    try:
        data = json.loads(text[start : end + 1])
    except ValueError as exc:
        raise ExtractionError(f"the answer is not valid JSON: {exc}") from None
    edits = data.get("edits") if isinstance(data, dict) else None
    if not isinstance(edits, list):
        raise ExtractionError('the answer has no "edits" list')
    result: dict[str, str] = {}
    for edit in edits:
        if not isinstance(edit, dict) or not isinstance(edit.get("section"), str):
            raise ExtractionError("each edit needs a section name")
        if not isinstance(edit.get("content"), str):
            raise ExtractionError(f"edit of {edit['section']!r} has no text content")
        result[edit["section"]] = edit["content"].strip()
    check_edits(result)
    return result


def extract_with_llm(
    config: LlmConfig,
    notes_text: str,
    transcript_text: str,
    *,
    max_turns: int = MAX_TURNS,
    max_seconds: float = MAX_SECONDS,
) -> dict[str, str]:
    """Edits for the named sections, validated; raises ``ExtractionError`` on any failure."""
    deadline = time.monotonic() + max_seconds
    messages = [
        {
            "role": "user",
            "content": (
                "Current notes:\n\n"
                + notes_text
                + "\n\nRecent conversation:\n\n"
                + _conversation(transcript_text)
                + "\n\nUpdate the notes. Valid section names: "
                + ", ".join(NAMES)
            ),
        }
    ]
    problem = "no turns allowed"
    for _turn in range(max_turns):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise ExtractionError(f"the LLM extractor ran out of its {max_seconds:g} s")
        answer = _ask(config, messages, remaining)
        try:
            return parse_edits(answer)
        except ExtractionError as exc:
            problem = str(exc)
            messages += [
                {"role": "assistant", "content": answer},
                {
                    "role": "user",
                    "content": f"Refused: {problem}. Answer again with valid JSON edits.",
                },
            ]
    raise ExtractionError(f"no valid edits after {max_turns} turns (last problem: {problem})")
