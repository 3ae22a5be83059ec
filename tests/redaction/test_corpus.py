"""The corpus: secrets in the forms agents and tools really write them, and near-misses.

Every form must lose its secret and keep everything else, byte for byte; every near-miss
(hashes, IDs, images, prose about passwords, names of variables, earlier redactions)
must come through untouched. Together with one case per detector (``test_formats``) this
is well over 60 secret forms.
"""

from __future__ import annotations

import json

import pytest

from workmem.redact import redact

from .test_formats import KIND_CASES

#: (text with <S> where the secret is, the secret, the kind that must be named).
FORMS: list[tuple[str, str, str]] = [
    ('{"user": "app", "pass": "<S>"}', "hunter2-json", "assignment"),
    ("db:\n  primary:\n    password: <S>\n  host: db.internal", "Yaml-Nest-0rd", "assignment"),
    ('[database]\npassword = "<S>"\nport = 5432', "T0ml-Pass-77", "assignment"),
    ('API_KEY="<S>"', "Zq8xN2vL5pR7tW9y", "assignment"),
    ("X-Api-Key: <S>", "a6f1c0d2e3b4a5968778", "assignment"),
    ('clientSecret: "<S>",', "cs-Vd91-LmQ", "assignment"),
    ('$env:DB_PASSWORD = "<S>"', "P0wer-Shell-9", "assignment"),
    ("Server=db;User Id=sa;Password=<S>;Encrypt=true", "Ado-Net-Pw1", "assignment"),
    ("https://api.example.com/v1?user=bob&password=<S>&page=2", "Qu3ry-Pw", "assignment"),
    ("connect(host='db', password='<S>')", "kwarg-Pw-55", "assignment"),
    ('{"cmd": "{\\"token\\": \\"<S>\\"}"}', "esc-Tok-881", "assignment"),
    ("passphrase: <S>", "correct horse battery staple", "assignment"),
    ("aws_secret_access_key = <S>", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ4nB8vT2m", "assignment"),
    ("TWILIO_AUTH_TOKEN=<S>", "42a21c402364f9572b85a8e48f687ab1", "assignment"),
    ("password: <S>", "48213977", "assignment"),
    ("ENV MYSQL_ROOT_PASSWORD=<S>", "D0cker-Root", "assignment"),
    ("deploy --password=<S> --yes", "Eq-Flag-123", "cli-flag"),
    ("psql-wrapper --db-pass '<S>' run", "Quoted Flag 9", "cli-flag"),
    ("sshpass -p <S> ssh deploy@host", "sshp-Pw-2", "cli-password"),
    ("mongosh -u admin -p <S> --authenticationDatabase admin", "Mongo-Pw-3", "cli-password"),
    ("keytool -list -keystore ks.jks -storepass <S>", "Ch4ngeIt-Not", "cli-password"),
    ("mysqldump -uroot -p<S> shop > dump.sql", "Dump-Pw-4", "cli-password"),
    ("the password is <S> for now", "Tr0ub4dor&3", "password-phrase"),
    ("then set our token to <S> everywhere", "set-Tok-77", "password-phrase"),
    ("我的密碼是<S>，別外流", "Mima-2024x", "password-phrase"),
    ("密码：<S>", "Jian-Ti-88", "password-phrase"),
    ("API key 是 <S>。", "ApiKey-Zh-5", "password-phrase"),
    ("パスワードは<S>です", "Nihon-Go-6", "password-phrase"),
    ("my passphrase is '<S>' since May", "open sesame seeds", "password-phrase"),
    ("redis://:<S>@cache:6379/0", "Red1s-Pw", "url-password"),
    ("mongodb+srv://admin:<S>@cluster0.x.mongodb.net/db", "Atlas-Pw-9", "url-password"),
    ("mysql://root:<S>@localhost/shop", "p@ss-with-at", "url-password"),
    ("amqp://guest:<S>@mq:5672/", "Rabbit-Pw", "url-password"),
    ("git clone https://x-access-token:<S>@example.com/o/r.git", "Gen3ric-Tok", "url-password"),
    ("session=<S>; Path=/", KIND_CASES["jwt"][1], "jwt"),
    ("charge with <S> in test", "rk_test_SrCGIZEG8pSH4487q7J58m1C", "stripe-key"),
    ("webhook signing secret <S> set", "whsec_iAhzCueQpBenQtYh5Xj8TPQxjq4i9DoV", "stripe-key"),
    ("old token <S> revoked", "gho_dgaKjIg8xNbe3nNyjOq9wMxEhh2FDEEtfjgV", "github-token"),
    (
        "fine-grained <S> scoped to one repo",
        "github_pat_11vVqE1SkHbn88HxjSI6bWHt_P3fS2qHx6kwXoIIXGvOoNZYW2mZp0zVZomHFwUbbYrEqmSM9wCZ7U",
        "github-token",
    ),
    ("socket mode token <S> in app", "xapp-1-A0123BCDE-4567890123-abcdef0123456789", "slack-token"),
    ("password: |\n  <S>\nnext: x", "Literal-Block-Pw", "nested-secret"),
    ("passwords:\n  - <S>\n  - <S>", "Listed-Pw-1", "nested-secret"),
    ('[credentials]\nuser = "svc"\nkey = "<S>"', "T0ml-Table-K", "nested-secret"),
    ("secrets:\n  github: <S>", "Gh-Block-Value-2", "nested-secret"),
    ("| session | note |\n|---|---|\n| s1 | set DB_PASS=<S> today |", "Cell-Pw-77", "assignment"),
    ('curl -u admin:"<S>" https://x', "Quoted-Curl-9", "curl-user"),
]

#: Text that looks like a secret, or talks about one, and must stay as it is.
NEAR_MISSES: list[str] = [
    "commit a8f5f167f44f4964e6c998dee827110c3c0d2b1e fixed the build",
    "short sha 3f9a1c2 in the log",
    "request 123e4567-e89b-12d3-a456-426614174000 failed",
    "![logo](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42"
    "mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==)",
    "The password field is required on the login form.",
    "Passwords must be at least 12 characters long.",
    "Reset your password from the settings page.",
    "Password: must be 12 characters and include a digit",
    "Set GITHUB_TOKEN in the CI settings",
    "export GITHUB_TOKEN",
    'api_key_env = "OPENAI_API_KEY"',
    "token: ${GITHUB_TOKEN}",
    "password: ${{ secrets.DB_PASSWORD }}",
    "token = os.environ['API_TOKEN']",
    "max_tokens: 4096",
    "input_tokens=1200 output_tokens=300",
    "password: [REDACTED:assignment]",
    "[REDACTED:github-token] was rotated",
    "tokenizer: cl100k_base",
    "token_type: bearer",
    "password_file: /run/secrets/db_password",
    "secretKeyRef:\n  name: db-creds\n  key: password",
    "secrets:\n  db_password:\n    file: ./db_password.txt",
    "The key decision was to use SQLite.",
    "the token is valid for an hour",
    "our token is stored in vault",
    "My API key is in 1Password",
    "My API token was revoked yesterday",
    "my password was wrong twice, then it worked",
    "https://github.com/org/repo/pull/42",
    "postgres://localhost:5432/app",
    "postgres://user:${DB_PASS}@db/app",
    "git push -u origin main",
    "我們把 API key 放在環境變數裡",
    "密碼是必填欄位",
    "Basic understanding of the token flow",
    "Bearer tokens are sent in the header",
    "pk_live_SrCGIZEG8pSH4487q7J58m1C is the publishable key, public by design",
    "The mysql -p flag prompts for the password",
    "docker login --password-stdin < pw.txt",
    "--token-file ~/.config/token",
    "bypass: true",
    "compass=north",
    "sort_key=created_at",
    "password: changeme",
    "sig=abc in the query",
    "SKU SK-1234 shipped",
    "the secret sauce is good testing",
    "<!-- workmem:session-end token=0123456789abcdef key=s1 -->",
    '"last_end_token": "0123456789abcdef"',
]


def _all_forms() -> list[tuple[str, str, str]]:
    return [(t, s, kind) for kind, (t, s) in KIND_CASES.items()] + FORMS


def test_the_corpus_is_as_large_as_promised() -> None:
    assert len(_all_forms()) >= 60
    assert len(NEAR_MISSES) >= 30


@pytest.mark.parametrize(
    "template, secret, kind", FORMS, ids=[f"{k}:{t[:24]}" for t, _, k in FORMS]
)
def test_secret_forms_lose_the_secret_and_keep_the_rest(
    template: str, secret: str, kind: str
) -> None:
    text = template.replace("<S>", secret)
    clean, count = redact(text)
    assert secret not in clean
    assert clean == template.replace("<S>", f"[REDACTED:{kind}]")
    assert count == template.count("<S>")


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_near_misses_stay_as_they_are(text: str) -> None:
    assert redact(text) == (text, 0)


def test_json_stays_json_whatever_the_secret_holds() -> None:
    """Quotes, backslashes and JSON escapes inside a secret never break the document."""
    doc = {
        "notes": [
            'password="a\\"b\\\\c" and more',
            "token=abc\\def123 next",
            "multi\nline: secret=Zq8xN2vL5p\nend",
            'DB_PASS=ends-with-backslash\\ "quoted"',
        ],
        "api_key": "Zq8xN2vL5pR7tW9y",
    }
    text = json.dumps(doc, ensure_ascii=False, indent=2)
    clean, count = redact(text)
    parsed = json.loads(clean)
    assert count >= 4
    assert parsed["api_key"] == "[REDACTED:assignment]"
    assert "Zq8xN2vL5p" not in clean and "abc\\\\def123" not in clean
    assert parsed["notes"][2].endswith("\nend")
