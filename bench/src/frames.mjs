// The frames the benchmarks decode: sizes of the targets (small ~120 B, medium ~1.2 KB, 8/16 MiB).

export const CHUNK_BYTES = 64 * 1024;

export function smallFrame(i) {
  return {
    jsonrpc: '2.0',
    method: 'session.status',
    params: {
      sessionId: `session-${String(i % 1000).padStart(6, '0')}-root-agent`,
      status: i % 2 ? 'running' : 'idle',
    },
  };
}

export function mediumFrame(i) {
  const text = 'The quick brown fox jumps over the lazy dog; '.repeat(20);
  return {
    jsonrpc: '2.0',
    method: 'session.event',
    params: {
      sessionId: `session-${i % 1000}`,
      event: {
        type: 'assistant/message',
        seq: i,
        time: 1764489600000 + i,
        data: {
          message: {
            id: `m-${i}`,
            role: 'assistant',
            content: [
              { type: 'text', text },
              { type: 'reasoning', text: 'short thought' },
            ],
          },
          usage: { inputTokens: 120, outputTokens: 230 },
        },
      },
    },
  };
}

export function promptFrame(imageBytes, id = 1) {
  const data = Buffer.alloc(imageBytes, 7).toString('base64');
  return {
    jsonrpc: '2.0',
    id,
    method: 'session/prompt',
    params: {
      sessionId: 's-1',
      contentBlocks: [
        { type: 'text', text: 'see attached' },
        { type: 'image', data, mimeType: 'image/png' },
      ],
    },
  };
}

/** NDJSON bytes of `count` frames, cut into 64 KiB chunks. */
export function ndjsonChunks(makeFrame, count) {
  const text = Array.from({ length: count }, (_, i) => JSON.stringify(makeFrame(i)) + '\n').join(
    '',
  );
  return chunk(Buffer.from(text, 'utf8'));
}

/** The same frames with LSP-style Content-Length headers (vscode-jsonrpc's framing). */
export function headerFramedChunks(makeFrame, count) {
  const parts = [];
  for (let i = 0; i < count; i++) {
    const body = Buffer.from(JSON.stringify(makeFrame(i)), 'utf8');
    parts.push(Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body);
  }
  return chunk(Buffer.concat(parts));
}

export function chunk(buffer, size = CHUNK_BYTES) {
  const chunks = [];
  for (let at = 0; at < buffer.length; at += size)
    chunks.push(buffer.subarray(at, Math.min(at + size, buffer.length)));
  return chunks;
}
