"""ACP wire values (parsed JSON, after the ACP validators) to `dsh_sdk.acp` dataclasses and back.

Decoding runs the generated straight-line converters (`_gen/converters.py`); what they do not take
in one step goes to `dsh_sdk.acp.table_codec`, the table-walking reference. Encoding walks the
tables. `encode(decode(kind, value)) == value` for every valid value: see `dsh_sdk.wire_codec`.
"""

from __future__ import annotations

from dsh_sdk.acp import table_codec
from dsh_sdk.acp._gen.converters import DECODERS
from dsh_sdk.acp.table_codec import CodecError, encode
from dsh_sdk.converting_codec import ConvertingCodec

__all__ = ["CodecError", "decode", "encode"]

decode = ConvertingCodec(DECODERS, table_codec.CODEC).decode
