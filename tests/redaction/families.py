"""Families of variants: each secret format in the spellings people actually paste.

A detector that knows one spelling of a format is caught missing the next: every family
is one secret (or one syntax) written inline and nested, quoted and bare, split over
lines, inside JSON strings (escaped once and twice), in a table cell, at nearby lengths,
and in the prose of the five languages workmem speaks (English, Traditional and
Simplified Chinese, Japanese, Korean). ``NEAR_MISSES`` is what must come through as it
is: test names after ``PASS:``/``FAIL:``, commit hashes, UUIDs, paths, prose about
secrets that holds none.

Used by ``test_families`` (each family must lose every secret it holds; each near-miss
must stay) and by ``bench/redact_corpus.py`` (the two figures, for any version of the
redactor on ``sys.path``). Secrets are made by a seeded generator, so the corpus is the
same on every run.
"""

from __future__ import annotations

import base64
import json
import random
import string
from collections.abc import Callable
from dataclasses import dataclass, field

_RANDOM = random.Random(26)
ALNUM = string.ascii_letters + string.digits
URLSAFE = ALNUM + "_-"
HEX = "0123456789abcdef"


def rand(alphabet: str, length: int) -> str:
    return "".join(_RANDOM.choice(alphabet) for _ in range(length))


@dataclass
class Variant:
    """One text and the secret values it holds (none of which may survive redaction)."""

    text: str
    secrets: tuple[str, ...]
    label: str = ""


@dataclass
class Family:
    name: str
    variants: list[Variant] = field(default_factory=list)

    def add(self, label: str, text: str, *secrets: str) -> None:
        self.variants.append(Variant(text, secrets, label))


# -- the places a one-line token is pasted --------------------------------------------------

Wrap = Callable[[str], str]

#: Where a token stands: prose of five languages, quotes, JSON, a table, a URL, a line break.
PLACES: dict[str, Wrap] = {
    "en prose": lambda s: f"we used {s} for the deploy, rotate it later",
    "zh_tw prose": lambda s: f"部署時用了{s}，之後記得輪替",
    "zh_cn prose": lambda s: f"部署时用了{s}，之后记得轮换",
    "ja prose": lambda s: f"デプロイには{s}を使いました。",
    "ko prose": lambda s: f"배포에는 {s}를 사용했습니다.",
    "ko prose, no space": lambda s: f"배포에는{s}를 사용했습니다.",
    "double quotes": lambda s: f'key = "{s}"',
    "single quotes": lambda s: f"key = '{s}'",
    "backticks": lambda s: f"the key `{s}` works",
    "json string": lambda s: json.dumps({"note": f"the key {s} works"}),
    "json nested": lambda s: json.dumps({"a": {"b": [s]}}, indent=2),
    "json in a json string": lambda s: json.dumps({"cmd": json.dumps({"value": s})}),
    "table cell": lambda s: f"| s1 | deployed with {s} |",
    "url query": lambda s: f"https://api.example.com/v1/items?key={s}&page=2",
    "next line": lambda s: f"here it is:\n{s}\nthat was it",
    "env assignment": lambda s: f"export SERVICE_VALUE={s}",
    "markdown list": lambda s: f"- 03:30 Decision: used {s} for staging",
}


def _token_families(tokens: dict[str, list[str]]) -> list[Family]:
    families = []
    for name, values in tokens.items():
        family = Family(f"token: {name}")
        for value in values:
            for place, wrap in PLACES.items():
                family.add(f"{place} ({len(value)})", wrap(value), value)
        families.append(family)
    return families


def _lengths(prefix: str, alphabet: str, lengths: tuple[int, ...], suffix: str = "") -> list[str]:
    return [prefix + rand(alphabet, n) + suffix for n in lengths]


def _discord_token(user_id: str, third: int) -> str:
    head = base64.urlsafe_b64encode(user_id.encode()).decode().rstrip("=")
    return f"{head}.{rand(URLSAFE, 6)}.{rand(URLSAFE, third)}"


def _basic(user: str, password: str) -> str:
    return base64.b64encode(f"{user}:{password}".encode()).decode()


