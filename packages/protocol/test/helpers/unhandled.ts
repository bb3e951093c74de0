// Collects the unhandled rejections of each test of the calling file.
import { afterEach, beforeEach } from 'vitest';

/** Registers hooks that record each test's unhandled rejections into the returned (cleared) list. */
export function recordUnhandledRejections(): unknown[] {
  const unhandled: unknown[] = [];
  const record = (reason: unknown): void => void unhandled.push(reason);
  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', record);
  });
  afterEach(() => {
    process.off('unhandledRejection', record);
  });
  return unhandled;
}
