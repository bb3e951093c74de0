import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A durable attachment: its content-addressed id and its size. */
export interface StoredAttachment {
  /** `sha256-` followed by the lowercase hex digest of the bytes. */
  readonly attachmentId: string;
  readonly byteLength: number;
}

/** Only ids of this form name a file of the store; anything else (`../x`) is simply not held. */
const ATTACHMENT_ID = /^sha256-[0-9a-f]{64}$/;

/** Where both reference runtimes keep attachments: `<tmpdir>/dsh-sdk-runtime/attachments`. */
export function defaultAttachmentDirectory(): string {
  return join(tmpdir(), 'dsh-sdk-runtime', 'attachments');
}

/** The store id of `bytes`. */
export function attachmentIdOf(bytes: Uint8Array): string {
  return `sha256-${createHash('sha256').update(bytes).digest('hex')}`;
}

/**
 * A content-addressed folder of attachment bytes, one file per id, named by the id.
 * Shared by every runtime process (of either language), so files are written to a temporary
 * name and renamed into place: a reader never sees a partial file.
 */
export class AttachmentStore {
  readonly directory: string;

  constructor(directory: string = defaultAttachmentDirectory()) {
    this.directory = directory;
  }

  /** The path of the file holding an attachment's bytes. */
  pathOf(attachmentId: string): string {
    return join(this.directory, attachmentId);
  }

  /** Stores `bytes` (once: identical bytes share one file) and returns their reference. */
  async admit(bytes: Uint8Array): Promise<StoredAttachment> {
    const attachmentId = attachmentIdOf(bytes);
    const existing = await this.find(attachmentId);
    if (existing?.byteLength === bytes.byteLength) return existing;
    await mkdir(this.directory, { recursive: true });
    const partial = join(
      this.directory,
      `.${attachmentId}.${process.pid}.${randomBytes(4).toString('hex')}.partial`,
    );
    try {
      await writeFile(partial, bytes);
      await rename(partial, this.pathOf(attachmentId));
    } finally {
      await rm(partial, { force: true });
    }
    return { attachmentId, byteLength: bytes.byteLength };
  }

  /** The stored attachment with this id, or `undefined` when the store does not hold it. */
  async find(attachmentId: string): Promise<StoredAttachment | undefined> {
    if (!ATTACHMENT_ID.test(attachmentId)) return undefined;
    try {
      const stats = await stat(this.pathOf(attachmentId));
      return stats.isFile() ? { attachmentId, byteLength: stats.size } : undefined;
    } catch {
      return undefined;
    }
  }
}
