"""The generated straight-line converters (`_gen/converters.py`) against the table-walking reference
(`table_codec`): on every JSON object of every golden vector, decoded as every object and union type
of the protocol, both give equal dataclasses (`extra` included) whose encodings are the same bytes,
or both refuse the value with the same error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dsh_sdk import codec, table_codec
from dsh_sdk._gen.converters import DECODERS
from dsh_sdk._gen.wire_names import CLASSES, UNIONS

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
