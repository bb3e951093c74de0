"""The base class of every generated model; it carries the fields a protocol version does not know.

datamodel-code-generator is told to derive every model from `WireObject` (its `--base-class`
option), so unknown fields get a real dataclass field instead of a side table: they take part in
`==` and `repr`, survive `dataclasses.replace`, and need no hashing of the instance (the models hold
lists, so they are not hashable).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, kw_only=True, slots=True)
class WireObject:
    """A decoded protocol object: the subclass declares its known fields, the rest go in `extra`."""

    extra: dict[str, Any] = field(default_factory=dict)
    """Members the schema does not name (or an explicit `null` the fields cannot tell from absence),
    by wire name, kept as they came so that encoding gives the same JSON."""
