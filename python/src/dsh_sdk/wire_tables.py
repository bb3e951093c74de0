"""The types the generated wire-name tables (`_gen/wire_names.py`) are made of.

`wire_names.py` says, for every generated dataclass and union, which wire name each attribute has
and how its value converts; `codec.py` converts by those tables alone. The tables are generated;
their types are fixed, so they live here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, TypeAlias

from dsh_sdk.wire_object import WireObject

__all__ = [
    "SCALAR",
    "ArrayOf",
    "ClassInfo",
    "Conversion",
    "FieldInfo",
    "MapOf",
    "ObjectOf",
    "Scalar",
    "UnionInfo",
    "UnionOf",
    "UntaggedUnionInfo",
    "UntaggedVariantInfo",
    "VariantInfo",
]


@dataclass(frozen=True, slots=True)
class Scalar:
    """A value kept as it is: a string, number, boolean, enum value or free-form JSON."""


@dataclass(frozen=True, slots=True)
class ObjectOf:
    """An object that becomes the generated dataclass `type_name`."""

    type_name: str


@dataclass(frozen=True, slots=True)
class UnionOf:
    """An object that becomes a variant of the discriminated union `type_name`."""

    type_name: str


@dataclass(frozen=True, slots=True)
class ArrayOf:
    """An array whose items convert by `items` (not `Scalar`: such arrays are kept as they are)."""

    items: Conversion


@dataclass(frozen=True, slots=True)
class MapOf:
    """An object of any member names whose values convert by `values` (not `Scalar`)."""

    values: Conversion


Conversion: TypeAlias = Scalar | ObjectOf | UnionOf | ArrayOf | MapOf
"""How a value converts between JSON and Python."""

SCALAR: Final = Scalar()
"""The one `Scalar` the tables share."""


@dataclass(frozen=True, slots=True)
class FieldInfo:
    """One field of a dataclass: its Python attribute, its wire name and how its value converts."""

    attribute: str
    wire_name: str
    conversion: Conversion
    required: bool = False
    nullable: bool = False
    """The schema admits `null`, so `None` alone cannot tell `null` from an absent member."""


@dataclass(frozen=True, slots=True)
class ClassInfo:
    """A generated dataclass and its fields, in schema order."""

    cls: type[WireObject]
    fields: tuple[FieldInfo, ...]


@dataclass(frozen=True, slots=True)
class VariantInfo:
    """A known union variant: the tag that selects it and the members that must also be present."""

    tag: str
    select: tuple[str, ...]
    type_name: str


@dataclass(frozen=True, slots=True)
class UnionInfo:
    """A discriminated union: the first known variant whose tag and `select` members match wins."""

    discriminator: str
    variants: tuple[VariantInfo, ...]
    unknown: str | None
    """The variant for a value no known variant claims, or None: the unknown variant of an open
    union, or the default variant, which also takes a value without the tag (as the validators)."""
    alias: object
    """The union's type alias in models.py."""


@dataclass(frozen=True, slots=True)
class UntaggedVariantInfo:
    """A variant of an untagged union: an object with the `select` members, or an array whose first
    item has them."""

    is_array: bool
    select: tuple[str, ...]
    type_name: str


@dataclass(frozen=True, slots=True)
class UntaggedUnionInfo:
    """A union without a discriminator, told apart by shape (see `union_codecs`)."""

    variants: tuple[UntaggedVariantInfo, ...]
    alias: object
    """The union's type alias in models.py."""
