"""A `-32602` names what is wrong by JSON pointer into the params as they go on the wire
(`/maxTokens`); a Python caller wrote the attribute (`max_tokens`). The client's messages name
both: `/maxTokens (max_tokens): must be >= 1`. `data` keeps the wire's pointers unchanged."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Final

from dsh_sdk._gen.wire_names import CLASSES
from dsh_sdk.errors import JsonRpcResponseError, describe_response_error
from dsh_sdk.wire_object import WireObject

__all__ = ["attribute_path", "attributes_named", "describe_with_attributes"]

_ATTRIBUTES: Final = {
    info.cls: {field.wire_name: field.attribute for field in info.fields}
    for info in CLASSES.values()
}
"""For every generated class, the attribute of each wire name."""


def attribute_path(params: WireObject, pointer: str) -> str | None:
    """The Python path of `pointer` inside `params`: `/contentBlocks/0/mimeType` becomes
    `content_blocks[0].mime_type`. None when the path reads as the pointer does (`/model`), or
    when the pointer leaves the generated objects (a member of `extra`, a free-form value)."""
    path = ""
    value: Any = params
    renamed = False
    for segment in _segments(pointer):
        if isinstance(value, WireObject):
            attribute = _ATTRIBUTES.get(type(value), {}).get(segment)
            if attribute is None:
                return None
            renamed |= attribute != segment
            path += f".{attribute}" if path else attribute
            value = getattr(value, attribute)
        elif isinstance(value, Sequence) and not isinstance(value, str) and segment.isdigit():
            index = int(segment)
            if index >= len(value):
                return None
            path += f"[{index}]"
            value = value[index]
        else:
            return None
    return path if renamed else None


def describe_with_attributes(code: int, message: str, data: Any, params: WireObject) -> str:
    """`describe_response_error`, each violation's pointer followed by its Python path."""
    if not isinstance(data, list):
        return describe_response_error(code, message, data)
    return describe_response_error(code, message, [_named(v, params) for v in data])


@contextmanager
def attributes_named(params: WireObject) -> Iterator[None]:
    """Within: a runtime's `JsonRpcResponseError` about `params` (sent as they are, past the
    client's own check) names the attributes too."""
    try:
        yield
    except JsonRpcResponseError as error:
        error.message = describe_with_attributes(error.code, error.wire_message, error.data, params)
        raise


def _segments(pointer: str) -> list[str]:
    """The RFC 6901 reference tokens of `pointer`, unescaped (`~1` is `/`, `~0` is `~`)."""
    if pointer == "":
        return []
    return [token.replace("~1", "/").replace("~0", "~") for token in pointer[1:].split("/")]


def _named(violation: object, params: WireObject) -> object:
    """`violation` with its Python path beside its pointer, when it has one."""
    if not isinstance(violation, dict) or not isinstance(pointer := violation.get("pointer"), str):
        return violation
    path = attribute_path(params, pointer)
    return violation if path is None else {**violation, "pointer": f"{pointer} ({path})"}