#: Tokens known by their shape, at the lengths their issuers use and the ones next to them.
TOKENS: dict[str, list[str]] = {
    "aws access key": ["AKIA" + rand(string.ascii_uppercase + string.digits, 16)],
    "github": _lengths("ghp_", ALNUM, (36, 40)) + _lengths("github_pat_", ALNUM + "_", (82,)),
    "gitlab": _lengths("glpat-", URLSAFE, (20, 21, 27)),
    "google api key": _lengths("AIza", URLSAFE, (35,)),
    "openai": _lengths("sk-proj-", URLSAFE, (48, 56)),
    "anthropic": _lengths("sk-ant-api03-", URLSAFE, (93,)),
    "slack": [
        "xoxb-" + rand(string.digits, 12) + "-" + rand(string.digits, 13) + "-" + rand(ALNUM, 24)
    ],
    "stripe": _lengths("sk_live_", ALNUM, (24, 99)),
    "jwt": [
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
        + base64.urlsafe_b64encode(b'{"sub":"1234567890","name":"Jo","iat":1516239022}')
        .decode()
        .rstrip("=")
        + "."
        + rand(URLSAFE, 43)
    ],
    "discord bot token": [
        _discord_token("123456789012345678", 27),
        _discord_token("1234567890123456789", 38),
        _discord_token("98765432109876543", 27),
    ],
    "discord webhook": [
        f"https://discord.com/api/webhooks/{rand(string.digits, 18)}/{rand(URLSAFE, 68)}",
        f"https://discordapp.com/api/webhooks/{rand(string.digits, 19)}/{rand(URLSAFE, 68)}",
        f"https://ptb.discord.com/api/webhooks/{rand(string.digits, 18)}/{rand(URLSAFE, 68)}",
    ],
    "linear api key": _lengths("lin_api_", ALNUM, (40,)),
    "linear oauth token": _lengths("lin_oauth_", HEX, (64,)),
    "atlassian api token": [
        "ATATT3xFfGF0" + rand(URLSAFE, 170) + "=" + rand("0123456789ABCDEF", 8),
        "ATATT3xFfGF0" + rand(URLSAFE, 183) + "=" + rand("0123456789ABCDEF", 8),
    ],
}


# -- secrets known by their name ----------------------------------------------------------

NAMES = (
    "password",
    "DB_PASSWORD",
    "api_key",
    "apiKey",
    "client_secret",
    "access_token",
    "aws_secret_access_key",
    "X-Api-Key",
)

#: How a name and its value are written, ``{n}`` the name and ``{v}`` the value.
SYNTAXES: dict[str, str] = {
    "shell": "{n}={v}",
    "spaced": "{n} = {v}",
    "double quoted": '{n} = "{v}"',
    "colon": "{n}: {v}",
    "json": '{{"{n}": "{v}"}}',
    "json escaped in a string": '{{"cmd": "{{\\"{n}\\": \\"{v}\\"}}"}}',
    "yaml nested": "service:\n  auth:\n    {n}: {v}\n  region: eu",
    "toml table": '[service]\n{n} = "{v}"\nport = 5432',
    "colon label, then the setting": 'Set the password: {n} = "{v}"',
    "colon label, then a colon": "Update token: {n}: {v}",
    "notes line": "- 03:30 Credential X: {n}={v}",
    "inline key chain": "credentials:   {n}: {v}",
    "inline key chain, quoted": 'credentials: "{n}": "{v}"',
    "table cell": "| s1 | set {n}={v} today |",
    "flag": "--{n} {v}",
    "after prose on the line": "we rotated it, {n}: {v}",
    "value on the next line": "{n}:\n  {v}\nnext: 1",
    "json over lines": '{{\n  "{n}":\n    "{v}"\n}}',
    "keyword argument": "connect(host='db', {n}='{v}')",
}


def _named_families() -> list[Family]:
    families = []
    for syntax, template in SYNTAXES.items():
        family = Family(f"named: {syntax}")
        for name in NAMES:
            if syntax == "flag" and not name[0].islower():
                continue  # flags are lower-case words
            flag = name.lower().replace("_", "-") if syntax == "flag" else name
            value = rand(ALNUM, 6) + "-" + rand(ALNUM, 9)
            family.add(name, template.format(n=flag, v=value), value)
        families.append(family)
    return families


