"""Wire values (parsed JSON) to generated dataclasses and back, by walking one protocol's tables.

`TableCodec(CLASSES, UNIONS, TYPES)` takes the tables of a protocol's generated `wire_names.py`;
each protocol binds one (DeepSeek Harness: `dsh_sdk.table_codec`; ACP: `dsh_sdk.acp.table_codec`).
It is the reference conversion: the generated straight-line converters (`_gen/converters.py`) hand
it every value they do not take in one step, and the tests compare the two on every vector.

`decode` expects a value the generated validators accepted (and repaired, where the schema reads
leniently); it does not validate. It keeps what this protocol version does not know, so
`encode(decode(kind, value)) == value` for every valid value:

- members the schema does not name go to the object's `extra` mapping (see `WireObject`);
- a union value whose tag no variant claims becomes the union's unknown variant, tag and all (or
  its default variant, which also takes a value without the tag, as the validators do);
- an optional member that is absent stays absent: its attribute is `None`. Where the schema admits
  `null` beside absence, a `null` is kept in `extra`, so `None` still means absent.

Each class gets its converters once, when the codec is built; decoding an object is one pass.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar, overload

from dsh_sdk.union_codecs import CodecError, TaggedUnionCodec, UntaggedUnionCodec
from dsh_sdk.wire_object import WireObject
from dsh_sdk.wire_tables import (
    ArrayOf,
    ClassInfo,
    Conversion,
    FieldInfo,
    MapOf,
    ObjectOf,
    UnionInfo,
    UnionOf,
    UntaggedUnionInfo,
)

__all__ = ["CodecError", "TableCodec"]

T = TypeVar("T", bound=WireObject)
Convert = Callable[[Any], Any]


class _ClassCodec:
    """Decodes and encodes one dataclass; converters are bound once every codec exists."""

    __slots__ = ("cls", "decoders", "encoders", "info", "name")

    def __init__(self, name: str, info: ClassInfo) -> None:
        self.name = name
        self.info = info
        self.cls = info.cls
        # wire name -> (attribute, converter or None, whether a null goes to `extra`)
        self.decoders: dict[str, tuple[str, Convert | None, bool]] = {}
        # (attribute, wire name, converter or None, required)
        self.encoders: tuple[tuple[str, str, Convert | None, bool], ...] = ()

    def bind(self, codec: TableCodec) -> None:
        fields = self.info.fields
        self.decoders = {f.wire_name: _decoder_spec(f, codec) for f in fields}
        self.encoders = tuple(
            (f.attribute, f.wire_name, _keeping_null(f, codec.encoder(f.conversion)), f.required)
            for f in fields
        )

    def decode(self, value: Any) -> Any:
        if not isinstance(value, dict):
            raise CodecError(f"{self.name}: expected an object, got {type(value).__name__}")
        kwargs: dict[str, Any] = {}
        extra: dict[str, Any] | None = None
        decoders = self.decoders
        for key, raw in value.items():
            spec = decoders.get(key)
            if spec is None or (raw is None and spec[2]):
                if extra is None:
                    extra = {}
                extra[key] = raw
                continue
            attribute, convert, _ = spec
            kwargs[attribute] = raw if convert is None else convert(raw)
        if extra is not None:
            kwargs["extra"] = extra
        try:
            return self.cls(**kwargs)
        except TypeError as error:
            raise CodecError(f"{self.name}: {error}") from None

    def encode(self, obj: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for attribute, wire_name, convert, required in self.encoders:
            item = getattr(obj, attribute)
            if item is None and not required:
                continue
            out[wire_name] = item if convert is None else convert(item)
        extra = obj.extra
        if extra:
            out.update(extra)
        return out


class TableCodec:
    """Every codec of one protocol, built once from its generated tables."""

    def __init__(
        self,
        classes: Mapping[str, ClassInfo],
        unions: Mapping[str, UnionInfo | UntaggedUnionInfo],
        types: Mapping[str, Conversion],
    ) -> None:
        self.types = types
        self.classes = {name: _ClassCodec(name, info) for name, info in classes.items()}
        self.by_class: dict[type, _ClassCodec] = {c.cls: c for c in self.classes.values()}
        self.unions: dict[str, TaggedUnionCodec | UntaggedUnionCodec] = {}
        for name, info in unions.items():
            if isinstance(info, UnionInfo):
                self.unions[name] = TaggedUnionCodec(name, info, self.type_decoder)
            else:
                self.unions[name] = UntaggedUnionCodec(name, info, self.type_decoder)
        for codec in self.classes.values():
            codec.bind(self)
        self.by_alias: dict[object, str] = {info.alias: name for name, info in unions.items()}
        self._decoders: dict[object, Convert] = {}

    def type_decoder(self, type_name: str) -> Convert:
        """The decoder of a named type, looked up when first used (unions refer to each other)."""
        return lambda value: self.decoder_of(type_name)(value)

    def decoder(self, conversion: Conversion) -> Convert | None:
        if isinstance(conversion, ObjectOf):
            return self.classes[conversion.type_name].decode
        if isinstance(conversion, UnionOf):
            return self.unions[conversion.type_name].decode
        if isinstance(conversion, ArrayOf):
            item = self.decoder(conversion.items)
            return None if item is None else _array_converter(item)
        if isinstance(conversion, MapOf):
            value = self.decoder(conversion.values)
            return None if value is None else _map_converter(value)
        return None

    def encoder(self, conversion: Conversion) -> Convert | None:
        if isinstance(conversion, ObjectOf):
            return self.classes[conversion.type_name].encode
        if isinstance(conversion, UnionOf):
            return self.encode_value
        if isinstance(conversion, ArrayOf):
            item = self.encoder(conversion.items)
            return None if item is None else _array_converter(item)
        if isinstance(conversion, MapOf):
            value = self.encoder(conversion.values)
            return None if value is None else _map_converter(value)
        return None

    def encode(self, obj: WireObject) -> dict[str, Any]:
        """Encodes a generated dataclass instance (any variant of any union) to its wire value."""
        codec = self.by_class.get(type(obj))
        if codec is None:
            raise CodecError(f"not a generated protocol object: {type(obj).__name__}")
        return codec.encode(obj)

    def encode_value(self, value: Any) -> Any:
        """A union's value: an instance, a list of them (a variant may be an array), or a scalar."""
        if isinstance(value, WireObject):
            return self.encode(value)
        if isinstance(value, list):
            return [self.encode_value(item) for item in value]
        return value

    @overload
    def decode(self, kind: type[T], value: object) -> T: ...
    @overload
    def decode(self, kind: object, value: object) -> Any: ...
    def decode(self, kind: object, value: object) -> Any:
        """Decodes a wire value as `kind`: a generated class, a union alias or an IDL type name."""
        try:
            convert = self._decoders[kind]
        except (KeyError, TypeError):
            convert = self.decoder_of(kind)
        return convert(value)

    def decoder_of(self, kind: object) -> Convert:
        """The converter of `kind` (see `decode`); CodecError for a kind outside the protocol."""
        if isinstance(kind, type) and kind in self.by_class:
            convert: Convert | None = self.by_class[kind].decode
        else:
            name = kind if isinstance(kind, str) else self.by_alias.get(kind)
            conversion = self.types.get(name) if name is not None else None
            if conversion is None:
                raise CodecError(f"not a type of the protocol: {kind!r}")
            convert = self.decoder(conversion)
        resolved = convert if convert is not None else _unchanged
        self._decoders[kind] = resolved
        return resolved

    def decode_class(self, cls: type[T], value: object) -> T:
        """Decodes a wire value as the generated dataclass `cls` (one of `_gen/models.py`)."""
        decoded: T = self.by_class[cls].decode(value)
        return decoded


def _decoder_spec(f: FieldInfo, codec: TableCodec) -> tuple[str, Convert | None, bool]:
    # A null goes to `extra` only where None would otherwise mean both null and absent.
    return f.attribute, _keeping_null(f, codec.decoder(f.conversion)), f.nullable and not f.required


def _keeping_null(f: FieldInfo, convert: Convert | None) -> Convert | None:
    # A required member that admits null: its None is the wire's null, kept as it is.
    if convert is None or not (f.nullable and f.required):
        return convert
    return lambda value: None if value is None else convert(value)


def _array_converter(item: Convert) -> Convert:
    def convert(values: Any) -> list[Any]:
        if not isinstance(values, list):
            raise CodecError(f"expected an array, got {type(values).__name__}")
        return [item(value) for value in values]

    return convert


def _map_converter(value: Convert) -> Convert:
    def convert(values: Any) -> dict[str, Any]:
        if not isinstance(values, dict):
            raise CodecError(f"expected an object, got {type(values).__name__}")
        return {key: value(item) for key, item in values.items()}

    return convert


def _unchanged(value: Any) -> Any:
    return value
