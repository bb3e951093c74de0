"""classify_message: request, notification, response or malformed (the IDL's `diagnostics`)."""

from __future__ import annotations

from typing import Any

import pytest

from dsh_sdk.classify import MalformedMessage, classify_message, is_json_rpc_id

WELL_FORMED = [
    pytest.param({"jsonrpc": "2.0", "id": 1, "method": "initialize"}, "request", id="request"),
    pytest.param({"id": "a", "method": "m", "params": None}, "request", id="request-no-jsonrpc"),
    pytest.param({"id": 0, "method": "m"}, "request", id="request-id-zero"),
    pytest.param({"id": "", "method": "m"}, "request", id="request-id-empty-string"),
    pytest.param({"id": -1.5, "method": "m"}, "request", id="request-id-float"),
    pytest.param({"jsonrpc": "2.0", "method": "session.event"}, "notification", id="notification"),
    pytest.param({"method": "m", "params": [1]}, "notification", id="notification-no-jsonrpc"),
    pytest.param({"id": 1, "result": None}, "success", id="success-null-result"),
    pytest.param({"jsonrpc": "2.0", "id": 1, "result": {}}, "success", id="success"),
    pytest.param(
        {"id": 1, "error": {"code": -32601, "message": "Method not found"}}, "error", id="error"
    ),
    pytest.param(
        {"id": 1, "error": {"code": -32603.0, "message": "x", "data": None}},
        "error",
        id="error-integral-float-code",
    ),
    pytest.param({"method": "m", "extra": True}, "notification", id="unknown-members-ignored"),
]


@pytest.mark.parametrize(("value", "kind"), WELL_FORMED)
def test_a_well_formed_message_gets_its_kind(value: Any, kind: str) -> None:
    assert classify_message(value) == kind


MALFORMED = [
    pytest.param([{"id": 1, "method": "m"}], "batch-unsupported", id="batch"),
    pytest.param([], "batch-unsupported", id="empty-batch"),
    pytest.param("text", "not-an-object", id="string"),
    pytest.param(1, "not-an-object", id="number"),
    pytest.param(True, "not-an-object", id="boolean"),
    pytest.param(None, "not-an-object", id="null"),
    pytest.param({"id": None, "method": "m"}, "invalid-id", id="null-id"),
    pytest.param({"id": True, "method": "m"}, "invalid-id", id="true-id"),
    pytest.param({"id": False, "result": 1}, "invalid-id", id="false-id"),
    pytest.param({"id": {}, "method": "m"}, "invalid-id", id="object-id"),
    pytest.param({"id": [], "method": "m"}, "invalid-id", id="array-id"),
    pytest.param({"id": float("inf"), "result": 1}, "invalid-id", id="infinite-id"),
    pytest.param({"id": None, "jsonrpc": "1.0"}, "invalid-id", id="invalid-id-before-jsonrpc"),
    pytest.param({"jsonrpc": "1.0", "method": "m"}, "invalid-message", id="jsonrpc-1.0"),
    pytest.param({"jsonrpc": 2, "method": "m"}, "invalid-message", id="jsonrpc-number"),
    pytest.param({"jsonrpc": None, "method": "m"}, "invalid-message", id="jsonrpc-null"),
    pytest.param({"method": 1}, "invalid-message", id="method-number"),
    pytest.param({"method": None, "id": 1}, "invalid-message", id="method-null"),
    pytest.param({}, "invalid-message", id="empty-object"),
    pytest.param({"jsonrpc": "2.0", "params": {}}, "invalid-message", id="neither-id-nor-method"),
    pytest.param({"id": 1}, "invalid-message", id="response-without-result-or-error"),
    pytest.param(
        {"id": 1, "result": 1, "error": {"code": 1, "message": "m"}},
        "invalid-message",
        id="result-and-error",
    ),
    pytest.param({"id": 1, "error": None}, "invalid-message", id="null-error"),
    pytest.param({"id": 1, "error": {"message": "m"}}, "invalid-message", id="error-no-code"),
    pytest.param({"id": 1, "error": {"code": 1}}, "invalid-message", id="error-no-message"),
    pytest.param(
        {"id": 1, "error": {"code": 1.5, "message": "m"}}, "invalid-message", id="error-float-code"
    ),
    pytest.param(
        {"id": 1, "error": {"code": True, "message": "m"}}, "invalid-message", id="error-bool-code"
    ),
    pytest.param(
        {"id": 1, "error": {"code": 1, "message": 2}}, "invalid-message", id="error-number-message"
    ),
]


@pytest.mark.parametrize(("value", "reason"), MALFORMED)
def test_a_malformed_value_gets_its_reason(value: Any, reason: str) -> None:
    classified = classify_message(value)
    assert isinstance(classified, MalformedMessage)
    assert classified.reason == reason
    assert classified.detail


def test_a_malformed_message_keeps_a_valid_id_and_a_string_method_for_the_report() -> None:
    classified = classify_message({"jsonrpc": "1.0", "id": 7, "method": "m"})
    assert isinstance(classified, MalformedMessage)
    assert (classified.id, classified.method) == (7, "m")
    invalid = classify_message({"id": True, "method": 3})
    assert isinstance(invalid, MalformedMessage)
    assert (invalid.id, invalid.method) == (None, None)


def test_the_detail_names_what_was_wrong() -> None:
    classified = classify_message({"id": True, "method": "m"})
    assert isinstance(classified, MalformedMessage)
    assert classified.detail == "id must be a string or a number, got a boolean"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("", True),
        ("x", True),
        (0, True),
        (-3, True),
        (2.5, True),
        (True, False),
        (False, False),
        (None, False),
        (float("nan"), False),
        (float("-inf"), False),
        ([], False),
        ({}, False),
    ],
)
def test_an_id_is_a_string_or_a_finite_number_but_never_a_bool(value: Any, expected: bool) -> None:
    assert is_json_rpc_id(value) is expected