#: A secret said in a sentence, in the five languages, ``{v}`` the value.
SPOKEN: dict[str, list[str]] = {
    "en": [
        "my password is {v}",
        "The password is {v}.",
        "set the password to {v} for now",
        "our API key is {v}",
        "the password for the staging db is {v}",
        "The password is: {v}",
    ],
    "zh_tw": [
        "密碼是 {v}",
        "我的密碼是{v}，別外流",
        "密碼為{v}",
        "密碼設為 {v}",
        "密碼改成{v}了",
        "密碼：{v}",
        "密碼是：{v}",
        "Password：{v}",
        "API 金鑰是 {v}",
    ],
    "zh_cn": [
        "密码是 {v}",
        "我的密码是{v}，别外传",
        "密码为{v}",
        "密码设为 {v}",
        "密码改成{v}了",
        "密码：{v}",
        "密码为：{v}",
        "API 密钥是 {v}",
    ],
    "ja": [
        "パスワードは {v} です",
        "パスワードは{v}です",
        "パスワード：{v}",
        "パスワード＝{v}",
        "パスワードを{v}に変更しました",
        "トークンは{v}です",
        "APIキーは{v}です",
        "暗証番号は{v}です",
    ],
    "ko": [
        "비밀번호는 {v} 입니다",
        "비밀번호는 {v}입니다",
        "비밀번호: {v}",
        "비밀번호를 {v}로 변경했습니다",
        "암호는 {v} 입니다",
        "토큰은 {v} 입니다",
        "API 키는 {v}입니다",
        "패스워드는 {v} 입니다",
    ],
}


def _spoken_families() -> list[Family]:
    families = []
    for language, templates in SPOKEN.items():
        family = Family(f"spoken: {language}")
        for template in templates:
            value = rand(ALNUM, 5) + "-" + rand(ALNUM, 7) + "9"
            if "토큰" in template or "トークン" in template:
                value = rand(ALNUM, 24)  # said after "token", a value as long as a token
            family.add(template, template.format(v=value), value)
            quoted = template.replace("{v}", "「{v}」" if language != "en" else '"{v}"')
            family.add(template + " (quoted)", quoted.format(v=value), value)
        families.append(family)
    return families


# -- headers, configs and key files -------------------------------------------------------


def _header_family() -> Family:
    family = Family("authorization headers")
    basic = _basic("ci-bot", "W1nter-" + rand(ALNUM, 8))
    key_only = base64.b64encode(("api-" + rand(ALNUM, 24)).encode()).decode()
    bearer = rand(URLSAFE, 40)
    digest = rand(HEX, 32)
    for label, value in (("basic user:pass", basic), ("basic key only", key_only)):
        family.add(f"{label}, inline", f"sent Authorization: Basic {value} to the proxy", value)
        family.add(f"{label}, curl", f"curl -H 'Authorization: Basic {value}' https://x", value)
        family.add(
            f"{label}, json",
            json.dumps({"headers": {"Authorization": f"Basic {value}"}}),
            value,
        )
        family.add(f"{label}, yaml", f"headers:\n  Authorization: Basic {value}", value)
        family.add(f"{label}, proxy", f"Proxy-Authorization: Basic {value}", value)
        family.add(f"{label}, lower case", f"authorization: basic {value}", value)
        family.add(f"{label}, zh", f"請求帶了 Authorization: Basic {value} 標頭", value)
    family.add("bearer", f"Authorization: Bearer {bearer}", bearer)
    family.add("token scheme", f"Authorization: Token {bearer}", bearer)
    family.add("custom scheme", f"Authorization: SSWS {bearer}", bearer)
    family.add(
        "digest",
        f'Authorization: Digest username="bob", realm="api", nonce="{rand(HEX, 16)}", '
        f'response="{digest}"',
        digest,
    )
    family.add("json escaped", json.dumps({"h": f"Authorization: Basic {basic}"}), basic)
    return family


def _docker_family() -> Family:
    family = Family("docker config auth")
    auth = _basic("bob", "Secr3t-" + rand(ALNUM, 6))
    other = _basic("ci", rand(ALNUM, 20))
    family.add("minified", json.dumps({"auths": {"ghcr.io": {"auth": auth}}}), auth)
    family.add(
        "indented",
        json.dumps({"auths": {"https://index.docker.io/v1/": {"auth": other}}}, indent=4),
        other,
    )
    family.add("yaml", f"auths:\n  ghcr.io:\n    auth: {auth}", auth)
    family.add(
        "in a json string", json.dumps({"file": json.dumps({"auths": {"r": {"auth": auth}}})}), auth
    )
    family.add("single quotes", f"{{'auths': {{'r': {{'auth': '{auth}'}}}}}}", auth)
    return family


