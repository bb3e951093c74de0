// Building prompt content: text blocks and inline images.
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type {
  ImageMimeType,
  SdkEncodedImageBlock,
  SdkPromptContentBlock,
  TextBlock,
} from '@dsh-sdk/protocol';

/** A prompt: plain text, or the blocks of the message. */
export type PromptInput = string | readonly SdkPromptContentBlock[];

/** A `text` block. */
export function textBlock(text: string): TextBlock {
  return { type: 'text', text };
}

/** What a prompt may be, for the errors of a prompt that is none. */
const PROMPT_IS =
  "a prompt is a string, or an array of content blocks such as textBlock('…') and " +
  "await imageFromFile('cat.png')";

/**
 * The content blocks of a prompt; a string becomes one text block. Anything else than a string
 * or an array of objects (a number, a lone block) throws a `TypeError` that says what a prompt
 * is; the blocks themselves are checked against the schema when sent.
 */
export function toContentBlocks(prompt: PromptInput): SdkPromptContentBlock[] {
  if (typeof prompt === 'string') return [textBlock(prompt)];
  if (!Array.isArray(prompt)) {
    const hint = isObject(prompt) ? ' (a single block goes in an array: [block])' : '';
    throw new TypeError(`${PROMPT_IS}; got ${describeValue(prompt)}${hint}`);
  }
  const blocks: readonly unknown[] = prompt;
  blocks.forEach((block, index) => {
    if (!isObject(block))
      throw new TypeError(`${PROMPT_IS}; prompt[${index}] is ${describeValue(block)}`);
  });
  return [...prompt];
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `a number: 42`, `an object: {"type":"text"}`, `null`: a value as an error names it. */
function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  const kind = Array.isArray(value) ? 'array' : typeof value;
  const article = /^[aeiou]/.test(kind) ? 'an' : 'a';
  const text = typeof value === 'object' ? jsonOrTag(value) : String(value);
  const shown = text.length > 60 ? `${text.slice(0, 59)}…` : text;
  return `${article} ${kind}: ${shown}`;
}

function jsonOrTag(value: object): string {
  try {
    return JSON.stringify(value);
  } catch {
    return Object.prototype.toString.call(value); // a cycle, a bigint: `[object Object]`
  }
}

/** An inline image block of `bytes` (sent as canonical base64; the runtime stores it durably). */
export function imageFromBytes(bytes: Uint8Array, mimeType: ImageMimeType): SdkEncodedImageBlock {
  return { type: 'image', data: Buffer.from(bytes).toString('base64'), mimeType };
}

/**
 * An inline image block of a file. The mime type comes from the file's signature (magic bytes)
 * and, when that is not recognized, from its extension; neither known throws.
 */
export async function imageFromFile(path: string): Promise<SdkEncodedImageBlock> {
  const bytes = await readFile(path);
  const mimeType = detectImageMimeType(bytes) ?? mimeTypeFromExtension(path);
  if (mimeType === undefined) {
    throw new Error(`${path}: not a PNG, JPEG, WebP or GIF image (by content or extension)`);
  }
  return imageFromBytes(bytes, mimeType);
}

const SIGNATURES: readonly {
  readonly mimeType: ImageMimeType;
  readonly test: (b: Uint8Array) => boolean;
}[] = [
  {
    mimeType: 'image/png',
    test: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  { mimeType: 'image/jpeg', test: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { mimeType: 'image/gif', test: (b) => startsWith(b, [...Buffer.from('GIF8')]) },
  {
    mimeType: 'image/webp',
    test: (b) =>
      startsWith(b, [...Buffer.from('RIFF')]) &&
      startsWith(b.subarray(8), [...Buffer.from('WEBP')]),
  },
];

/** The image type `bytes` start with, by their signature; `undefined` if none matches. */
export function detectImageMimeType(bytes: Uint8Array): ImageMimeType | undefined {
  return SIGNATURES.find((signature) => signature.test(bytes))?.mimeType;
}

const EXTENSIONS: Readonly<Record<string, ImageMimeType>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

/** The image type of a file name's extension; `undefined` if it is not one of the four. */
export function mimeTypeFromExtension(path: string): ImageMimeType | undefined {
  return EXTENSIONS[extname(path).toLowerCase()];
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.length <= bytes.length && prefix.every((byte, index) => bytes[index] === byte);
}
