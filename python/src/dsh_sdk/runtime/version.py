"""The reference runtime's own version."""

from __future__ import annotations

from typing import Final

__all__ = ["RUNTIME_VERSION"]

RUNTIME_VERSION: Final = "0.1.0"
"""Reported in `serverInfo.version` (informational); the same as the TypeScript runtime's."""
