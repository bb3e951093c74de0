"""A protocol's codec: its generated straight-line converters first, its `TableCodec` for the rest.

Decoding runs the generated converters (`_gen/converters.py`) of objects and unions; every other
kind of value (scalars, arrays of objects by type name), and whatever a converter does not take in
one step, goes to the table-walking reference. Encoding walks the tables.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar, overload

from dsh_sdk.wire_codec import TableCodec
from dsh_sdk.wire_object import WireObject

__all__ = ["ConvertingCodec"]

T = TypeVar("T", bound=WireObject)
Convert = Callable[[Any], Any]


class ConvertingCodec:
    """`decode` by the generated converters where one exists, else by `tables`."""

    def __init__(self, converters: Mapping[str, Convert], tables: TableCodec) -> None:
        self.converters = converters
        self.tables = tables
        self.names: dict[object, str] = {
            **{codec.cls: name for name, codec in tables.classes.items()},
            **{alias: name for alias, name in tables.by_alias.items()},
        }
        """The IDL name of every generated class and union alias."""
        self._decoders: dict[object, Convert] = {}

    @overload
    def decode(self, kind: type[T], value: object) -> T: ...
    @overload
    def decode(self, kind: object, value: object) -> Any: ...
    def decode(self, kind: object, value: object) -> Any:
        """Decodes a wire value as `kind`: a generated class, a union alias or an IDL type name."""
        try:
            convert = self._decoders[kind]
        except (KeyError, TypeError):
            convert = self._decoder_of(kind)
        return convert(value)

    def _decoder_of(self, kind: object) -> Convert:
        name = kind if isinstance(kind, str) else self.names.get(kind)
        convert = self.converters.get(name) if name is not None else None
        if convert is None:
            # Not an object or a union (or not of the protocol: this raises CodecError).
            convert = self.tables.decoder_of(kind)
        self._decoders[kind] = convert
        return convert
