// A prettier worker of the format pool (format-pool.ts): formats the texts it is sent, one at a
// time. Plain JavaScript, so a worker starts without a TypeScript loader.
import { parentPort } from 'node:worker_threads';
import { format } from 'prettier';

parentPort.on('message', async ({ id, content, options }) => {
  try {
    parentPort.postMessage({ id, content: await format(content, options) });
  } catch (error) {
    parentPort.postMessage({
      id,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  }
});
