"""Every detector, one by one: the secret goes, its kind is named, the words around it stay.

Each case is a line as an agent would write it with ``<S>`` where the secret stands; the
redacted line must be exactly that line with ``[REDACTED:<kind>]`` in its place, and the
count exactly one. The table names every detector the redactor has, so deleting or
reordering a detector, or adding one without a case here, fails a test.
"""

from __future__ import annotations

import base64

import pytest

from workmem.redact import redact
from workmem.redact.engine import DETECTORS

PEM = (
    "-----BEGIN RSA PRIVATE KEY-----\n"
    "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n"
    "VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n"
    "-----END RSA PRIVATE KEY-----"
)

PUTTY = (
    "PuTTY-User-Key-File-3: ssh-ed25519\n"
    "Encryption: none\n"
    "Comment: ed25519-key-20260525\n"
    "Public-Lines: 2\n"
    "AAAAC3NzaC1lZDI1NTE5AAAAIGf2k3E9vQ2mN7pL4sT8wY1zR6uJ0hF5cB3aD9gK\n"
    "2xk3E9vQ2mN7pL4sT8wY1z\n"
    "Private-Lines: 1\n"
    "AAAAIBx2mN7pL4sT8wY1zR6uJ0hF5cB3aD9gK2xk3E9vQ2mN7pL4sT8wY1zR6uJ\n"
    "Private-MAC: 5b2c4f1e0d3a5b6c7d8e9f00112233445566778899aabbccddeeff0011223344"
)

