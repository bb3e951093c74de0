"""Wire values (parsed JSON) to generated dataclasses and back.

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

from collections.abc import Callable
from typing import Any, TypeVar, overload

from dsh_sdk import table_codec
from dsh_sdk._gen.converters import DECODERS
from dsh_sdk._gen.wire_names import CLASSES, UNIONS
from dsh_sdk.table_codec import CodecError, encode
from dsh_sdk.wire_object import WireObject

__all__ = ["CodecError", "decode", "encode"]

T = TypeVar("T", bound=WireObject)
Convert = Callable[[Any], Any]


@overload
def decode(kind: type[T], value: object) -> T: ...
@overload
def decode(kind: object, value: object) -> Any: ...
def decode(kind: object, value: object) -> Any:
    """Decodes a wire value as `kind`: a generated class, a union alias or an IDL type name."""
    try:
        convert = _DECODERS[kind]
    except (KeyError, TypeError):
        convert = _decoder_of(kind)
    return convert(value)


def _decoder_of(kind: object) -> Convert:
    name = kind if isinstance(kind, str) else _NAMES.get(kind)
    convert = DECODERS.get(name) if name is not None else None
    if convert is None:
        # Not an object or a union (or not of the protocol: this raises CodecError).
        convert = table_codec.decoder_of(kind)
    _DECODERS[kind] = convert
    return convert


_NAMES: dict[object, str] = {
    **{info.cls: name for name, info in CLASSES.items()},
    **{info.alias: name for name, info in UNIONS.items()},
}
"""The IDL name of every generated class and union alias."""

_DECODERS: dict[object, Convert] = {}
