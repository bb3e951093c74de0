"""codec.decode / codec.encode: lossless round trips, unknown members and variants kept."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsh_sdk import codec, table_codec, wire_tables
from dsh_sdk._gen import models, validators, wire_names
from dsh_sdk.codec import CodecError

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "src/dsh_sdk/_gen/protocol.schema.json"
DEFINITIONS: dict[str, Any] = json.loads(SCHEMA_PATH.read_text("utf-8"))["definitions"]
REF = "#/definitions/"

# ---- strategies built from the schema bundle ------------------------------------------------

# Open content holds any JSON value whose numbers are within the protocol's range (±(2^53 - 1)).
JSON_VALUES: st.SearchStrategy[object] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53) + 1, 2**53 - 1)
    | st.floats(min_value=-(2**53) + 1, max_value=2**53 - 1)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


def from_schema(schema: Any, depth: int = 0) -> st.SearchStrategy[Any]:
    """Valid values of a schema of the bundle (the subset the IDL uses), with unknown members."""
    if schema is True:
        return JSON_VALUES
    if "$ref" in schema:
        name = schema["$ref"].removeprefix(REF)
        return st.deferred(lambda: from_schema(DEFINITIONS[name], depth + 1))
    if "allOf" in schema:
        (only,) = schema["allOf"]
        return from_schema(only, depth)
    if "anyOf" in schema:
        return st.one_of([from_schema(branch, depth) for branch in schema["anyOf"]])
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kind = schema.get("type")
    if isinstance(kind, list):
        return st.one_of([from_schema({**schema, "type": k}, depth) for k in kind])
    if kind == "null":
        return st.none()
    if kind == "boolean":
        return st.booleans()
    if kind == "integer":
        return st.integers(schema.get("minimum", -(2**53) + 1), schema.get("maximum", 2**53 - 1))
    if kind == "string":
        return string_strategy(schema)
    if kind == "array":
        items = from_schema(schema["items"], depth)
        return st.lists(items, min_size=schema.get("minItems", 0), max_size=0 if depth > 6 else 3)
    if kind == "object":
        return object_strategy(schema, depth)
    return JSON_VALUES


def string_strategy(schema: dict[str, Any]) -> st.SearchStrategy[str]:
    if schema.get("contentEncoding") == "base64":
        return st.binary(max_size=12).map(lambda b: base64.b64encode(b).decode("ascii"))
    text = st.text(min_size=schema.get("minLength", 0), max_size=10)
    excluded = schema.get("not", {}).get("enum")
    if excluded:
        text = text.filter(lambda s: s not in excluded)
    return text


def object_strategy(schema: dict[str, Any], depth: int) -> st.SearchStrategy[dict[str, Any]]:
    properties: dict[str, Any] = schema.get("properties", {})
    required = set(schema.get("required", []))
    fixed = {
        k: from_schema(p, depth) for k, p in properties.items() if p is not False and k in required
    }
    optional = {
        k: from_schema(p, depth)
        for k, p in properties.items()
        if p is not False and k not in required
    }
    unknown = st.dictionaries(
        st.text(min_size=1, max_size=6).filter(lambda k: k not in properties),
        JSON_VALUES,
        max_size=2,
    )

    @st.composite
    def build(draw: st.DrawFn) -> dict[str, Any]:
        value = draw(st.fixed_dictionaries(fixed, optional=optional))
        return {**draw(unknown), **value}

    return build()


OBJECT_OR_UNION = [
    name
    for name, conversion in wire_names.TYPES.items()
    if not isinstance(conversion, wire_tables.Scalar)
]


@pytest.mark.parametrize("name", OBJECT_OR_UNION)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_decode_then_encode_is_the_identity(name: str, data: st.DataObject) -> None:
    value = data.draw(from_schema(DEFINITIONS[name]))
    decoded = codec.decode(name, value)
    # The generated converters and the table-walking reference agree, unknown members and all.
    assert decoded == table_codec.decode(name, value)
    encoded = (
        [codec.encode(x) for x in decoded] if isinstance(decoded, list) else codec.encode(decoded)
    )
    assert encoded == value


CHECKED = {
    "InitializeParams": validators.validate_initialize_params,
    "SessionPromptParams": validators.validate_session_prompt_params,
    "SessionEventNotification": validators.validate_session_event_notification,
    "SubagentFinishedNotification": validators.validate_subagent_finished_notification,
    "InitializeResult": validators.validate_initialize_result,
}


@pytest.mark.parametrize("name", list(CHECKED))
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_generated_valid_payloads_pass_the_validators_and_round_trip(
    name: str, data: st.DataObject
) -> None:
    value = data.draw(from_schema(DEFINITIONS[name]))
    assert CHECKED[name](value) == []
    assert codec.encode(codec.decode(name, value)) == value


# ---- behaviour, case by case ----------------------------------------------------------------


def test_unknown_members_of_a_known_object_are_kept_in_extra() -> None:
    wire = {"cwd": "/w", "provider": "echo", "model": "m", "future": [1, {"a": None}]}
    params = codec.decode(models.InitializeParams, wire)
    assert params.cwd == "/w"
    assert params.extra == {"future": [1, {"a": None}]}
    assert codec.encode(params) == wire


def test_an_unknown_variant_keeps_the_whole_value() -> None:
    wire = {"type": "plugin/memory/saved", "seq": 11, "time": 5, "data": {"key": "k"}, "more": 1}
    decoded = codec.decode(models.SessionEvent, wire)
    assert isinstance(decoded, models.UnknownSessionEvent)
    assert decoded.type == "plugin/memory/saved"
    assert codec.encode(decoded) == wire
    block = codec.decode("ContentBlock", {"type": "audio", "seconds": 3})
    assert isinstance(block, models.UnknownContentBlock)
    assert block.extra == {"seconds": 3}


def test_absent_optional_members_stay_absent_and_none_is_never_written() -> None:
    params = models.InitializeParams(cwd="/w", provider="echo", model="m")
    assert codec.encode(params) == {"cwd": "/w", "provider": "echo", "model": "m"}
    finished = codec.decode(
        models.SubagentFinishedNotification,
        DEFINITIONS["SubagentFinishedNotification"]["examples"][1],
    )
    assert finished.last_assistant_message is None
    assert "lastAssistantMessage" not in codec.encode(finished)


def test_an_empty_list_is_not_absent() -> None:
    wire = {
        **DEFINITIONS["SubagentFinishedNotification"]["examples"][1],
        "lastAssistantMessage": [],
    }
    finished = codec.decode(models.SubagentFinishedNotification, wire)
    assert finished.last_assistant_message == []
    assert codec.encode(finished) == wire


def test_a_null_where_the_schema_allows_it_survives() -> None:
    frame = {"jsonrpc": "2.0", "id": 1, "method": "shutdown", "params": None}
    assert codec.encode(codec.decode("ShutdownRequestFrame", frame)) == frame
    absent = {"jsonrpc": "2.0", "id": 1, "method": "shutdown"}
    assert codec.encode(codec.decode("ShutdownRequestFrame", absent)) == absent


def test_image_blocks_are_told_apart_by_data() -> None:
    inline = codec.decode(
        "SdkPromptContentBlock", {"type": "image", "data": "", "mimeType": "image/png"}
    )
    durable = codec.decode(
        "SdkPromptContentBlock",
        {"type": "image", "attachment": {"attachmentId": "a", "mediaType": "x"}},
    )
    assert isinstance(inline, models.SdkEncodedImageBlock)
    assert isinstance(durable, models.ImageBlock)
    assert isinstance(durable.attachment, models.ImageAttachment)


def test_nested_unions_decode_to_their_variants() -> None:
    wire = {"sessionId": "s", "contentBlocks": [{"type": "text", "text": "hi"}]}
    params = codec.decode(models.SessionPromptParams, wire)
    assert params.content_blocks == [models.TextBlock(type="text", text="hi")]


def test_scalar_and_array_types_decode_by_name() -> None:
    assert codec.decode("SessionId", "s-1") == "s-1"
    violations = codec.decode("InvalidParamsData", [{"pointer": "/a", "message": "m"}])
    assert violations == [models.Violation(pointer="/a", message="m")]


def test_decoding_a_value_of_the_wrong_shape_raises_codec_error() -> None:
    with pytest.raises(CodecError, match="InitializeParams"):
        codec.decode(models.InitializeParams, {"cwd": "/w"})
    with pytest.raises(CodecError):
        codec.decode(models.InitializeParams, [])
    with pytest.raises(CodecError):
        codec.decode("SessionPromptParams", {"sessionId": "s", "contentBlocks": "x"})
    with pytest.raises(CodecError):
        codec.decode("NoSuchType", {})


def test_encoding_something_that_is_not_a_model_raises_codec_error() -> None:
    with pytest.raises(CodecError):
        codec.encode(object())  # type: ignore[arg-type]
