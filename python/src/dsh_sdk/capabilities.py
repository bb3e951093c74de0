"""The capabilities as the IDL lists them (`CAPABILITIES`, generated): what a runtime reports for
the version it negotiated, and which capability a client needs before it sends a method."""

from __future__ import annotations

from dsh_sdk._gen.methods import CAPABILITIES, CapabilityInfo
from dsh_sdk._gen.models import ServerCapabilities
from dsh_sdk.codec import decode

__all__ = ["capabilities_at", "capability_guarding"]


def capabilities_at(version: int) -> ServerCapabilities:
    """What a runtime that negotiated `version` reports: every capability added at or before it,
    `True`."""
    flags = {c.name: True for c in CAPABILITIES if c.since <= version}
    return decode(ServerCapabilities, flags)


def capability_guarding(method: str) -> CapabilityInfo | None:
    """The capability a client needs before it sends `method`, or None when none guards it."""
    return next((c for c in CAPABILITIES if method in c.guards), None)
