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

from .logins import OracleLogin

_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")


class Pattern:
    """One secret format: where its secret is, and when it is worth looking for."""

    __slots__ = (
        "_regex",
        "also",
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
        also: tuple[str, ...] = (),
    ) -> None:
        self.kind = kind
        self.source = source
        #: Lower-case literals; the expression runs only when one of them is in the text.
        self.triggers = triggers
        #: Literals that must all be in the text as well (as written, not lower-cased):
        #: a trigger common in prose ("import", "digest") costs no regex scan without them.
        self.also = also
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


def _discord_user(value: str) -> bool:
    """A Discord bot token starts with its bot's user id (17-20 digits) in base64."""
    import base64
    import binascii

    head = value.split(".", 1)[0]
    try:
        decoded = base64.urlsafe_b64decode(head + "=" * (-len(head) % 4))
    except (binascii.Error, ValueError):
        return False
    return decoded.isdigit() and 17 <= len(decoded) <= 20


def _encoded_private_key(value: str) -> bool:
    """Base64 of a PEM block is a secret when the block is a private key (a certificate
    or a public key, encoded the same way, is not)."""
    import base64
    import binascii

    head = value[:240].replace("\\n", "").replace("\\r", "").replace("<br>", "")
    head = "".join(head.split())[:68]  # the base64 without its line breaks
    head = head[: len(head) - len(head) % 4]
    try:
        decoded = base64.b64decode(head, validate=True)
    except (binascii.Error, ValueError):
        return False
    return b"PRIVATE KEY" in decoded


# A newline as it appears in a memory file: real, JSON-escaped, or a table cell's <br>.
_BREAK = r"(?:\s|\\n|\\r|<br>)*"
_BREAKS = r"(?:\s|\\n|\\r|<br>)+"  # at least one: two runs of base64 are never one
_B64_LINES = rf"(?:{_BREAKS}[A-Za-z0-9+/=]{{20,}})*"
_KEY_BODY = rf"(?:{_BREAK}[A-Za-z][A-Za-z-]+: [^\n<\\]*)*{_B64_LINES}"

PATTERNS: tuple[Pattern | OracleLogin, ...] = (
    Pattern(
        "private-key",
        r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----"
        rf"(?:(?:(?!-----BEGIN).)*?-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|{_KEY_BODY})",
        ("-----begin",),
        flags=re.S,
    ),
    Pattern(
        "encoded-private-key",  # base64 of "-----BEGIN", wrapped or not (kubeconfig, k8s)
        rf"LS0tLS1CRUdJTi[A-Za-z0-9+/]*={{0,2}}(?:{_BREAKS}[A-Za-z0-9+/]{{16,}}={{0,2}})*",
        ("ls0tls1crudjti",),
        check=_encoded_private_key,
    ),
    Pattern(
        "putty-key",  # the whole key file; cut off, up to where its private lines end
        r"PuTTY-User-Key-File-[0-9]+:(?:(?:(?!PuTTY-User-Key-File-).){0,20000}?"
        r"Private-MAC:[ \t]*[0-9a-fA-F]+"
        rf"|(?:(?!PuTTY-User-Key-File-).){{0,20000}}?Private-Lines:[ \t]*[0-9]+{_B64_LINES})",
        ("putty-user-key-file-",),
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
        ("gl",),  # eleven prefixes, one test: the expression starts with the literal
        word_start=True,
        also=("-",),
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
        ("k_live_", "k_test_", "k_prod_", "whsec_"),
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
        ("_v1_",),
        word_start=True,
    ),
    Pattern(
        "shopify-token",
        r"shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}",
        ("shp",),
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
        "discord-token",  # no fixed prefix: the bot's user id in base64, then two parts
        r"[MNO][A-Za-z0-9_-]{22,26}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_-])",
        (".",),
        word_start=True,
        check=_discord_user,
    ),
    Pattern(
        "discord-webhook",
        r"https://(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api(?:/v[0-9]+)?/webhooks/"
        r"[0-9]+/[A-Za-z0-9_-]+",
        ("discord",),
    ),
    Pattern(
        "linear-key",
        r"lin_api_[A-Za-z0-9]{32,}|lin_oauth_[a-f0-9]{64}",
        ("lin_api_", "lin_oauth_"),
        word_start=True,
    ),
    Pattern(
        "atlassian-token",  # ATATT + base64 + "=" + checksum (Jira, Confluence, Bitbucket)
        r"AT[AC]TT[A-Za-z0-9_=-]{60,}",
        ("atatt", "atctt"),
        word_start=True,
    ),
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
        "docker-auth",  # a docker config's "auth": base64 of user:password
        r"auth\\?[\"']?[ \t]*[:=][ \t]*\\?[\"']?([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])",
        ('auth"', "auth'", "auth:", 'auth\\"'),  # a key: quoted, or with its colon
        group=1,
        word_start=True,
        check=_basic_credential,
    ),
    Pattern(
        "auth-header",  # any scheme (Basic, Token, SSWS, ApiKey…): what follows is the secret
        r"(?i)authorization\\?[\"']?[ \t]*[:=][ \t]*\\?[\"']?(?:[A-Za-z][\w-]*[ \t]+)?"
        r"([A-Za-z0-9._~+/=:-]{12,})",
        ("authorization",),
        group=1,
        word_start=True,
        generic=True,
    ),
    Pattern(
        "digest-auth",  # Digest's response (and cnonce) prove the password
        r"(?i)digest[ \t]+[^\n]{0,400}?\bresponse[ \t]*=[ \t]*\\?\"?([0-9a-f]{32,128})",
        ("digest",),
        group=1,
        word_start=True,
        also=("response",),
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
    OracleLogin(),  # found from the "@" outward (``logins``), not by one expression
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