#: kind -> (text with <S> where the secret is, the secret). One per detector.
KIND_CASES: dict[str, tuple[str, str]] = {
    "private-key": ("The deploy key was:\n<S>\nkeep this line", PEM),
    "encoded-private-key": (
        "    client-key-data: <S>\n  name: admin",
        base64.b64encode(PEM.encode()).decode(),
    ),
    "putty-key": ("saved as deploy.ppk:\n<S>\nthen loaded it", PUTTY),
    "anthropic-key": (
        "ANTHROPIC_API_KEY set to <S> for the demo",
        "sk-ant-api03-PtYgjmUhBel31iEl2hpChYgCfrL1spNxnyVmihA-2O76UMFxFkM-R5Kjp1vRt_1fjORS-"
        "6ilI8ihN5KXSc7Tvo-hBKqFYAA",
    ),
    "openai-key": (
        "OpenAI answered once <S> was in the shell",
        "sk-proj-z63FfkCzJr4i0B3JrTAwR4y9ojfljoQoaF1LlqsajAIxNKu8",
    ),
    "github-token": ("pushed with <S> then removed it", "ghp_iS2G8NPRVdD53X83RZJzzzzgEOzdmenCkhvM"),
    "gitlab-token": ("the runner used <S> today", "glpat-fogoEmvnEN5N1aE6PwZP"),
    "aws-access-key": ("IAM user key <S> (staging)", "AKIAFHYM4L1VFZ3ZFKKI"),
    "google-api-key": ("Maps call with <S> worked", "AIzabjL5DZPjN0MEQ7wjJJibaZUPgHV7iB3m03n"),
    "google-oauth": (
        "OAuth client secret <S> from the console",
        "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",
    ),
    "slack-token": (
        "bot posts as <S> in #ops",
        "xoxb-828288072902-2279180588871-4JdpmrcXgGCJbW56eCuNGMGm",
    ),
    "slack-webhook": (
        "alerts go to <S> now",
        "https://hooks.slack.com/services/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",
    ),
    "stripe-key": ("charge with <S> in prod", "sk_live_SrCGIZEG8pSH4487q7J58m1C"),
    "huggingface-token": ("model pulled with <S> ok", "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"),
    "npm-token": ("publish using <S> from CI", "npm_6Yo4gfqrc5XlrWi0B26R08qzjI6GKFSufrdZ"),
    "pypi-token": (
        "twine upload -u __token__ with <S> done",
        "pypi-AgEIcHlwaS5vcmcx2jIclHkCiHp6bR1IqfEouHgxzNNAL5wIScGebcy8F5n3-YNBDRzrZSgqbjG3uhkWKFLf6",
    ),
    "sendgrid-key": (
        "mail sent via <S> yesterday",
        "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",
    ),
    "azure-key": (
        "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=<S>;"
        "EndpointSuffix=core.windows.net",
        "Ksf2rcDkdfrUnW5gcF+Ha6ili8GjHEAD6/Wj9KfzjsQGMrb9h+ImB+LK777pzNk8cL6j5IXAAjlsHUqJoUD/+Y==",
    ),
    "azure-sas": (
        "https://acme.blob.core.windows.net/c/f.txt?sv=2022-11-02&ss=b&sig=<S> expires soon",
        "bka8FRCztUjAwyuh1vauWv1zh87mTa5Vsqxezy3L%3D",
    ),
    "twilio-key": ("Twilio API key SID <S> for SMS", "SK2bd818319478da6bd0c621de49f145fd"),
    "digitalocean-token": (
        "doctl auth with <S> worked",
        "dop_v1_a9988c79fc35526f7eaed46725a2a7b860dcd6c8a1f8b46287cced9041dff02c",
    ),
    "shopify-token": ("store admin token <S> rotated", "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"),
    "vault-token": (
        "VAULT login gave <S> for an hour",
        "hvs.OF8EFd0Nhcy-1kGD2VD-eR1UYzaLiA-zNyD7CHLn-xC_1hsYgBds1ghxY5OokvQyx7eNWVQ4vnakJkS1p",
    ),
    "age-key": (
        "sops uses <S> to decrypt",
        "AGE-SECRET-KEY-1HUV5H7P60EZCZAYRSVY4H34ZS53NQYPWX7ACSMLGLTQNF055AH9VE206YZ",
    ),
    "databricks-token": ("notebook run with <S> ok", "dapifa5d328263dfe574de739988b886e757"),
    "docker-token": ("docker login took <S> fine", "dckr_pat_EtKyPiYGFDm7ena8D5VfLDpgyyj"),
    "groq-key": (
        "LLM calls go through <S> now",
        "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",
    ),
    "mailchimp-key": ("newsletter sync with <S> done", "c425c8d99d19bdd0b6cc60d5d32cbe54-us21"),
    "telegram-token": (
        "the bot <S> answers in the group",
        "008261995:AAvsSKuvinX_zMqf9OgXluCZz8xBfZuXTpt",
    ),
    "discord-token": (
        "the bot logs in with <S> now",
        "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.xk3E9vQ2mN7pL4sT8wY1zR6uJ0hF5cB3aD9gK2",
    ),
    "discord-webhook": (
        "build alerts post to <S> now",
        "https://discord.com/api/webhooks/123456789012345678/"
        "k3E9vQ2mN7pL4sT8wY1zR6uJ0hF5cB3aD9gK2xk3E9vQ2mN7pL4sT8wY1zR6uJ0hF5c",
    ),
    "linear-key": ("LINEAR token for the sync: <S> works", "lin_api_" + "k3E9vQ2mN7pL4sT8wY1z" * 2),
    "atlassian-token": (
        "jira cli configured with <S> today",
        "ATATT3xFfGF0" + "k3E9vQ2mN7pL4sT8wY1z_R6uJ0hF5cB3aD9gK2-" * 4 + "=4F2A9C1B",
    ),
    "jwt": (
        "session cookie <S> expired",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gF",
    ),
    "bearer-token": (
        "curl -H 'Authorization: Bearer <S>' https://api.example.com",
        "FyfePpX6N1NF2XV5-4wca.7E56w8ZniqT3Ul4-ff",
    ),
    "basic-auth": (
        "sent Authorization: Basic <S> to the proxy",
        base64.b64encode(b"ci-bot:W1nter-Is-Here").decode(),
    ),
    "docker-auth": (
        '{"auths": {"ghcr.io": {"auth": "<S>"}}}',
        base64.b64encode(b"bob:Secr3t-Docker").decode(),
    ),
    "digest-auth": (
        'Authorization: Digest username="bob", realm="api", nonce="7ypf", response="<S>"',
        "6629fae49393a05397450978507c4ef1",
    ),
    "oracle-password": ("ran sqlplus scott/<S>@orcl for the report", "Tig3r_Ora9"),
    "auth-header": (
        "the API wants Authorization: Token <S> on each call",
        "9f8e7d6c5b4a39281706f5e4d3c2b1a0",
    ),
    "curl-user": ("curl -u deploy:<S> https://api.example.com/v1", "Curl-Pass-9917"),
    "url-password": ("DATABASE_URL=postgres://app:<S>@db.internal:5432/prod", "hunter2hunter2"),
    "netrc-password": (
        "~/.netrc has machine api.heroku.com login me@example.com password <S>",
        "Heroku-77xq",
    ),
    "cli-password": ("ran mysql -h db -u root -p<S> shop to check", "Myq7Root!pw"),
    "assignment": ("export DB_PASS=<S> before the migration", "S3cr3t-Pass!"),
    "cli-flag": ("deploy --api-token <S> --region eu", "tok-8812-ZZab"),
    "nested-secret": ("credentials:\n  default: <S>\n  region: eu-west-1", "Cr3dBlock-Value77"),
    "password-phrase": ("btw my password is <S>, don't tell", "Kettle9-Orchid"),
}


