import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErrorCode } from '@dsh-sdk/protocol';
import type { SdkPromptContentBlock } from '@dsh-sdk/protocol';
import { afterEach, describe, expect, test } from 'vitest';
import { RuntimeConnection, dataOf, killChildren } from './helpers/runtime-connection.js';

afterEach(killChildren);

const STORE = join(tmpdir(), 'dsh-sdk-runtime', 'attachments');

/** Fresh bytes per test run, so the store cannot already hold them from an earlier run. */
function freshPng(): Buffer {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, randomBytes(40)]);
}

function idOf(bytes: Buffer): string {
  return `sha256-${createHash('sha256').update(bytes).digest('hex')}`;
}

describe('images', () => {
  test('stores an inline image and enqueues a durable reference, never the bytes', async () => {
    const runtime = await RuntimeConnection.initialized();
    const bytes = freshPng();
    const attachmentId = idOf(bytes);
    const contentBlocks: SdkPromptContentBlock[] = [
      { type: 'text', text: 'look' },
      { type: 'image', data: bytes.toString('base64'), mimeType: 'image/png' },
    ];
    await runtime.peer.sessionPrompt({ sessionId: 'img', contentBlocks });
    await runtime.idle('img');
    await expect(readFile(join(STORE, attachmentId))).resolves.toEqual(bytes);
    const attachment = { attachmentId, mediaType: 'image/png', byteLength: bytes.length };
    const events = runtime.eventsOf('img');
    const user = events.find((event) => event.type === 'user/message');
    expect(dataOf(user)['content']).toEqual([
      { type: 'text', text: 'look' },
      { type: 'image', attachment },
    ]);
    expect(JSON.stringify(runtime.notifications)).not.toContain(bytes.toString('base64'));
    const message = events.find((event) => event.type === 'assistant/message');
    expect(dataOf(message)['message']).toMatchObject({
      content: [
        {
          type: 'text',
          text: `Echo: look\n[image image/png, ${bytes.length} bytes, ${attachmentId}]`,
        },
      ],
    });
  });

  test('accepts a durable reference the store holds, and keeps its fields', async () => {
    const runtime = await RuntimeConnection.initialized();
    const bytes = freshPng();
    const inline: SdkPromptContentBlock[] = [
      { type: 'image', data: bytes.toString('base64'), mimeType: 'image/webp' },
    ];
    await runtime.peer.sessionPrompt({ sessionId: 'a', contentBlocks: inline });
    const reference = {
      type: 'image',
      attachment: { attachmentId: idOf(bytes), mediaType: 'image/webp', note: 'kept' },
    } as SdkPromptContentBlock;
    await expect(
      runtime.peer.sessionPrompt({ sessionId: 'b', contentBlocks: [reference] }),
    ).resolves.toEqual({ messageId: 'b/m1' });
    await runtime.idle('b');
    const events = runtime.eventsOf('b');
    const user = events.find((event) => event.type === 'user/message');
    expect(dataOf(user)['content']).toEqual([reference]);
    const message = events.find((event) => event.type === 'assistant/message');
    expect(dataOf(message)['message']).toMatchObject({
      content: [
        { type: 'text', text: `Echo: \n[image image/webp, ${bytes.length} bytes, ${idOf(bytes)}]` },
      ],
    });
  });

  test('refuses a durable reference the store does not hold with -32602 at its pointer', async () => {
    const runtime = await RuntimeConnection.initialized();
    const missing = idOf(randomBytes(32));
    const contentBlocks: SdkPromptContentBlock[] = [
      { type: 'text', text: 'see' },
      { type: 'image', attachment: { attachmentId: missing, mediaType: 'image/png' } },
      {
        type: 'image',
        attachment: { attachmentId: '../../../etc/passwd', mediaType: 'image/png' },
      },
    ];
    const error: unknown = await runtime.peer
      .sessionPrompt({ sessionId: 'c', contentBlocks })
      .catch((reason: unknown) => reason);
    expect(error).toMatchObject({
      code: ErrorCode.InvalidParams,
      data: [
        { pointer: '/contentBlocks/1/attachment/attachmentId', message: expect.any(String) },
        { pointer: '/contentBlocks/2/attachment/attachmentId', message: expect.any(String) },
      ],
    });
    // Nothing was enqueued: the session never ran.
    await runtime.shutdown();
    expect(runtime.notifications).toEqual([]);
  });

  test('refuses an inline image that is not canonical base64 or not a raster type', async () => {
    const runtime = await RuntimeConnection.initialized();
    const contentBlocks = [{ type: 'image', data: 'AAA', mimeType: 'image/bmp' }];
    const error: unknown = await runtime.transport
      .request('session/prompt', { sessionId: 'd', contentBlocks })
      .catch((reason: unknown) => reason);
    expect(error).toMatchObject({
      code: ErrorCode.InvalidParams,
      data: [
        { pointer: '/contentBlocks/0/data', message: expect.any(String) },
        { pointer: '/contentBlocks/0/mimeType', message: expect.any(String) },
      ],
    });
  });
});
