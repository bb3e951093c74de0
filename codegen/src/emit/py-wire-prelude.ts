// The fixed head of wire_names.py: imports and the small types its tables are made of.
export const WIRE_TABLE_PRELUDE = `from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, TypeAlias

from dsh_sdk._gen import models as m
from dsh_sdk.wire_object import WireObject


@dataclass(frozen=True, slots=True)
class Scalar:
    """A value kept as it is: a string, number, boolean, enum value or free-form JSON."""


@dataclass(frozen=True, slots=True)
class ObjectOf:
    """An object that becomes the generated dataclass \`type_name\`."""

    type_name: str


@dataclass(frozen=True, slots=True)
class UnionOf:
    """An object that becomes a variant of the discriminated union \`type_name\`."""

    type_name: str


@dataclass(frozen=True, slots=True)
class ArrayOf:
    """An array whose items convert by \`items\` (never \`Scalar\`: such arrays are kept as they are)."""

    items: Conversion


Conversion: TypeAlias = Scalar | ObjectOf | UnionOf | ArrayOf
"""How a value converts between JSON and Python."""

SCALAR: Final = Scalar()


@dataclass(frozen=True, slots=True)
class FieldInfo:
    """One field of a dataclass: its Python attribute, its wire name and how its value converts."""

    attribute: str
    wire_name: str
    conversion: Conversion
    required: bool = False
    nullable: bool = False
    """The schema admits \`null\`, so \`None\` alone cannot tell \`null\` from an absent member."""


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
    """A discriminated union: the first known variant whose tag and \`select\` members match wins."""

    discriminator: str
    variants: tuple[VariantInfo, ...]
    unknown: str | None
    """The variant for any other tag (open unions), or None when the union is closed."""
    alias: object
    """The union's type alias in models.py."""`;
