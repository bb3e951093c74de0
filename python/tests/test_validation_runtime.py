"""The helpers the compiled validators call: JSON Schema's number, integer and equality, ajv's
string lengths, violation collection, and the canonical-base64 check (decided without decoding, for
speed on multi-MiB images), which accepts exactly the texts that decode and encode back to
themselves."""

from __future__ import annotations

import base64
import binascii

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from dsh_sdk._gen.models import Violation
from dsh_sdk.jsonlib import ABSENT
from dsh_sdk.validation_runtime import (
    Out,
    all_numbers_within,
    any_of,
    is_canonical_base64,
    is_integer,
    is_number,
    json_equal,
    json_in,
    member_pointer,
    passes,
    run,
    unknown_members,
    utf16_length,
)

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def round_trips(text: str) -> bool:
    """The definition the TypeScript check uses: decoding and encoding again gives the text."""
    try:
        return base64.b64encode(base64.b64decode(text, validate=True)).decode("ascii") == text
    except (binascii.Error, ValueError):
        return False


@given(st.binary(max_size=64))
def test_encoded_bytes_are_canonical(data: bytes) -> None:
    assert is_canonical_base64(base64.b64encode(data).decode("ascii"))


@given(st.text(alphabet=ALPHABET + "=-_ \n\r\té", max_size=16))
@example("")
@example("AA==")
@example("AB==")
@example("AAE=")
@example("AAF=")
@example("A===")
@example("====")
@example("AB=C")
@example("iVBORw0KGgo=")
@example("iVBORw0KGgo")
def test_agrees_with_decoding_and_encoding_again(text: str) -> None:
    assert is_canonical_base64(text) == round_trips(text)


@given(st.binary(min_size=1, max_size=32), st.sampled_from(ALPHABET))
def test_agrees_on_every_last_character_before_the_padding(data: bytes, last: str) -> None:
    encoded = base64.b64encode(data).decode("ascii")
    body = encoded.rstrip("=")
    text = body[:-1] + last + encoded[len(body) :]
    assert is_canonical_base64(text) == round_trips(text)


@pytest.mark.parametrize(
    ("value", "number", "integer"),
    [
        (1, True, True),
        (1.0, True, True),
        (1.5, True, False),
        (float("inf"), True, True),
        (True, False, False),
        ("1", False, False),
        (None, False, False),
    ],
)
def test_number_and_integer_follow_json_schema(value: object, number: bool, integer: bool) -> None:
    assert is_number(value) is number
    assert is_integer(value) is integer


def test_counts_string_length_in_utf16_code_units() -> None:
    assert utf16_length("abc") == 3
    assert utf16_length("a\U0001f600") == 3
    assert utf16_length("\ud800") == 1


@pytest.mark.parametrize(
    ("a", "b", "equal"),
    [
        (True, 1, False),
        (1, 1.0, True),
        ([1, True], [1.0, True], True),
        ([1, True], [1, 1], False),
        ({"a": [0]}, {"a": [0.0]}, True),
        ({"a": 1}, {"a": 1, "b": 2}, False),
        (None, None, True),
        ("1", 1, False),
    ],
)
def test_json_equality_tells_booleans_from_numbers(a: object, b: object, equal: bool) -> None:
    assert json_equal(a, b) is equal
    assert json_in(a, (b,)) is equal


def _must_be_string(v: object, p: str, out: Out) -> None:
    if not isinstance(v, str):
        out.append((p, "must be string"))


def _must_be_null(v: object, p: str, out: Out) -> None:
    if v is not None:
        out.append((p, "must be null"))


def test_any_of_reports_every_branch_only_when_none_passes() -> None:
    out: Out = []
    any_of("x", "/a", out, (_must_be_null, _must_be_string))
    assert out == []
    any_of(1, "/a", out, (_must_be_null, _must_be_string))
    assert out == [
        ("/a", "must be null"),
        ("/a", "must be string"),
        ("/a", "must match a schema in anyOf"),
    ]


def test_run_reports_a_violation_found_twice_once() -> None:
    def twice(v: object, p: str, out: Out) -> None:
        _must_be_string(v, p, out)
        _must_be_string(v, p, out)

    assert passes(twice, "x")
    assert not passes(twice, 1)
    assert run(twice, "x") == []
    assert run(twice, 1) == [Violation(pointer="", message="must be string")]


def test_absent_tells_a_missing_member_from_null() -> None:
    members: dict[str, object] = {"a": None}
    assert members.get("a", ABSENT) is None
    assert members.get("b", ABSENT) is ABSENT


SAFE = (-(2**53) + 1, 2**53 - 1)


def test_all_numbers_within_passes_only_numbers_inside_the_bounds() -> None:
    assert all_numbers_within([0, 2**53 - 1, -(2**53) + 1, 1.5, True], SAFE)
    assert all_numbers_within({"a": 1, "b": 2.5}.values(), SAFE)
    assert not all_numbers_within([2**53], SAFE)
    assert not all_numbers_within([1, float("inf")], SAFE)
    assert not all_numbers_within([float("nan")], SAFE)  # the checks one by one decide
    for mixed in (["a"], [1, "x"], [None], [[1]], [{"a": 1}], []):
        assert not all_numbers_within(mixed, SAFE), mixed


def test_unknown_members_come_in_the_order_javascript_enumerates_them() -> None:
    value = {"b": 1, "10": 2, "a": 3, "2": 4, "01": 5, "4294967295": 6, "4294967294": 7, "x": 8}
    assert unknown_members(value, frozenset({"a"})) == [
        "2",
        "10",
        "4294967294",
        "b",
        "01",
        "4294967295",
        "x",
    ]
    assert unknown_members({"z": 1, "y": 2}, frozenset()) == ["z", "y"]
    assert unknown_members({"z": 1}, frozenset({"z"})) == []


def test_member_pointer_escapes_as_rfc_6901_says() -> None:
    assert member_pointer("/a", "b") == "/a/b"
    assert member_pointer("", "a/b~c") == "/a~1b~0c"
