"""Redaction hides what was declared: the values of declared variables and declared shapes."""

from __future__ import annotations

import pytest

from figgen._util.redact import declare_secret, redact, secret_env


def test_a_declared_variable_and_shape_are_redacted_once_declared(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FIGGEN_TEST_REDACT_KEY", "plain-credential-0001")
    text = "sent plain-credential-0001 and zq-7777777777 and zq-short"
    assert redact(text) == text  # nothing declared holds either
    declare_secret("FIGGEN_TEST_REDACT_KEY", shape=r"zq-[0-9]{8,}")
    declare_secret("FIGGEN_TEST_REDACT_KEY", shape=r"zq-[0-9]{8,}")  # again: a no-op
    assert secret_env().count("FIGGEN_TEST_REDACT_KEY") == 1
    assert redact(text) == "sent *** and *** and zq-short"


def test_given_secrets_are_redacted_and_short_values_are_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert redact("token abcdefgh1234 in", "abcdefgh1234") == "token *** in"
    monkeypatch.setenv("FIGGEN_TEST_REDACT_SHORT", "abc")
    declare_secret("FIGGEN_TEST_REDACT_SHORT")
    assert redact("abc abc", None, "") == "abc abc"  # under 8 characters: too common to hide
