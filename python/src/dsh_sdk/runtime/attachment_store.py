"""A content-addressed folder of attachment bytes, shared with the TypeScript runtime."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import re
import secrets
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Final

__all__ = [
    "AttachmentStore",
    "StoredAttachment",
    "attachment_id_of",
    "default_attachment_directory",
]

_ATTACHMENT_ID: Final = re.compile(r"sha256-[0-9a-f]{64}")
"""Only ids of this form name a file of the store; anything else (`../x`) is simply not held."""


@dataclass(frozen=True, kw_only=True, slots=True)
class StoredAttachment:
    """A durable attachment: its content-addressed id and its size."""

    attachment_id: str
    """`sha256-` followed by the lowercase hex digest of the bytes."""
    byte_length: int


def default_attachment_directory() -> Path:
    """Where both reference runtimes keep attachments: `<tmpdir>/dsh-sdk-runtime/attachments`."""
    return Path(tempfile.gettempdir()) / "dsh-sdk-runtime" / "attachments"


def attachment_id_of(data: bytes) -> str:
    """The store id of `data`."""
    return f"sha256-{hashlib.sha256(data).hexdigest()}"


class AttachmentStore:
    """One file per id, named by the id. Shared by every runtime process (of either language), so
    files are written to a temporary name and renamed into place: a reader never sees a partial
    file. The file work runs in a worker thread, off the event loop."""

    def __init__(self, directory: Path | str | None = None) -> None:
        self.directory = (
            Path(directory) if directory is not None else default_attachment_directory()
        )

    def path_of(self, attachment_id: str) -> Path:
        """The path of the file holding an attachment's bytes."""
        return self.directory / attachment_id

    async def admit(self, data: bytes) -> StoredAttachment:
        """Stores `data` (once: identical bytes share one file) and returns their reference."""
        return await asyncio.to_thread(self._admit, data)

    async def find(self, attachment_id: str) -> StoredAttachment | None:
        """The stored attachment with this id, or `None` when the store does not hold it."""
        if not _ATTACHMENT_ID.fullmatch(attachment_id):
            return None
        return await asyncio.to_thread(self._find, attachment_id)

    def _admit(self, data: bytes) -> StoredAttachment:
        attachment_id = attachment_id_of(data)
        existing = self._find(attachment_id)
        if existing is not None and existing.byte_length == len(data):
            return existing
        self.directory.mkdir(parents=True, exist_ok=True)
        partial = self.directory / f".{attachment_id}.{os.getpid()}.{secrets.token_hex(4)}.partial"
        try:
            partial.write_bytes(data)
            os.replace(partial, self.path_of(attachment_id))
        finally:
            with contextlib.suppress(FileNotFoundError):
                partial.unlink()
        return StoredAttachment(attachment_id=attachment_id, byte_length=len(data))

    def _find(self, attachment_id: str) -> StoredAttachment | None:
        try:
            stats = self.path_of(attachment_id).stat()
        except OSError:
            return None
        if not stat.S_ISREG(stats.st_mode):
            return None
        return StoredAttachment(attachment_id=attachment_id, byte_length=stats.st_size)