def test_every_detector_has_a_case_and_every_case_a_detector() -> None:
    assert sorted(KIND_CASES) == sorted(d.kind for d in DETECTORS)
    assert len({d.kind for d in DETECTORS}) == len(DETECTORS), "kinds name one detector each"


@pytest.mark.parametrize("kind", sorted(KIND_CASES))
def test_each_detector_replaces_exactly_its_secret(kind: str) -> None:
    template, secret = KIND_CASES[kind]
    text = template.replace("<S>", secret)
    clean, count = redact(text)
    assert secret not in clean
    assert clean == template.replace("<S>", f"[REDACTED:{kind}]")
    assert count == 1


@pytest.mark.parametrize("kind", sorted(KIND_CASES))
def test_each_redaction_is_final(kind: str) -> None:
    """Redacting again changes nothing and counts nothing (the write path relies on it)."""
    template, secret = KIND_CASES[kind]
    once, _ = redact(template.replace("<S>", secret))
    assert redact(once) == (once, 0)


def test_overlapping_claims_are_one_secret_named_by_the_specific_format() -> None:
    text = "export STRIPE_SECRET=sk_live_SrCGIZEG8pSH4487q7J58m1C now"
    assert redact(text) == ("export STRIPE_SECRET=[REDACTED:stripe-key] now", 1)


def test_several_secrets_are_counted_one_by_one() -> None:
    text = "user=admin password=Zq8xN2vL5p host=db token=ghp_iS2G8NPRVdD53X83RZJzzzzgEOzdmenCkhvM"
    assert redact(text) == (
        "user=admin password=[REDACTED:assignment] host=db token=[REDACTED:github-token]",
        2,
    )


def test_a_cut_off_private_key_goes_up_to_where_the_key_text_ends() -> None:
    text = (
        "pasted:\n-----BEGIN OPENSSH PRIVATE KEY-----\n"
        "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB\n"
        "AAAAMwAAAAtzc2gtZWQyNTUxOQAAACDx\n\nthen the paste was cut off"
    )
    assert redact(text) == ("pasted:\n[REDACTED:private-key]\n\nthen the paste was cut off", 1)


def test_a_private_key_in_a_json_string_keeps_the_json_valid() -> None:
    import json

    value = PEM.replace("\n", "\\n")
    text = '{"key": "' + value + '\\n", "ok": true}'
    clean, count = redact(text)
    assert count == 1
    assert json.loads(clean) == {"key": "[REDACTED:private-key]\n", "ok": True}
