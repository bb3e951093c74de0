// Turns the blocks of a `session/prompt` into durable message content: inline images are
// admitted to the attachment store, durable references must name an attachment it holds.
import type {
  ContentBlock,
  ImageBlock,
  SdkEncodedImageBlock,
  SdkPromptContentBlock,
  TextBlock,
  Violation,
} from '@dsh-sdk/protocol';
import type { AttachmentStore } from './attachment-store.js';
import type { ModelPrompt, PromptImage } from './adapters/model-adapter.js';
import { invalidParamsError } from './protocol-errors.js';

/** A prompt the runtime accepted: the durable content of its user message and the model's view. */
export interface AdmittedPrompt {
  readonly content: ContentBlock[];
  readonly prompt: ModelPrompt;
}

/** An inline image: an `image` block carrying `data` (the schema forbids `attachment` beside it). */
export function isInlineImage(block: SdkPromptContentBlock): block is SdkEncodedImageBlock {
  return block.type === 'image' && 'data' in block;
}

/** A durable image reference: an `image` block carrying `attachment`. */
export function isDurableImage(block: SdkPromptContentBlock): block is ImageBlock {
  return block.type === 'image' && 'attachment' in block;
}

/** A text block. */
export function isTextBlock(block: SdkPromptContentBlock): block is TextBlock {
  return block.type === 'text' && 'text' in block && typeof block.text === 'string';
}

/**
 * Admits every block of a prompt, in order. Fails with `-32602` listing one violation per
 * durable image whose attachment the store does not hold, at
 * `/contentBlocks/<i>/attachment/attachmentId`; then nothing is stored or enqueued.
 */
export async function admitPrompt(
  store: AttachmentStore,
  blocks: readonly SdkPromptContentBlock[],
): Promise<AdmittedPrompt> {
  const held = await findDurableImages(store, blocks);
  const content: ContentBlock[] = [];
  const texts: string[] = [];
  const images: PromptImage[] = [];
  for (const block of blocks) {
    if (isInlineImage(block)) {
      const durable = await admitInlineImage(store, block);
      content.push(durable);
      images.push({ ...durable.attachment });
      continue;
    }
    if (isDurableImage(block)) {
      const { attachmentId, mediaType } = block.attachment;
      images.push({ attachmentId, mediaType, byteLength: held.get(attachmentId) ?? 0 });
    } else if (isTextBlock(block)) {
      texts.push(block.text);
    }
    content.push(block);
  }
  return { content, prompt: { texts, images } };
}

/** The size of every attachment the prompt references; `-32602` if one is not held. */
async function findDurableImages(
  store: AttachmentStore,
  blocks: readonly SdkPromptContentBlock[],
): Promise<Map<string, number>> {
  const held = new Map<string, number>();
  const violations: Violation[] = [];
  for (const [index, block] of blocks.entries()) {
    if (!isDurableImage(block)) continue;
    const { attachmentId } = block.attachment;
    const stored = await store.find(attachmentId);
    if (stored) held.set(attachmentId, stored.byteLength);
    else violations.push(missingAttachment(index, attachmentId));
  }
  if (violations.length > 0) throw invalidParamsError(violations);
  return held;
}

interface DurableImage extends ImageBlock {
  readonly attachment: PromptImage;
}

async function admitInlineImage(
  store: AttachmentStore,
  block: SdkEncodedImageBlock,
): Promise<DurableImage> {
  const stored = await store.admit(Buffer.from(block.data, 'base64'));
  const attachment = {
    attachmentId: stored.attachmentId,
    mediaType: block.mimeType,
    byteLength: stored.byteLength,
  };
  return { type: 'image', attachment };
}

function missingAttachment(index: number, attachmentId: string): Violation {
  return {
    pointer: `/contentBlocks/${index}/attachment/attachmentId`,
    message: `attachment "${attachmentId}" is not held by this runtime`,
  };
}
