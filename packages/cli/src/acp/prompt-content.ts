/// <reference types="node" preserve="true" />
// An ACP prompt's content blocks as the runtime's prompt blocks (docs/acp.md, "Mapping").
import type { ContentBlock as AcpContentBlock } from '@dsh-sdk/acp';
import type { ImageMimeType, SdkPromptContentBlock, Violation } from '@dsh-sdk/client';
import { invalidParams } from './bridge-errors.js';

/** The raster types a runtime admits inline (WIRE.md §8). */
const IMAGE_MIME_TYPES: ReadonlySet<string> = new Set<ImageMimeType>([
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
]);

/**
 * Maps `prompt` block by block: `text` as text; `image` as an inline image; `resource_link`, which
 * ACP requires every agent to accept, as a text line naming the link. Any other block, or an image
 * of another type, is `-32602` naming each offending block (its pointer into the ACP params).
 */
export function toRuntimeBlocks(prompt: readonly AcpContentBlock[]): SdkPromptContentBlock[] {
  const violations: Violation[] = [];
  const blocks = prompt.map((block, index): SdkPromptContentBlock => {
    const pointer = `/prompt/${index}`;
    switch (block.type) {
      case 'text':
        return { type: 'text', text: block.text };
      case 'image':
        if (!IMAGE_MIME_TYPES.has(block.mimeType)) {
          violations.push({
            pointer: `${pointer}/mimeType`,
            message: `image type ${JSON.stringify(block.mimeType)} is not supported; supported: ${[...IMAGE_MIME_TYPES].join(', ')}`,
          });
        }
        return { type: 'image', data: block.data, mimeType: block.mimeType as ImageMimeType };
      case 'resource_link':
        return { type: 'text', text: describeLink(block.name, block.uri) };
      default:
        violations.push({
          pointer: `${pointer}/type`,
          message: `a ${JSON.stringify((block as { type: string }).type)} block is not supported; supported: text, image, resource_link`,
        });
        return { type: 'text', text: '' };
    }
  });
  if (violations.length > 0) throw invalidParams(violations);
  return blocks;
}

function describeLink(name: string, uri: string): string {
  return name === uri ? `[${uri}]` : `[${name}](${uri})`;
}
