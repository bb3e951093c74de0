"""Wire values (parsed JSON) to the DeepSeek Harness protocol's dataclasses and back.

`decode` expects a value the generated validators accepted; it does not validate. It keeps what this
protocol version does not know, so `encode(decode(kind, value)) == value` for every valid value:

- members the schema does not name go to the object's `extra` mapping (see `WireObject`);
- a union value whose tag no variant claims becomes the union's unknown variant, tag and all;
- an optional member that is absent stays absent: its attribute is `None`, and the schema forbids
  `null` for those. Where a schema does admit `null` beside absence, a `null` is kept in `extra`.

Decoding runs the generated straight-line converters (`_gen/converters.py`); what they do not take
in one step goes to `table_codec`, the table-walking reference, as does every other kind of value
(scalars, arrays of objects by type name). Encoding walks the tables.
"""

from __future__ import annotations

from dsh_sdk import table_codec
from dsh_sdk._gen.converters import DECODERS
from dsh_sdk.converting_codec import ConvertingCodec
from dsh_sdk.table_codec import CodecError, encode

__all__ = ["CodecError", "decode", "encode"]

decode = ConvertingCodec(DECODERS, table_codec.CODEC).decode
