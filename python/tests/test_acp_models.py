"""protocols/acp/test-vectors through the ACP dataclasses: every valid vector, after the validators
(which repair lenient members in place), decodes to the generated dataclasses and encodes back to
the same JSON, members unknown to the schema kept in `extra`, absent and `null` kept apart; and the
generated straight-line converters agree with the table-walking reference on each."""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from dsh_sdk.acp import PARAMS_VALIDATORS, RESULT_VALIDATORS, codec, table_codec
from dsh_sdk.acp._gen import models
from dsh_sdk.acp._gen.converters import DECODERS
from dsh_sdk.acp._gen.methods import METHODS
from dsh_sdk.wire_object import WireObject

VECTORS = Path(__file__).resolve().parents[2] / "protocols" / "acp" / "test-vectors"
VALID = [
    path
    for path in sorted(VECTORS.glob("*.json"))
    if json.loads(path.read_text(encoding="utf-8"))["valid"]
]


def _payload(vector: dict[str, Any]) -> tuple[str, Any]:
    """The IDL type of the vector's payload and its value as the validators leave it."""
    info = next(m for m in METHODS if m.wire_name == vector["method"])
    is_params = vector["payload"] == "params"
    type_name = info.params_type if is_params else info.result_type
    assert type_name is not None
    table = PARAMS_VALIDATORS if is_params else RESULT_VALIDATORS
    value = copy.deepcopy(vector["value"])
    assert list(table[vector["method"]](value)) == []
    return type_name, value


def test_has_valid_vectors() -> None:
    assert len(VALID) >= 10


@pytest.mark.parametrize("path", VALID, ids=[path.stem for path in VALID])
def test_vector_round_trip(path: Path) -> None:
    type_name, value = _payload(json.loads(path.read_text(encoding="utf-8")))
    decoded = codec.decode(type_name, value)
    assert isinstance(decoded, WireObject)
    assert type(decoded) is getattr(models, type(decoded).__name__)
    assert codec.encode(decoded) == value
    # The converters and the reference give equal objects of the same classes, all the way down.
    reference = table_codec.decode(type_name, value)
    assert _shape(decoded) == _shape(reference)
    assert decoded == reference


def _shape(value: Any) -> Any:
    """Classes and values of a decoded tree, so that equal-looking objects of two classes differ."""
    if isinstance(value, WireObject):
        members = {f.name: _shape(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return (type(value).__name__, members)
    if isinstance(value, list):
        return [_shape(item) for item in value]
    if isinstance(value, dict):
        return {key: _shape(item) for key, item in value.items()}
    return value


def test_every_type_has_a_converter_that_agrees_on_the_examples() -> None:
    """Each IDL example of each object and union type, through both decoders and back."""
    schema = json.loads(
        (Path(models.__file__).parent / "protocol.schema.json").read_text(encoding="utf-8")
    )
    checked = 0
    for name, definition in schema["definitions"].items():
        if name not in DECODERS:
            continue
        for example in definition.get("examples", []):
            ours = DECODERS[name](copy.deepcopy(example))
            assert _shape(ours) == _shape(table_codec.decode(name, example)), name
            assert table_codec.CODEC.encode_value(ours) == example, name
            checked += 1
    assert checked >= len(DECODERS) // 2


# Constructs the vectors do not reach, each as a valid ACP payload: (method, params, the class the
# payload decodes to, a path of attributes, the class found there).
CONSTRUCTS = [
    pytest.param(
        "elicitation/create",
        {
            "requestId": 3,
            "mode": "_custom",
            "message": "m",
            "later": True,
        },
        "UnknownCreateElicitationRequest",
        ("request_id",),
        "int",
        id="open-union-unknown-variant-with-union-base",
    ),
    pytest.param(
        "elicitation/create",
        {
            "sessionId": "s",
            "toolCallId": None,
            "mode": "url",
            "message": "m",
            "elicitationId": "e",
            "url": "https://example.com/",
        },
        "UrlCreateElicitationRequest",
        ("session_id",),
        "str",
        id="union-base-null-kept-in-extra",
    ),
    pytest.param(
        "elicitation/create",
        {
            "sessionId": "s",
            "mode": "form",
            "message": "m",
            "requestedSchema": {
                "properties": {
                    "tags": {"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}]}},
                    "pick": {"type": "array", "items": {"type": "string", "enum": ["x"]}},
                },
            },
        },
        "FormCreateElicitationRequest",
        ("requested_schema", "properties", "tags", "items"),
        "TitledMultiSelectItems",
        id="map-of-unions-and-default-variant",
    ),
    pytest.param(
        "session/update",
        {
            "sessionId": "s",
            "update": {
                "sessionUpdate": "config_option_update",
                "configOptions": [
                    {
                        "type": "select",
                        "id": "m",
                        "name": "Model",
                        "currentValue": "a",
                        "options": [
                            {"group": "g", "name": "G", "options": [{"value": "a", "name": "A"}]}
                        ],
                    }
                ],
            },
        },
        "SessionNotification",
        ("update", "config_options", 0, "options", 0),
        "SessionConfigSelectGroup",
        id="untagged-union-of-arrays",
    ),
    pytest.param(
        "session/prompt",
        {
            "sessionId": "s",
            "prompt": [{"type": "resource", "resource": {"uri": "u", "blob": "AAAA"}}],
        },
        "PromptRequest",
        ("prompt", 0, "resource"),
        "BlobResourceContents",
        id="untagged-union-second-variant",
    ),
]


@pytest.mark.parametrize(("method", "params", "cls", "path", "found"), CONSTRUCTS)
def test_construct(method: str, params: Any, cls: str, path: tuple[Any, ...], found: str) -> None:
    value = copy.deepcopy(params)
    assert list(PARAMS_VALIDATORS[method](value)) == []
    type_name = next(m.params_type for m in METHODS if m.wire_name == method)
    decoded = codec.decode(type_name, value)
    assert type(decoded).__name__ == cls
    node: Any = decoded
    for step in path:
        node = (
            node[step] if isinstance(step, int) or isinstance(node, dict) else getattr(node, step)
        )
    assert type(node).__name__ == found
    assert codec.encode(decoded) == params
    assert _shape(decoded) == _shape(table_codec.decode(type_name, value))


def test_a_null_beside_absence_stays_null() -> None:
    """`toolCallId: null` and an absent `toolCallId` both read None, so the null goes to `extra`."""
    value: dict[str, Any] = {"sessionId": "s", "toolCallId": None, "requestedSchema": {}}
    decoded = codec.decode("ElicitationFormMode", value)
    assert decoded.tool_call_id is None
    assert decoded.extra == {"toolCallId": None}
    assert codec.encode(decoded) == value
    assert codec.encode(
        codec.decode("ElicitationFormMode", {"sessionId": "s", "requestedSchema": {}})
    ) == {
        "sessionId": "s",
        "requestedSchema": {},
    }