_PEM_LINES = [rand(string.ascii_letters + string.digits + "+/", 64) for _ in range(6)]
PEM = (
    "-----BEGIN RSA PRIVATE KEY-----\n"
    + "\n".join(_PEM_LINES)
    + "\n-----END RSA PRIVATE KEY-----\n"
)
PEM_B64 = base64.b64encode(PEM.encode()).decode()
CERT = (
    "-----BEGIN CERTIFICATE-----\n"
    + "\n".join(rand(string.ascii_letters + string.digits + "+/", 64) for _ in range(4))
    + "\n-----END CERTIFICATE-----\n"
)
CERT_B64 = base64.b64encode(CERT.encode()).decode()


def _wrapped(text: str, width: int) -> str:
    return "\n".join(text[i : i + width] for i in range(0, len(text), width))


def _base64_key_family() -> Family:
    family = Family("base64-encoded private key")
    body = _PEM_LINES[2]  # any line of the key must be gone, and the base64 with it
    family.add("bare", f"the key is {PEM_B64} keep it safe", PEM_B64, body)
    family.add(
        "kubeconfig", f"users:\n- name: admin\n  user:\n    client-key-data: {PEM_B64}\n", PEM_B64
    )
    family.add("kubeconfig json", json.dumps({"user": {"client-key-data": PEM_B64}}), PEM_B64)
    family.add("k8s secret", f"data:\n  tls.key: {PEM_B64}\n", PEM_B64)
    family.add("wrapped at 76", "key.b64:\n" + _wrapped(PEM_B64, 76) + "\nend", PEM_B64[80:150])
    family.add("wrapped at 64", _wrapped(PEM_B64, 64), PEM_B64[70:140])
    family.add("in an env line", f"PRIVATE_KEY_B64={PEM_B64}", PEM_B64)
    return family


_PUTTY_PUBLIC = [rand(ALNUM + "+/", 64) for _ in range(2)]
_PUTTY_PRIVATE = [rand(ALNUM + "+/", 64) for _ in range(4)]
PUTTY = (
    "PuTTY-User-Key-File-3: ssh-rsa\n"
    "Encryption: none\n"
    "Comment: rsa-key-20260525\n"
    "Public-Lines: 2\n" + "\n".join(_PUTTY_PUBLIC) + "\n"
    "Private-Lines: 4\n" + "\n".join(_PUTTY_PRIVATE) + "\n"
    f"Private-MAC: {rand(HEX, 64)}\n"
)


def _putty_family() -> Family:
    family = Family("putty private key")
    secret = _PUTTY_PRIVATE[1]
    family.add("file", f"my key file:\n{PUTTY}done", secret, _PUTTY_PRIVATE[3])
    family.add("version 2", PUTTY.replace("File-3", "File-2"), secret)
    family.add("in a json string", json.dumps({"content": PUTTY}), secret, _PUTTY_PRIVATE[3])
    cut = PUTTY.split("Private-MAC")[0]
    family.add("cut before its MAC", cut + "\n\nthen the paste ended", secret, _PUTTY_PRIVATE[3])
    family.add("crlf", PUTTY.replace("\n", "\r\n"), secret)
    return family


def _oracle_family() -> Family:
    family = Family("oracle user/password@db")
    for label, template in (
        ("sqlplus", "sqlplus scott/{v}@orcl"),
        ("sqlplus easy connect", "sqlplus system/{v}@//db.internal:1521/XEPDB1"),
        ("sqlplus silent", "sqlplus -s app_user/{v}@PROD @report.sql"),
        ("sqlplus quoted", "sqlplus 'hr/{v}@pdb1'"),
        ("expdp", "expdp hr/{v}@pdb1 directory=DATA_PUMP_DIR dumpfile=hr.dmp"),
        ("impdp", "impdp system/{v}@pdb2 full=y"),
        ("sqlldr userid", "sqlldr userid=scott/{v}@orcl control=load.ctl"),
        ("rman", "rman target sys/{v}@prod"),
        ("connect", "SQL> connect scott/{v}@orcl"),
        ("conn", "conn app/{v}@db"),
        ("jdbc thin", "url: jdbc:oracle:thin:scott/{v}@db.internal:1521:ORCL"),
        ("zh prose", "用 sqlplus scott/{v}@orcl 連上去了"),
    ):
        value = rand(ALNUM, 4) + "_" + rand(ALNUM, 6)
        family.add(label, template.format(v=value), value)
    return family


