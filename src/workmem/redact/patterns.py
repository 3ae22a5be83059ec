"""The secret formats the redactor knows by their shape, one row per kind.

A row is a regular expression with the literal pieces that must appear for it to match
(``triggers``): a text holding none of them skips the expression, so clean text costs a
few substring tests instead of a few dozen regex scans, and expressions are compiled on
first use only (a hook that writes no secret never compiles them). Expressions start
with a literal where they can, so ``re`` scans for it rather than trying every position;
the word boundary before a token is checked after the match (``word_start``) for the
same reason.

The formats follow the issuers' published token layouts (prefixes, lengths and
alphabets as documented by GitHub, GitLab, Stripe, SendGrid, Azure, Twilio, npm, PyPI
and the rest). The order is the priority: when two rows claim overlapping text the
earlier row names the kind, so specific formats come before generic ones.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


class Pattern:
    """One secret format: where its secret is, and when it is worth looking for."""

    __slots__ = (
        "_regex",
        "check",
        "flags",
        "generic",
        "group",
        "kind",
        "source",
        "triggers",
        "word_start",
    )

    def __init__(
        self,
        kind: str,
        source: str,
        triggers: tuple[str, ...],
        *,
        group: int = 0,
        flags: int = 0,
        word_start: bool = False,
        generic: bool = False,
        check: Callable[[str], bool] | None = None,
    ) -> None:
        self.kind = kind
        self.source = source
        #: Lower-case literals; the expression runs only when one of them is in the text.
        self.triggers = triggers
        #: Which part is the secret: 0 the whole match, a group number, or -1 for the
        #: first group that took part in the match (alternatives that each hold one).
        self.group = group
        self.flags = flags
        #: The match must not continue a word (``xsk-…`` is not an OpenAI key).
        self.word_start = word_start
        #: The secret is a free-form value: placeholders and variables are left alone.
        self.generic = generic
        #: A further test of the secret's text (Basic must decode to ``user:pass``).
        self.check = check
        self._regex: re.Pattern[str] | None = None

    @property
    def regex(self) -> re.Pattern[str]:
        if self._regex is None:  # compiled on first use: most writes never need it
            self._regex = re.compile(self.source, self.flags)
        return self._regex

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        for match in self.regex.finditer(text):
            if self.word_start and match.start() and text[match.start() - 1] in _WORD_CHARS:
                continue
            group = self.group
            if group == -1:
                group = next(i for i, value in enumerate(match.groups(), 1) if value is not None)
            start, end = match.span(group)
            if start >= end:
                continue
            if self.check is not None and not self.check(text[start:end]):
                continue
            yield start, end


def _basic_credential(value: str) -> bool:
    """``Basic dXNlcjpwYXNz`` is a credential only if it decodes to printable ``user:pass``."""
    import base64
    import binascii

    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
        plain = decoded.decode("utf-8")
    except (binascii.Error, ValueError):
        return False
    return ":" in plain and plain.isprintable()


# A newline as it appears in a memory file: real, JSON-escaped, or a table cell's <br>.
_BREAK = r"(?:\s|\\n|\\r|<br>)*"
_KEY_BODY = rf"(?:{_BREAK}[A-Za-z][A-Za-z-]+: [^\n<\\]*)*(?:{_BREAK}[A-Za-z0-9+/=]{{20,}})*"

PATTERNS: tuple[Pattern, ...] = (
    Pattern(
        "private-key",
        r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----"
        rf"(?:(?:(?!-----BEGIN).)*?-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|{_KEY_BODY})",
        ("-----begin",),
        flags=re.S,
    ),
    Pattern("anthropic-key", r"sk-ant-[A-Za-z0-9_-]{16,}", ("sk-ant-",), word_start=True),
    Pattern(
        "openai-key",
        r"sk-(?:proj-|svcacct-|admin-|or-v1-)?[A-Za-z0-9_-]{20,}",
        ("sk-",),
        word_start=True,
    ),
    Pattern(
        "github-token",
        r"gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}",
        ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
        word_start=True,
    ),
    Pattern(
        "gitlab-token",
        r"gl(?:pat|dt|rt|ptt|oas|ft|imt|soat|agent|ffct|cbt)-[A-Za-z0-9_.-]{20,}",
        (
            "glpat-",
            "gldt-",
            "glrt-",
            "glptt-",
            "gloas-",
            "glft-",
            "glimt-",
            "glsoat-",
            "glagent-",
            "glffct-",
            "glcbt-",
        ),
        word_start=True,
    ),
    Pattern(
        "aws-access-key",
        r"(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[0-9A-Z]{16}(?![0-9A-Za-z])",
        ("akia", "asia", "agpa", "aida", "aroa", "aipa", "anpa", "anva", "apka"),
        word_start=True,
    ),
    Pattern("google-api-key", r"AIza[0-9A-Za-z_-]{35}", ("aiza",), word_start=True),
    Pattern(
        "google-oauth",
        r"GOCSPX-[A-Za-z0-9_-]{20,}|ya29\.[A-Za-z0-9_-]{20,}",
        ("gocspx-", "ya29."),
        word_start=True,
    ),
    Pattern(
        "slack-token", r"(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}", ("xox", "xapp-"), word_start=True
    ),
    Pattern(
        "slack-webhook",
        r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]+",
        ("hooks.slack.com",),
    ),
    Pattern(
        "stripe-key",
        r"(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9]{20,}",
        ("sk_live_", "sk_test_", "sk_prod_", "rk_live_", "rk_test_", "rk_prod_", "whsec_"),
        word_start=True,
    ),
    Pattern(
        "huggingface-token",
        r"hf_[A-Za-z0-9]{30,}|api_org_[A-Za-z0-9]{30,}",
        ("hf_", "api_org_"),
        word_start=True,
    ),
    Pattern("npm-token", r"npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])", ("npm_",), word_start=True),
    Pattern("pypi-token", r"pypi-AgE[A-Za-z0-9_-]{50,}", ("pypi-age",), word_start=True),
    Pattern(
        "sendgrid-key",
        r"SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,50}",
        ("sg.",),
        word_start=True,
    ),
    Pattern(
        "azure-key",
        r"(?i)(?:AccountKey|SharedAccessKey)\s*=\s*([A-Za-z0-9+/]{20,}={0,2})",
        ("accountkey", "sharedaccesskey"),
        group=1,
    ),
    Pattern("azure-sas", r"[?&;]sig=([A-Za-z0-9%+/=]{20,})", ("sig=",), group=1),
    Pattern(
        "twilio-key", r"SK[0-9a-fA-F]{32}(?![0-9A-Za-z])", ("sk",), word_start=True
    ),  # an API key SID; Twilio auth tokens are caught by their names (TWILIO_AUTH_TOKEN=…)
    Pattern(
        "digitalocean-token",
        r"do[opr]_v1_[a-f0-9]{64}",
        ("dop_v1_", "doo_v1_", "dor_v1_"),
        word_start=True,
    ),
    Pattern(
        "shopify-token",
        r"shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}",
        ("shpat_", "shpss_", "shpca_", "shppa_"),
        word_start=True,
    ),
    Pattern("vault-token", r"hv[sb]\.[A-Za-z0-9_-]{24,}", ("hvs.", "hvb."), word_start=True),
    Pattern("age-key", r"AGE-SECRET-KEY-1[0-9A-Z]{58}", ("age-secret-key-1",), word_start=True),
    Pattern("databricks-token", r"dapi[a-f0-9]{32}(?:-[0-9])?", ("dapi",), word_start=True),
    Pattern("docker-token", r"dckr_pat_[A-Za-z0-9_-]{20,}", ("dckr_pat_",), word_start=True),
    Pattern("groq-key", r"gsk_[A-Za-z0-9]{40,}", ("gsk_",), word_start=True),
    Pattern(
        "mailchimp-key", r"[0-9a-f]{32}-us[0-9]{1,2}(?![0-9A-Za-z])", ("-us",), word_start=True
    ),
    Pattern("telegram-token", r"[0-9]{8,10}:AA[A-Za-z0-9_-]{33}", (":aa",), word_start=True),
    Pattern(
        "jwt",
        r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
        ("eyj",),
        word_start=True,
    ),
    # -- a secret known by what stands before it ---------------------------------------
    Pattern(
        "bearer-token",
        r"(?i)bearer\s+([A-Za-z0-9._~+/=-]{16,})",
        ("bearer",),
        group=1,
        word_start=True,
    ),
    Pattern(
        "basic-auth",
        r"(?i)basic\s+([A-Za-z0-9+/]{6,}={0,2})(?![A-Za-z0-9+/=])",
        ("basic",),
        group=1,
        word_start=True,
        check=_basic_credential,
    ),
    Pattern(
        "auth-header",
        r"(?i)authorization[\"']?\s*[:=]\s*[\"']?(?:(?:token|digest|apikey|key)\s+)?"
        r"([A-Za-z0-9._~+/=:-]{12,})",
        ("authorization",),
        group=1,
        word_start=True,
        generic=True,
    ),
    Pattern(
        "curl-user",
        r"curl\b[^\n]{0,300}?\s(?:-u|--user)(?:\s+|=)[\"']?[^\s:\"']+:[\"']?([^\s\"'|]+)",
        ("curl",),
        group=1,
        word_start=True,
        generic=True,
    ),
    Pattern(
        "url-password",
        r"://[^\s:/?#@\[\]|<>\"'`]*:([^\s/?#|<>\"'`]+)@[^\s@/?#|<>\"'`]+",
        ("://",),
        group=1,
        generic=True,
    ),
    Pattern(
        "netrc-password",
        r"(?i)machine\s+\S+(?:\s+login\s+\S+)?\s+password\s+([^\s|<]+)",
        ("machine",),
        group=1,
        word_start=True,
        generic=True,
    ),
    Pattern(
        "cli-password",
        r"(?:mysql(?:dump|admin|import|show|check)?|mariadb(?:-dump|-admin)?)\b"
        r"[^\n|;&]{0,300}?\s-p([^\s\"'|-][^\s\"'|]*|\"[^\"\n]+\"|'[^'\n]+')"
        r"|sshpass\s+-p\s*([^\s|]+)"
        r"|mongo(?:sh|dump|restore|import|export)?\b[^\n|;&]{0,300}?\s-p\s+([^\s\"'|-][^\s|]*)"
        r"|-(?:src|dest)?(?:store|key)pass\s+([^\s|]+)",
        ("mysql", "mariadb", "sshpass", "mongo", "storepass", "keypass"),
        group=-1,
        word_start=True,
        generic=True,
    ),
)

__all__ = ["PATTERNS", "Pattern"]
