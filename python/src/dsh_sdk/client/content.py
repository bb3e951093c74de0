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
from dsh_sdk.wire_object import WireObject

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


_PROMPT_IS: Final = (
    "a prompt is a str, or a sequence of content blocks such as text_block('…') and "
    "image_from_file('cat.png')"
)
"""What a prompt may be, for the errors of a prompt that is none."""


def to_content_blocks(prompt: PromptInput) -> list[SdkPromptContentBlock]:
    """The content blocks of a prompt; a string becomes one text block. Anything else than a str
    or a sequence of generated protocol objects (a number, a lone block) raises a `TypeError` that
    says what a prompt is; the blocks themselves are checked against the schema when sent."""
    if isinstance(prompt, str):
        return [text_block(prompt)]
    blocks: Sequence[object] = prompt
    if not isinstance(blocks, Sequence) or isinstance(blocks, (bytes, bytearray)):
        hint = " (a single block goes in a list: [block])" if isinstance(blocks, WireObject) else ""
        raise TypeError(f"{_PROMPT_IS}; got {_describe(blocks)}{hint}")
    for index, block in enumerate(blocks):
        if not isinstance(block, WireObject):
            raise TypeError(f"{_PROMPT_IS}; prompt[{index}] is {_describe(block)}")
    return list(prompt)


def _describe(value: object) -> str:
    """`an int: 42`, `a dict: {'type': 'text'}`, `None`: a value as an error names it."""
    if value is None:
        return "None"
    kind = type(value).__name__
    article = "an" if kind[:1].lower() in "aeiou" else "a"
    text = repr(value)
    shown = text if len(text) <= 60 else f"{text[:59]}…"
    return f"{article} {kind}: {shown}"


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
