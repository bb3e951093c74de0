"""The generated straight-line converters (`_gen/converters.py`) against the table-walking reference
(`table_codec`): on every JSON object of every golden vector, decoded as every object and union type
of the protocol, both give equal dataclasses (`extra` included) whose encodings are the same bytes,
or both refuse the value with the same error."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from dsh_sdk import codec, table_codec
from dsh_sdk._gen import models as m
from dsh_sdk._gen.converters import DECODERS
from dsh_sdk._gen.wire_names import CLASSES, UNIONS
from dsh_sdk.wire_object import slot_setters

VECTORS = Path(__file__).resolve().parents[2] / "test-vectors"


def vector_objects() -> list[Any]:
    """Every line of every NDJSON vector that parses to an object, and each member value of it that
    is an object too (params, results, events), so nested types meet their own payloads."""
    found: list[Any] = []
    for path in sorted(VECTORS.rglob("*.ndjson")):
        for line in path.read_bytes().split(b"\n"):
            try:
                value = json.loads(line)
            except (ValueError, RecursionError):  # the framing vectors hold malformed lines
                continue
            stack = [value]
            while stack:
                item = stack.pop()
                if isinstance(item, dict):
                    found.append(item)
                    stack.extend(item.values())
                elif isinstance(item, list):
                    stack.extend(item)
    return found


OBJECTS = vector_objects()


def outcome(decode: Any, name: str, value: Any) -> tuple[str, Any]:
    try:
        decoded = decode(name, value)
    except table_codec.CodecError as error:
        return "refused", str(error)
    return "decoded", decoded


def test_the_vectors_hold_enough_objects_to_compare() -> None:
    assert len(OBJECTS) > 1000


def test_every_class_and_union_has_a_generated_decoder() -> None:
    assert set(DECODERS) == set(CLASSES) | set(UNIONS)


@pytest.mark.parametrize("name", sorted(DECODERS))
def test_generated_decoders_agree_with_the_tables_on_every_vector_object(name: str) -> None:
    decoded_some = 0
    for value in OBJECTS:
        generated = outcome(codec.decode, name, value)
        reference = outcome(table_codec.decode, name, value)
        # repr, not ==: NaN is not equal to itself, and from Python 3.13 a dataclass's __eq__
        # compares field by field (before, as tuples, where the same NaN object is equal).
        assert generated[0] == reference[0], value
        assert repr(generated[1]) == repr(reference[1]), value
        if generated[0] == "decoded":
            decoded_some += 1
            assert type(generated[1]) is type(reference[1])
            ours = json.dumps(codec.encode(generated[1]))
            assert ours == json.dumps(table_codec.encode(reference[1])), value
    # Every type has payloads in the vectors, or the comparison proves nothing for it.
    assert decoded_some > 0


MESSAGE = {"id": "m-1", "role": "assistant", "content": [{"type": "text", "text": "hi"}]}


def test_decoded_objects_are_the_frozen_dataclasses_init_would_build() -> None:
    """The generated decoders build instances without `__init__`: the result must still be the
    frozen dataclass `__init__` builds, every field set, and `extra` an object of its own."""
    value = {"type": "assistant/message", "seq": 3, "time": 5, "data": {"message": MESSAGE}}
    decoded = codec.decode(m.AssistantMessageEvent, value)
    built = m.AssistantMessageEvent(
        type="assistant/message",
        seq=3,
        time=5,
        data=m.AssistantReply(
            message=m.AssistantMessage(
                id="m-1", role="assistant", content=[m.TextBlock(type="text", text="hi")]
            )
        ),
    )
    assert decoded == built
    assert repr(decoded) == repr(built)
    with pytest.raises(dataclasses.FrozenInstanceError):
        decoded.seq = 4  # type: ignore[misc]
    assert dataclasses.replace(decoded, seq=4).seq == 4
    # Each instance has its own `extra`, as `field(default_factory=dict)` gives it.
    again = codec.decode(m.AssistantMessageEvent, value)
    assert decoded.extra == {} and decoded.extra is not again.extra


@pytest.mark.parametrize(
    "names",
    [
        pytest.param(("type",), id="a field left out"),
        pytest.param(("type", "text", "extra", "colour"), id="a field the class lacks"),
        pytest.param(("type", "type", "extra"), id="a field twice, another left out"),
    ],
)
def test_slot_setters_refuse_names_that_are_not_exactly_the_fields(names: tuple[str, ...]) -> None:
    with pytest.raises(TypeError, match="TextBlock has the fields"):
        slot_setters(m.TextBlock, *names)


def test_slot_setters_set_the_named_fields_in_order() -> None:
    set_type, set_text, set_extra = slot_setters(m.TextBlock, "type", "text", "extra")
    block = object.__new__(m.TextBlock)
    set_type(block, "text")
    set_text(block, "hello")
    set_extra(block, {"x-note": 1})
    assert block == m.TextBlock(type="text", text="hello", extra={"x-note": 1})
