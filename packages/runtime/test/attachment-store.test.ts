import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { AttachmentStore, attachmentIdOf, defaultAttachmentDirectory } from '../src/index.js';

let directory = '';
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'dsh-sdk-store-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('AttachmentStore', () => {
  test('lives under the system temporary folder by default', () => {
    expect(defaultAttachmentDirectory()).toBe(join(tmpdir(), 'dsh-sdk-runtime', 'attachments'));
  });

  test('stores bytes once under their sha256 id', async () => {
    const store = new AttachmentStore(join(directory, 'nested', 'attachments'));
    const bytes = Buffer.from('hello bytes');
    const stored = await store.admit(bytes);
    const digest = createHash('sha256').update(bytes).digest('hex');
    expect(stored).toEqual({ attachmentId: `sha256-${digest}`, byteLength: bytes.length });
    expect(stored.attachmentId).toMatch(/^sha256-[0-9a-f]{64}$/);
    await expect(store.admit(bytes)).resolves.toEqual(stored);
    await expect(readFile(store.pathOf(stored.attachmentId))).resolves.toEqual(bytes);
    expect(await readdir(join(directory, 'nested', 'attachments'))).toEqual([stored.attachmentId]);
  });

  test('finds what it holds and nothing else, whatever the id looks like', async () => {
    const store = new AttachmentStore(directory);
    const { attachmentId } = await store.admit(new Uint8Array([1, 2, 3]));
    await expect(store.find(attachmentId)).resolves.toEqual({ attachmentId, byteLength: 3 });
    await expect(store.find(attachmentIdOf(new Uint8Array([4])))).resolves.toBeUndefined();
    await expect(store.find('../../etc/passwd')).resolves.toBeUndefined();
    await expect(store.find(attachmentId.toUpperCase())).resolves.toBeUndefined();
  });
});
