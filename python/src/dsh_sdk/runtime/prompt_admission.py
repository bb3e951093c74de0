"""Turns the blocks of a `session/prompt` into durable message content: inline images are admitted
to the attachment store, durable references must name an attachment it holds."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from dsh_sdk._gen.models import (
    ContentBlock,
    ImageAttachment,
    ImageBlock,
    SdkEncodedImageBlock,
    SdkPromptContentBlock,
    SessionPromptParams,
    TextBlock,
    Violation,
)
from dsh_sdk.runtime.adapters.model_adapter import ModelPrompt, PromptImage
from dsh_sdk.runtime.attachment_store import AttachmentStore
from dsh_sdk.runtime.protocol_errors import invalid_params_error
from dsh_sdk.runtime.wire_pointers import json_pointer, wire_name

__all__ = ["BYTE_LENGTH_FIELD", "AdmittedPrompt", "admit_prompt"]

BYTE_LENGTH_FIELD: Final = "byteLength"
"""The reference runtimes' own member of an image attachment: the stored file's size. The wire's
`ImageAttachment` is open ("backends may add fields"), so it travels in `extra`."""

_CONTENT_BLOCKS: Final = wire_name(SessionPromptParams, "content_blocks")
_ATTACHMENT: Final = wire_name(ImageBlock, "attachment")
_ATTACHMENT_ID: Final = wire_name(ImageAttachment, "attachment_id")


@dataclass(frozen=True, kw_only=True, slots=True)
class AdmittedPrompt:
    """A prompt the runtime accepted: the durable content of its user message and the model's
    view of it."""

    content: list[ContentBlock]
    prompt: ModelPrompt


async def admit_prompt(
    store: AttachmentStore, blocks: Sequence[SdkPromptContentBlock]
) -> AdmittedPrompt:
    """Admits every block of a prompt, in order. Raises `-32602` listing one violation per durable
    image whose attachment the store does not hold, at `/contentBlocks/<i>/attachment/attachmentId`;
    then nothing is stored or enqueued."""
    held = await _find_durable_images(store, blocks)
    content: list[ContentBlock] = []
    texts: list[str] = []
    images: list[PromptImage] = []
    for block in blocks:
        if isinstance(block, SdkEncodedImageBlock):
            durable, image = await _admit_inline_image(store, block)
            content.append(durable)
            images.append(image)
            continue
        if isinstance(block, ImageBlock):
            attachment = block.attachment
            images.append(
                PromptImage(
                    attachment_id=attachment.attachment_id,
                    media_type=attachment.media_type,
                    byte_length=held.get(attachment.attachment_id, 0),
                )
            )
        elif isinstance(block, TextBlock):
            texts.append(block.text)
        content.append(block)
    return AdmittedPrompt(
        content=content, prompt=ModelPrompt(texts=tuple(texts), images=tuple(images))
    )


async def _find_durable_images(
    store: AttachmentStore, blocks: Sequence[SdkPromptContentBlock]
) -> dict[str, int]:
    """The size of every attachment the prompt references; `-32602` if one is not held."""
    held: dict[str, int] = {}
    violations: list[Violation] = []
    for index, block in enumerate(blocks):
        if not isinstance(block, ImageBlock):
            continue
        attachment_id = block.attachment.attachment_id
        stored = await store.find(attachment_id)
        if stored is not None:
            held[attachment_id] = stored.byte_length
        else:
            violations.append(_missing_attachment(index, attachment_id))
    if violations:
        raise invalid_params_error(violations)
    return held


async def _admit_inline_image(
    store: AttachmentStore, block: SdkEncodedImageBlock
) -> tuple[ImageBlock, PromptImage]:
    # The schema checks already proved `data` canonical padded base64.
    stored = await store.admit(base64.b64decode(block.data, validate=True))
    attachment = ImageAttachment(
        attachment_id=stored.attachment_id,
        media_type=block.mime_type,
        extra={BYTE_LENGTH_FIELD: stored.byte_length},
    )
    image = PromptImage(
        attachment_id=stored.attachment_id,
        media_type=block.mime_type,
        byte_length=stored.byte_length,
    )
    return ImageBlock(type="image", attachment=attachment), image


def _missing_attachment(index: int, attachment_id: str) -> Violation:
    return Violation(
        pointer=json_pointer(_CONTENT_BLOCKS, index, _ATTACHMENT, _ATTACHMENT_ID),
        message=f'attachment "{attachment_id}" is not held by this runtime',
    )
