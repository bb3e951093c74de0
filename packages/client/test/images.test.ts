import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { detectImageMimeType, imageFromBytes, imageFromFile, textBlock } from '../src/index.js';
import { startClient, stopClients } from './helpers/clients.js';

afterEach(stopClients);

const STORE = join(tmpdir(), 'dsh-sdk-runtime', 'attachments');
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff, 0xe0];
const GIF = [...Buffer.from('GIF89a')];
const WEBP = [...Buffer.from('RIFF'), 0, 0, 0, 0, ...Buffer.from('WEBPVP8 ')];

/** Bytes with a real signature and a random body, new for every run. */
function image(signature: readonly number[]): Buffer {
  return Buffer.concat([Buffer.from(signature), randomBytes(24)]);
}

let folder = '';
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'dsh-sdk-client-images-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('images', () => {
  test('imageFromBytes makes an inline block the runtime stores durably', async () => {
    const client = await startClient();
    const bytes = image(PNG);
    const block = imageFromBytes(bytes, 'image/png');
    expect(block).toEqual({ type: 'image', data: bytes.toString('base64'), mimeType: 'image/png' });
    const result = await client.run([textBlock('what is this?'), block]);
    const match = /\[image image\/png, (\d+) bytes, (sha256-[0-9a-f]{64})\]$/.exec(
      result.finalResponse,
    );
    expect(match?.[1]).toBe(String(bytes.length));
    await expect(readFile(join(STORE, match?.[2] ?? ''))).resolves.toEqual(bytes);
    const user = result.events.find((event) => event.type === 'user/message');
    expect(JSON.stringify(user)).not.toContain(block.data);
  });

  test('imageFromFile reads a file and takes the type from its content', async () => {
    const client = await startClient();
    const bytes = image(JPEG);
    const path = join(folder, 'photo.png'); // a misleading extension: the signature wins
    await writeFile(path, bytes);
    const block = await imageFromFile(path);
    expect(block).toEqual({
      type: 'image',
      data: bytes.toString('base64'),
      mimeType: 'image/jpeg',
    });
    const result = await client.run([block]);
    expect(result.finalResponse).toMatch(/^Echo: \n\[image image\/jpeg, 28 bytes, sha256-/);
  });

  test('imageFromFile falls back on the extension, and refuses what it cannot tell', async () => {
    const unknownBytes = randomBytes(16).fill(0, 0, 4);
    await writeFile(join(folder, 'plain.gif'), unknownBytes);
    await expect(imageFromFile(join(folder, 'plain.gif'))).resolves.toMatchObject({
      mimeType: 'image/gif',
    });
    await writeFile(join(folder, 'notes.txt'), unknownBytes);
    await expect(imageFromFile(join(folder, 'notes.txt'))).rejects.toThrow(
      /not a PNG, JPEG, WebP or GIF/,
    );
  });

  test('detects the four raster signatures', () => {
    expect(detectImageMimeType(image(PNG))).toBe('image/png');
    expect(detectImageMimeType(image(JPEG))).toBe('image/jpeg');
    expect(detectImageMimeType(image(GIF))).toBe('image/gif');
    expect(detectImageMimeType(image(WEBP))).toBe('image/webp');
    expect(detectImageMimeType(Buffer.from('RIFF0000WAVE'))).toBeUndefined();
    expect(detectImageMimeType(new Uint8Array())).toBeUndefined();
  });
});
