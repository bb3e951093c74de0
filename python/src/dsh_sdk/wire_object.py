"""The base class of every generated model; it carries the fields a protocol version does not know.

datamodel-code-generator is told to derive every model from `WireObject` (its `--base-class`
option), so unknown fields get a real dataclass field instead of a side table: they take part in
`==` and `repr`, survive `dataclasses.replace`, and need no hashing of the instance (the models hold
lists, so they are not hashable).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any


@dataclass(frozen=True, kw_only=True, slots=True)
class WireObject:
    """A decoded protocol object: the subclass declares its known fields, the rest go in `extra`."""

    extra: dict[str, Any] = field(default_factory=dict)
    """Members the schema does not name (or an explicit `null` the fields cannot tell from absence),
    by wire name, kept as they came so that encoding gives the same JSON."""


SlotSetter = Callable[[Any, Any], None]


def slot_setters(cls: type[WireObject], *names: str) -> tuple[SlotSetter, ...]:
    """The setters of `cls`'s slots named, in that order, for decoders that build an instance with
    `object.__new__` instead of `__init__` (a frozen dataclass's `__init__` goes through
    `object.__setattr__` for every field, about three times the cost).

    Raises `TypeError` unless `names` are exactly the class's fields, so a decoder generated for
    another version of the class cannot leave a field unset.
    """
    declared = {f.name for f in fields(cls)}
    if set(names) != declared or len(names) != len(declared):
        raise TypeError(f"{cls.__name__} has the fields {sorted(declared)}, not {sorted(names)}")
    return tuple(getattr(cls, name).__set__ for name in names)
