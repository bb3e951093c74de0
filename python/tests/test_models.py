"""Generated models agree with the generated tables; every IDL example survives decode → encode."""

from __future__ import annotations

import dataclasses
import enum
import json
import typing
from pathlib import Path
from typing import Any, cast

import pytest

from dsh_sdk import codec
from dsh_sdk._gen import constants, methods, models, wire_names
from dsh_sdk.wire_object import WireObject

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "src/dsh_sdk/_gen/protocol.schema.json"
DEFINITIONS: dict[str, Any] = json.loads(SCHEMA_PATH.read_text("utf-8"))["definitions"]

EXAMPLES = [
    pytest.param(name, example, id=f"{name}-{index}")
    for name, schema in DEFINITIONS.items()
    for index, example in enumerate(schema.get("examples", []))
]


@pytest.mark.parametrize("name", list(wire_names.CLASSES))
def test_dataclass_fields_are_the_table_attributes(name: str) -> None:
    info = wire_names.CLASSES[name]
    assert info.cls.__name__ == name
    declared = {f.name: f for f in dataclasses.fields(info.cls) if f.name != "extra"}
    # datamodel-code-generator puts required fields first; the table keeps schema (wire) order.
    assert sorted(declared) == sorted(f.attribute for f in info.fields)
    for field in info.fields:
        has_default = declared[field.attribute].default is not dataclasses.MISSING
        assert has_default != field.required, field.attribute


def test_every_generated_model_class_has_a_table_entry() -> None:
    generated = {
        name
        for name, value in vars(models).items()
        if isinstance(value, type) and issubclass(value, WireObject) and value is not WireObject
    }
    assert generated == set(wire_names.CLASSES)


def test_models_are_frozen_keyword_only_dataclasses_with_extra() -> None:
    block = models.TextBlock(type="text", text="hi")
    assert block.extra == {}
    with pytest.raises(dataclasses.FrozenInstanceError):
        block.text = "no"  # type: ignore[misc]
    with pytest.raises(TypeError):
        cast(Any, models.TextBlock)("text", "hi")


@pytest.mark.parametrize("name", list(wire_names.UNIONS))
def test_union_aliases_hold_exactly_the_table_variants(name: str) -> None:
    info = wire_names.UNIONS[name]
    expected = {wire_names.CLASSES[v.type_name].cls for v in info.variants}
    if info.unknown is not None:
        expected.add(wire_names.CLASSES[info.unknown].cls)
    assert set(typing.get_args(info.alias)) == expected


def test_every_definition_has_a_conversion_and_unions_are_open_where_the_idl_says() -> None:
    # OpenValue is the number rule's schema for open content (codegen/src/schema/number-rule.ts),
    # which validators read; it is no type of its own.
    assert set(wire_names.TYPES) == set(DEFINITIONS) - {"OpenValue"}
    assert wire_names.UNIONS["SessionEvent"].unknown == "UnknownSessionEvent"
    assert wire_names.UNIONS["ContentBlock"].unknown == "UnknownContentBlock"


def test_open_string_enums_are_plain_strings_and_closed_ones_literals() -> None:
    assert models.TurnEndKind is str
    assert models.SubagentStopReason is str
    assert typing.get_args(models.SessionStatus) == ("running", "idle")
    assert typing.get_args(models.ImageMimeType) == (
        "image/png",
        "image/jpeg",
        "image/webp",
        "image/gif",
    )


@pytest.mark.parametrize(("name", "example"), EXAMPLES)
def test_every_idl_example_decodes_and_encodes_back_unchanged(name: str, example: object) -> None:
    decoded = codec.decode(name, example)
    if isinstance(decoded, WireObject):
        assert codec.encode(decoded) == example
    elif isinstance(decoded, list):
        assert [codec.encode(item) for item in decoded] == example
    else:
        assert decoded == example


def test_constants_follow_the_idl() -> None:
    assert DEFINITIONS["ServerName"]["const"] == constants.SERVER_NAME
    assert issubclass(constants.ErrorCode, enum.IntEnum)
    assert int(constants.ErrorCode.METHOD_NOT_FOUND) == -32601
    assert int(constants.ErrorCode.NOT_INITIALIZED) == -32002
    assert set(constants.ERROR_MESSAGES) == set(constants.ErrorCode)
    assert typing.get_args(constants.DiagnosticReason) == constants.DIAGNOSTIC_REASONS
    assert constants.DEFAULT_MAX_FRAME_BYTES == 64 * 1024 * 1024


def test_method_constants_match_the_method_table() -> None:
    by_name = {m.wire_name: m for m in methods.METHODS}
    assert methods.Method.SESSION_PROMPT == "session/prompt"
    constant_values = [value for key, value in vars(methods.Method).items() if key.isupper()]
    assert constant_values == list(by_name)
    assert by_name["session/prompt"].params_type == "SessionPromptParams"
    assert by_name["shutdown"].params_type is None
    assert by_name["session.event"].kind == "notification"
    assert by_name["session.event"].direction == "serverToClient"
