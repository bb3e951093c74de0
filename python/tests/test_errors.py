"""JsonRpcResponseError's readable message: the cases of
packages/protocol/test/fixtures/response-error-messages.json, shared with the TypeScript test."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dsh_sdk.errors import JsonRpcResponseError

FIXTURE = (
    Path(__file__).resolve().parents[2]
    / "packages/protocol/test/fixtures/response-error-messages.json"
)
CASES: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", CASES, ids=[case["description"] for case in CASES])
def test_message_shows_the_first_violations(case: dict[str, Any]) -> None:
    wire: dict[str, Any] = {k: case[k] for k in ("code", "message", "data") if k in case}
    error = JsonRpcResponseError.from_error_object(wire)
    assert error.message == case["expected"]
    assert str(error) == f"{case['expected']} ({case['code']})"
    assert error.wire_message == case["message"]


def test_the_wire_keeps_its_message_and_data() -> None:
    data = [{"pointer": "/model", "message": 'model "gpt-9" is not served by echo'}]
    error = JsonRpcResponseError(-32602, "Invalid params", data)
    assert error.message == 'Invalid params: /model: model "gpt-9" is not served by echo'
    assert error.data is data
    assert error.to_error_object() == {"code": -32602, "message": "Invalid params", "data": data}
    assert error.args == (error.message,)
