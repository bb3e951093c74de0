"""The table-walking reference codec of the DeepSeek Harness protocol: `wire_codec.TableCodec` on
the tables of `_gen/wire_names.py`.

The generated straight-line converters (`_gen/converters.py`) hand this module every value they do
not take in one step, and the tests compare the two on every vector. `decode` expects a value the
generated validators accepted; what it keeps and how is told in `wire_codec`.
"""

from __future__ import annotations

from dsh_sdk._gen.wire_names import CLASSES, TYPES, UNIONS
from dsh_sdk.wire_codec import CodecError, TableCodec

__all__ = ["CODEC", "CodecError", "decode", "decode_class", "decoder_of", "encode"]

CODEC = TableCodec(CLASSES, UNIONS, TYPES)
"""Every class and union codec of the protocol, built once at import."""

decode = CODEC.decode
decode_class = CODEC.decode_class
decoder_of = CODEC.decoder_of
encode = CODEC.encode
