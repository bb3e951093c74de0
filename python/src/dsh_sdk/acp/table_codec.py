"""The table-walking reference codec of ACP: `wire_codec.TableCodec` on the tables of
`dsh_sdk.acp._gen.wire_names`. The generated converters (`_gen/converters.py`) hand it every value
they do not take in one step; `decode` expects a value the ACP validators accepted (and repaired).
"""

from __future__ import annotations

from dsh_sdk.acp._gen.wire_names import CLASSES, TYPES, UNIONS
from dsh_sdk.wire_codec import CodecError, TableCodec

__all__ = ["CODEC", "CodecError", "decode", "decode_class", "decoder_of", "encode"]

CODEC = TableCodec(CLASSES, UNIONS, TYPES)
"""Every class and union codec of ACP, built once at import."""

decode = CODEC.decode
decode_class = CODEC.decode_class
decoder_of = CODEC.decoder_of
encode = CODEC.encode
