// The runtime a client under test starts (DSH_SDK_RUNTIME names it): a puppet of the kit. It
// passes what the client writes to the kit and writes what the kit says, keeping stdout's and
// stderr's back-pressure (a client that does not read them stalls it, as it would stall a real
// runtime), reports stdin's end and signals, and exits when told. `node stub-runtime.js <socket>`.
import { connect } from 'node:net';
import { encodeFrame, frameReader } from './stub-frames.js';

const socket = connect(process.argv[2] ?? '');
const ignored = new Set<string>();
let isExiting = false;

socket.on('error', () => process.exit(70));
socket.on('close', () => {
  if (!isExiting) process.exit(70);
});
socket.write(encodeFrame('h', String(process.pid)));
process.stdin.on('data', (chunk: Buffer) => socket.write(encodeFrame('i', chunk)));
process.stdin.on('end', () => socket.write(encodeFrame('c')));
process.stdin.on('error', () => {});

for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const)
  process.on(signal, () => {
    socket.write(encodeFrame('s', signal));
    if (!ignored.has(signal)) exit(128 + (signal === 'SIGTERM' ? 15 : signal === 'SIGINT' ? 2 : 1));
  });

function exit(code: number): void {
  isExiting = true;
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

/** Frames not yet carried out, in order: a full stdout or stderr holds back everything after it. */
const queue: [string, Buffer][] = [];
let isPumping = false;

async function pump(): Promise<void> {
  if (isPumping) return;
  isPumping = true;
  while (queue.length > 0) {
    const [type, payload] = queue.shift()!;
    if (type === 'o' || type === 'e') {
      const stream = type === 'o' ? process.stdout : process.stderr;
      if (!stream.write(payload)) await new Promise((resolve) => stream.once('drain', resolve));
    } else if (type === 'i')
      for (const name of payload.toString('utf8').split(',')) ignored.add(name);
    else if (type === 'x') exit(Number(payload.toString('utf8')));
    if (queue.length < 16) socket.resume();
  }
  isPumping = false;
}

socket.on(
  'data',
  frameReader((type, payload) => {
    queue.push([type, payload]);
    if (queue.length > 64) socket.pause();
    void pump();
  }),
);
