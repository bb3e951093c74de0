"""The validators' canonical-base64 check (decided without decoding, for speed on multi-MiB
images) accepts exactly the texts that decode and encode back to themselves."""

from __future__ import annotations

import base64
import binascii

from hypothesis import example, given
from hypothesis import strategies as st

from dsh_sdk._gen.validators import _is_canonical_base64

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def round_trips(text: str) -> bool:
    """The definition the TypeScript check uses: decoding and encoding again gives the text."""
    try:
        return base64.b64encode(base64.b64decode(text, validate=True)).decode("ascii") == text
    except (binascii.Error, ValueError):
        return False


@given(st.binary(max_size=64))
def test_encoded_bytes_are_canonical(data: bytes) -> None:
    assert _is_canonical_base64(base64.b64encode(data).decode("ascii"))


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
    assert _is_canonical_base64(text) == round_trips(text)


@given(st.binary(min_size=1, max_size=32), st.sampled_from(ALPHABET))
def test_agrees_on_every_last_character_before_the_padding(data: bytes, last: str) -> None:
    encoded = base64.b64encode(data).decode("ascii")
    body = encoded.rstrip("=")
    text = body[:-1] + last + encoded[len(body) :]
    assert _is_canonical_base64(text) == round_trips(text)
