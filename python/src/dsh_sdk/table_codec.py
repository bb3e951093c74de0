"""Wire values (parsed JSON) to generated dataclasses and back, by walking `_gen/wire_names.py`.

The reference conversion: `codec.py` decodes through the generated straight-line converters
(`_gen/converters.py`), which hand every value they do not take in one step to this module, and the
tests compare the two on every vector.

`decode` expects a value the generated validators accepted; it does not validate. It keeps what this
protocol version does not know, so `encode(decode(kind, value)) == value` for every valid value:

- members the schema does not name go to the object's `extra` mapping (see `WireObject`);
- a union value whose tag no variant claims becomes the union's unknown variant, tag and all;
- an optional member that is absent stays absent: its attribute is `None`, and the schema forbids
  `null` for those. Where a schema does admit `null` beside absence, a `null` is kept in `extra`.

Each class gets its converters once, at import; decoding an object is one pass over its members.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, overload

from dsh_sdk._gen.wire_names import CLASSES, TYPES, UNIONS
from dsh_sdk.wire_object import WireObject
from dsh_sdk.wire_tables import (
    ArrayOf,
    ClassInfo,
    Conversion,
    FieldInfo,
    ObjectOf,
    UnionInfo,
    UnionOf,
)

__all__ = ["CodecError", "decode", "decode_class", "decoder_of", "encode"]

T = TypeVar("T", bound=WireObject)
Convert = Callable[[Any], Any]


class CodecError(ValueError):
    """A value does not have the shape its type needs (decode expects validated input)."""


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

    def bind(self, registry: _Registry) -> None:
        fields = self.info.fields
        self.decoders = {f.wire_name: _decoder_spec(f, registry) for f in fields}
        self.encoders = tuple(
            (f.attribute, f.wire_name, registry.encoder(f.conversion), f.required) for f in fields
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


class _UnionCodec:
    """Picks a union's variant the way the validators dispatch: tag, then `select` members."""

    __slots__ = ("by_tag", "direct", "discriminator", "name", "unknown")

    def __init__(self, name: str, info: UnionInfo, registry: _Registry) -> None:
        self.name = name
        self.discriminator = info.discriminator
        by_tag: dict[str, list[tuple[tuple[str, ...], Convert]]] = {}
        for variant in info.variants:
            decode = registry.classes[variant.type_name].decode
            by_tag.setdefault(variant.tag, []).append((variant.select, decode))
        # Most tags name one variant with nothing to select on: one dict lookup decides.
        self.direct = {tag: c[0][1] for tag, c in by_tag.items() if len(c) == 1 and not c[0][0]}
        self.by_tag = {tag: tuple(c) for tag, c in by_tag.items() if tag not in self.direct}
        self.unknown: Convert | None = (
            registry.classes[info.unknown].decode if info.unknown is not None else None
        )

    def decode(self, value: Any) -> Any:
        if not isinstance(value, dict):
            raise CodecError(f"{self.name}: expected an object, got {type(value).__name__}")
        tag = value.get(self.discriminator)
        if isinstance(tag, str):
            decode = self.direct.get(tag)
            if decode is not None:
                return decode(value)
            for select, candidate in self.by_tag.get(tag, ()):
                if all(key in value for key in select):
                    return candidate(value)
        if self.unknown is None:
            raise CodecError(f"{self.name}: no variant for {self.discriminator}={tag!r}")
        return self.unknown(value)


class _Registry:
    """Every codec, built once from the generated tables."""

    def __init__(self) -> None:
        self.classes = {name: _ClassCodec(name, info) for name, info in CLASSES.items()}
        self.by_class: dict[type, _ClassCodec] = {c.cls: c for c in self.classes.values()}
        self.unions = {name: _UnionCodec(name, info, self) for name, info in UNIONS.items()}
        for codec in self.classes.values():
            codec.bind(self)
        self.by_alias: dict[object, str] = {info.alias: name for name, info in UNIONS.items()}

    def decoder(self, conversion: Conversion) -> Convert | None:
        if isinstance(conversion, ObjectOf):
            return self.classes[conversion.type_name].decode
        if isinstance(conversion, UnionOf):
            return self.unions[conversion.type_name].decode
        if isinstance(conversion, ArrayOf):
            item = self.decoder(conversion.items)
            return None if item is None else _array_converter(item)
        return None

    def encoder(self, conversion: Conversion) -> Convert | None:
        if isinstance(conversion, ObjectOf):
            return self.classes[conversion.type_name].encode
        if isinstance(conversion, UnionOf):
            return self.encode_any
        if isinstance(conversion, ArrayOf):
            item = self.encoder(conversion.items)
            return None if item is None else _array_converter(item)
        return None

    def encode_any(self, obj: Any) -> dict[str, Any]:
        codec = self.by_class.get(type(obj))
        if codec is None:
            raise CodecError(f"not a generated protocol object: {type(obj).__name__}")
        return codec.encode(obj)


def _decoder_spec(f: FieldInfo, registry: _Registry) -> tuple[str, Convert | None, bool]:
    # A null goes to `extra` only where None would otherwise mean both null and absent.
    return f.attribute, registry.decoder(f.conversion), f.nullable and not f.required


def _array_converter(item: Convert) -> Convert:
    def convert(values: Any) -> list[Any]:
        if not isinstance(values, list):
            raise CodecError(f"expected an array, got {type(values).__name__}")
        return [item(value) for value in values]

    return convert


_REGISTRY = _Registry()


@overload
def decode(kind: type[T], value: object) -> T: ...
@overload
def decode(kind: object, value: object) -> Any: ...
def decode(kind: object, value: object) -> Any:
    """Decodes a wire value as `kind`: a generated class, a union alias or an IDL type name."""
    try:
        convert = _DECODERS[kind]
    except (KeyError, TypeError):
        convert = decoder_of(kind)
    return convert(value)


def decoder_of(kind: object) -> Convert:
    """The converter of `kind` (see `decode`); raises CodecError for a kind outside the protocol."""
    if isinstance(kind, type) and kind in _REGISTRY.by_class:
        convert: Convert | None = _REGISTRY.by_class[kind].decode
    else:
        name = kind if isinstance(kind, str) else _REGISTRY.by_alias.get(kind)
        conversion = TYPES.get(name) if name is not None else None
        if conversion is None:
            raise CodecError(f"not a type of the protocol: {kind!r}")
        convert = _REGISTRY.decoder(conversion)
    resolved = convert if convert is not None else _unchanged
    _DECODERS[kind] = resolved
    return resolved


def _unchanged(value: Any) -> Any:
    return value


_DECODERS: dict[object, Convert] = {}


def decode_class(cls: type[T], value: object) -> T:
    """Decodes a wire value as the generated dataclass `cls` (one of `_gen/models.py`)."""
    decoded: T = _REGISTRY.by_class[cls].decode(value)
    return decoded


def encode(obj: WireObject) -> dict[str, Any]:
    """Encodes a generated dataclass instance (any variant of any union) back to its wire value."""
    return _REGISTRY.encode_any(obj)
