"""Building prompt content: text blocks and inline images."""

from __future__ import annotations

import base64
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from dsh_sdk._gen.models import (
    ImageMimeType,
    SdkEncodedImageBlock,
    SdkPromptContentBlock,
    TextBlock,
)

__all__ = [
    "PromptInput",
    "detect_image_mime_type",
    "image_from_bytes",
    "image_from_file",
    "mime_type_from_extension",
    "text_block",
    "to_content_blocks",
]

PromptInput = str | Sequence[SdkPromptContentBlock]
"""A prompt: plain text, or the blocks of the message."""


def text_block(text: str) -> TextBlock:
    """A `text` block."""
    return TextBlock(type="text", text=text)


def to_content_blocks(prompt: PromptInput) -> list[SdkPromptContentBlock]:
    """The content blocks of a prompt; a string becomes one text block."""
    if isinstance(prompt, str):
        return [text_block(prompt)]
    return list(prompt)


def image_from_bytes(data: bytes, mime_type: ImageMimeType) -> SdkEncodedImageBlock:
    """An inline image block of `data` (sent as canonical base64; the runtime stores it
    durably)."""
    return SdkEncodedImageBlock(
        type="image", data=base64.b64encode(data).decode("ascii"), mime_type=mime_type
    )


def image_from_file(path: str | os.PathLike[str]) -> SdkEncodedImageBlock:
    """An inline image block of a file. The mime type comes from the file's signature (magic
    bytes) and, when that is not recognized, from its extension; neither known raises
    `ValueError`."""
    data = Path(path).read_bytes()
    mime_type = detect_image_mime_type(data) or mime_type_from_extension(path)
    if mime_type is None:
        raise ValueError(
            f"{os.fspath(path)}: not a PNG, JPEG, WebP or GIF image (by content or extension)"
        )
    return image_from_bytes(data, mime_type)


def detect_image_mime_type(data: bytes) -> ImageMimeType | None:
    """The image type `data` starts with, by its signature; `None` if none matches."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith(b"GIF8"):
        return "image/gif"
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        return "image/webp"
    return None


_EXTENSIONS: Final[dict[str, ImageMimeType]] = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
}


def mime_type_from_extension(path: str | os.PathLike[str]) -> ImageMimeType | None:
    """The image type of a file name's extension; `None` if it is not one of the four."""
    return _EXTENSIONS.get(Path(path).suffix.lower())
