"""How `TableCodec` picks a union's variant, the way the generated validators dispatch.

Tagged unions: by the discriminator's value, then by the `select` members of variants sharing a
tag; a value no known variant claims is the unknown variant's, or the default variant's, which
takes values without the tag too. Untagged unions: by shape, the first variant whose `select`
members the value (an object) or its first item (an array) has, trying variants with `select`
members first; an empty array is the first array variant's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dsh_sdk.wire_tables import UnionInfo, UntaggedUnionInfo

__all__ = ["CodecError", "TaggedUnionCodec", "UntaggedUnionCodec"]

Convert = Callable[[Any], Any]
TypeDecoder = Callable[[str], Convert]
"""The decoder of a named type, by IDL name."""


class CodecError(ValueError):
    """A value does not have the shape its type needs (decode expects validated input)."""


class TaggedUnionCodec:
    """Picks a variant by tag, then `select` members; else the unknown (or default) variant."""

    __slots__ = ("by_tag", "direct", "discriminator", "name", "unknown")

    def __init__(self, name: str, info: UnionInfo, decoder: TypeDecoder) -> None:
        self.name = name
        self.discriminator = info.discriminator
        by_tag: dict[str, list[tuple[tuple[str, ...], Convert]]] = {}
        for variant in info.variants:
            by_tag.setdefault(variant.tag, []).append((variant.select, decoder(variant.type_name)))
        # Most tags name one variant with nothing to select on: one dict lookup decides.
        self.direct = {tag: c[0][1] for tag, c in by_tag.items() if len(c) == 1 and not c[0][0]}
        self.by_tag = {tag: tuple(c) for tag, c in by_tag.items() if tag not in self.direct}
        self.unknown = decoder(info.unknown) if info.unknown is not None else None

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


class UntaggedUnionCodec:
    """Picks the first variant whose shape and `select` members the value has."""

    __slots__ = ("name", "variants")

    def __init__(self, name: str, info: UntaggedUnionInfo, decoder: TypeDecoder) -> None:
        self.name = name
        # As the validators: variants told apart by members first, in order, then the others.
        ordered = sorted(info.variants, key=lambda v: not v.select)
        self.variants = tuple((v.is_array, v.select, decoder(v.type_name)) for v in ordered)

    def decode(self, value: Any) -> Any:
        is_array = isinstance(value, list)
        if not is_array and not isinstance(value, dict):
            raise CodecError(
                f"{self.name}: expected an object or array, got {type(value).__name__}"
            )
        members = (value[0] if value else None) if is_array else value
        for variant_is_array, select, decode in self.variants:
            if variant_is_array != is_array:
                continue
            # An empty array decodes the same as any array variant: the first one takes it.
            if members is None or all(key in members for key in select):
                return decode(value)
        raise CodecError(f"{self.name}: no variant has the shape of this value")
