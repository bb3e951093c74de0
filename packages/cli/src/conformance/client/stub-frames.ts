/// <reference types="node" preserve="true" />
// The channel between the kit (playing a runtime) and the stub a client starts as its runtime:
// frames of one type byte, a 4-byte big-endian length and the payload, over a Unix socket.
//   kit → stub: 'o' bytes for stdout, 'e' bytes for stderr, 'x' exit (the code, as text),
//               'i' signals to ignore (names, comma-separated)
//   stub → kit: 'h' hello (its pid), 'i' bytes read from stdin, 'c' stdin closed, 's' a signal

export type FrameType = 'o' | 'e' | 'x' | 'i' | 'h' | 'c' | 's';

export function encodeFrame(type: FrameType, payload: Buffer | string = ''): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
}

/** Splits a byte stream into frames, across chunk boundaries. */
export function frameReader(
  onFrame: (type: FrameType, payload: Buffer) => void,
): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 5) {
      const length = pending.readUInt32BE(1);
      if (pending.length < 5 + length) break;
      onFrame(pending.toString('latin1', 0, 1) as FrameType, pending.subarray(5, 5 + length));
      pending = pending.subarray(5 + length);
    }
  };
}
