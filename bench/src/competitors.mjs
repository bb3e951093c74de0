// Each competitor consumes the same chunks and resolves when every expected message was handled.
import { PassThrough, Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { JSONRPCServer } from 'json-rpc-2.0';
import {
  StreamMessageReader,
  StreamMessageWriter,
  createMessageConnection,
} from 'vscode-jsonrpc/node.js';
import { HarnessSdkClientPeer, JsonRpcLineTransport, serveHarnessSdk } from '@dsh-sdk/protocol';

export function streamOf(chunks) {
  let next = 0;
  return new Readable({
    highWaterMark: 1 << 20,
    read() {
      while (next < chunks.length) if (!this.push(chunks[next++])) return;
      this.push(null);
    },
  });
}

const sink = () => new PassThrough().resume();

/** The floor: split a Buffer on \n and JSON.parse each line; no RPC layer. Correct across chunks. */
export function floorDecode(chunks, count) {
  return new Promise((resolve) => {
    let seen = 0;
    let pieces = [];
    const input = streamOf(chunks);
    // Pieces of an unfinished line wait in a list and are joined once, so big frames stay linear.
    input.on('data', (chunk) => {
      let start = 0;
      let nl;
      while ((nl = chunk.indexOf(10, start)) !== -1) {
        if (pieces.length === 0) JSON.parse(chunk.toString('utf8', start, nl));
        else {
          pieces.push(chunk.subarray(start, nl));
          JSON.parse(Buffer.concat(pieces).toString('utf8'));
          pieces = [];
        }
        seen++;
        start = nl + 1;
      }
      if (start < chunk.length) pieces.push(chunk.subarray(start));
    });
    input.on('end', () =>
      resolve(seen === count ? seen : Promise.reject(new Error(`floor saw ${seen}`))),
    );
  });
}

/** The naive splitter many hand-rolled peers use: string concatenation (corrupts split UTF-8, quadratic on big frames). */
export function naiveDecode(chunks, count) {
  return new Promise((resolve) => {
    let seen = 0;
    let buffer = '';
    const input = streamOf(chunks);
    input.on('data', (chunk) => {
      buffer += chunk.toString();
      let nl;
      while ((nl = buffer.indexOf('\n')) !== -1) {
        JSON.parse(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
        seen++;
      }
    });
    input.on('end', () =>
      resolve(seen === count ? seen : Promise.reject(new Error(`naive saw ${seen}`))),
    );
  });
}

/** This project: JsonRpcLineTransport + the generated client peer's typed subscription. */
export function oursNotifications(chunks, count, { method, validate }) {
  return new Promise((resolve, reject) => {
    let seen = 0;
    const transport = new JsonRpcLineTransport({
      input: streamOf(chunks),
      output: sink(),
      onDiagnostic: (d) => reject(new Error(d.message)),
    });
    const peer = new HarnessSdkClientPeer(transport, { validate });
    const done = () => {
      if (++seen === count) {
        transport.close();
        resolve(seen);
      }
    };
    if (method === 'session.status') peer.onSessionStatus(done);
    else peer.onSessionEvent(done);
    transport.start();
  });
}

export function jsonRpc2Notifications(chunks, count, { method }) {
  return new Promise((resolve) => {
    let seen = 0;
    const server = new JSONRPCServer();
    server.addMethod(method, () => {
      if (++seen === count) resolve(seen);
    });
    const lines = createInterface({ input: streamOf(chunks), crlfDelay: Infinity });
    lines.on('line', (line) => void server.receive(JSON.parse(line)));
  });
}

export function vscodeNotifications(headerChunks, count, { method }) {
  return new Promise((resolve) => {
    let seen = 0;
    const connection = createMessageConnection(
      new StreamMessageReader(streamOf(headerChunks)),
      new StreamMessageWriter(sink()),
    );
    connection.onNotification(method, () => {
      if (++seen === count) {
        connection.dispose();
        resolve(seen);
      }
    });
    connection.listen();
  });
}

/** One big session/prompt request through the generated server end; resolves when the handler has the params. */
export function oursBigRequest(chunks, { validate }) {
  return new Promise((resolve, reject) => {
    const transport = new JsonRpcLineTransport({
      input: streamOf(chunks),
      output: sink(),
      onDiagnostic: (d) => reject(new Error(d.message)),
    });
    serveHarnessSdk(
      transport,
      {
        initialize: () => reject(new Error('unexpected')),
        shutdown: () => ({}),
        sessionPrompt: (params) => {
          transport.close();
          resolve(params.contentBlocks.length);
          return { messageId: 'm' };
        },
      },
      { validate },
    );
    transport.start();
  });
}
