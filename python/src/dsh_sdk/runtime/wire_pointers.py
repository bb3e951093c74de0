"""JSON pointers into params, spelled with the generated wire names (STYLE §4.4: wire field names
live in `_gen/wire_names.py`; the runtime looks them up instead of typing them)."""

from __future__ import annotations

from typing import Final

from dsh_sdk._gen.wire_names import CLASSES
from dsh_sdk.wire_object import WireObject

__all__ = ["json_pointer", "wire_name"]

_WIRE_NAMES: Final = {
    info.cls: {field.attribute: field.wire_name for field in info.fields}
    for info in CLASSES.values()
}


def wire_name(cls: type[WireObject], attribute: str) -> str:
    """The wire name of attribute `attribute` of the generated class `cls`."""
    try:
        return _WIRE_NAMES[cls][attribute]
    except KeyError:
        raise LookupError(f"{cls.__name__} has no field {attribute!r}") from None


def json_pointer(*segments: str | int) -> str:
    """An RFC 6901 pointer of `segments` (`~` and `/` escaped)."""
    return "".join("/" + str(segment).replace("~", "~0").replace("/", "~1") for segment in segments)