def all_families() -> list[Family]:
    return [
        *_token_families(TOKENS),
        *_named_families(),
        *_spoken_families(),
        _header_family(),
        _docker_family(),
        _base64_key_family(),
        _putty_family(),
        _oracle_family(),
    ]


#: Text that must come through as it is.
NEAR_MISSES: list[str] = [
    # test runs: a test's name is not a password
    "--- PASS: TestWriteCommitted_BranchField (0.01s)",
    "--- FAIL: TestTokenRefresh_ExpiredSecret (0.12s)",
    "    --- PASS: TestPassword/empty_input (0.00s)",
    "=== RUN   TestPasswordReset",
    "PASS: tests/test_token.sh",
    "FAIL: test_secret_rotation (tests.test_vault.VaultTest.test_secret_rotation)",
    "ok  \tgithub.com/acme/auth\t0.012s",
    "tests/test_auth.py::test_password_reset PASSED",
    "PASSED tests/test_token.py::test_refresh_token_expires",
    "FAILED tests/test_secrets.py::test_api_key_is_masked - AssertionError",
    "✓ rejects an expired token (3 ms)",
    # commits and digests
    "commit 3f9a1c2b7d4e5f60718293a4b5c6d7e8f9012345",
    "Merge: 1a2b3c4 5d6e7f8",
    "HEAD is now at 5e4f3a2 Fix the token refresh",
    "[main 9f8e7d6] Rotate the secret loader",
    "git cherry-pick a1b2c3d4e5f6a7b8c9d0",
    "docker pull ghcr.io/acme/api@sha256:"
    "9b2c4f1e0d3a5b6c7d8e9f00112233445566778899aabbccddeeff0011223344",
    "sha256sum: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  empty.txt",
    # identifiers
    '"session_id": "123e4567-e89b-12d3-a456-426614174000"',
    "token_id=550e8400-e29b-41d4-a716-446655440000",
    "request-id: 9b2f0c1e-6d3a-4f5b-8c7d-0e1f2a3b4c5d",
    "trace 4bf92f3577b34da6a3ce929d0e0e4736 span 00f067aa0ba902b7",
    # paths
    "/home/dev/.ssh/id_rsa.pub",
    "src/auth/password_reset.py",
    "edit ~/.aws/credentials by hand",
    r"C:\Users\dev\secrets\token.txt",
    "secrets/db_password.txt is mounted read-only",
    "config/credentials.yml.enc",
    "--password-file /etc/app/pw",
    "ssh-keygen -t ed25519 -f ~/.ssh/id_ed25519",
    "uses: actions/checkout@v4",
    "npm install @scope/token-utils@1.2.3",
    "see user/repo@v1.2.3 for the fix",
    # prose and settings about secrets that hold none
    "The Authorization header is required",
    "Authorization: see the API docs",
    '"auth": "oauth"',
    "auth: true",
    "sqlplus / as sysdba",
    "sqlplus /nolog",
    "client-certificate-data: " + CERT_B64,
    "certificate-authority-data: " + CERT_B64,
    "비밀번호는 12자 이상이어야 합니다",
    "비밀번호를 변경했습니다",
    "토큰이 만료되었습니다",
    "パスワードは必須です",
    "パスワードを変更しました",
    "トークンはGPT-4oで数えます",
    "토큰은 o200k_base 기준입니다",
    "令牌數是 4096",
    "密码是必填项",
    "密碼已經輪替",
    "The key point: tokens expire after an hour.",
    "Note: password rotation is monthly",
    "Basic setup: install the package first",
    "PuTTY-User-Key-File-3 is the newer format",
    "lin_api_ keys are created in the Linear settings",
    "https://discord.com/api/webhooks is the endpoint family",
]


__all__ = ["NEAR_MISSES", "Family", "Variant", "all_families"]
