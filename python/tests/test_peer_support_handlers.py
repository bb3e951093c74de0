"""What the generated peers of a protocol with optional handlers and extension methods rely on in
`peer_support.py`: telling an optional handler left out from one implemented, the `-32601` of a
method nobody handles, and the prefix check of an extension method. (The peers that use them run
over real pipes in codegen/test/py-peers-both-ways.test.ts.)"""

from __future__ import annotations

from typing import Protocol

import pytest

from dsh_sdk.errors import JsonRpcResponseError
from dsh_sdk.peer_support import implements, method_not_found, require_family


class Handlers(Protocol):
    async def required(self) -> int: ...

    async def optional(self) -> int:
        raise method_not_found("optional")


class LeavesOut(Handlers):
    async def required(self) -> int:
        return 1


class Overrides(LeavesOut):
    async def optional(self) -> int:
        return 2


class Structural:
    async def required(self) -> int:
        return 1


def test_a_handler_left_out_is_told_from_one_implemented() -> None:
    assert implements(LeavesOut(), Handlers, "required")
    assert not implements(LeavesOut(), Handlers, "optional")
    assert implements(Overrides(), Handlers, "optional")
    assert not implements(Structural(), Handlers, "optional")
    with_attribute = Structural()
    with_attribute.optional = Overrides().optional  # type: ignore[attr-defined]
    assert implements(with_attribute, Handlers, "optional")


async def test_the_default_body_of_an_optional_handler_answers_method_not_found() -> None:
    with pytest.raises(JsonRpcResponseError) as raised:
        await LeavesOut().optional()
    assert raised.value.to_error_object() == {
        "code": -32601,
        "message": "Method not found: optional",
    }


def test_an_extension_method_must_start_with_its_family_prefix() -> None:
    require_family("_", "_zed/open")
    with pytest.raises(ValueError, match="'zed/open' is not a method of the family '_'…"):
        require_family("_", "zed/open")
