// Feeds NDJSON lines read from stdin ({"lines": ["…", …]}) through a real TypeScript transport that
// serves the generated server end and subscribes the generated client end to every notification,
// and prints what happened: the answers written, the params every handler and subscriber got, and
// every diagnostic. tests/test_limits_property.py runs the same lines through the Python transport
// and compares. Run with tsx.
import { PassThrough } from 'node:stream';
import {
  HarnessSdkClientPeer,
  JsonRpcLineTransport,
  SERVER_NAME,
  serveHarnessSdk,
} from '../../../packages/protocol/src/index.js';
import type { TransportDiagnostic } from '../../../packages/protocol/src/index.js';

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const { lines } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { lines: string[] };

const input = new PassThrough();
const output = new PassThrough();
const diagnostics: TransportDiagnostic[] = [];
const transport = new JsonRpcLineTransport({
  input,
  output,
  onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
});
const received: { line: number; method: string; params: unknown }[] = [];
serveHarnessSdk(transport, {
  initialize(params, { line }) {
    received.push({ line, method: 'initialize', params });
    return { serverInfo: { name: SERVER_NAME, version: '1' } };
  },
  sessionPrompt(params, { line }) {
    received.push({ line, method: 'session/prompt', params });
    return { messageId: 'm-1' };
  },
  shutdown({ line }) {
    received.push({ line, method: 'shutdown', params: null });
    return {};
  },
});
// The params of each case name its line (a session id, a cwd), so deliveries need no line number.
const client = new HarnessSdkClientPeer(transport);
const notified: { method: string; params: unknown }[] = [];
client.onSessionEvent((params) => void notified.push({ method: 'session.event', params }));
client.onSessionStatus((params) => void notified.push({ method: 'session.status', params }));
client.onSubagentStarted((params) => void notified.push({ method: 'subagent.started', params }));
client.onSubagentFinished((params) => void notified.push({ method: 'subagent.finished', params }));

const written: string[] = [];
output.setEncoding('utf8');
let partial = '';
output.on('data', (text: string) => {
  const parts = (partial + text).split('\n');
  partial = parts.pop() ?? '';
  written.push(...parts);
});

transport.start();
for (const line of lines) input.write(`${line}\n`);
// Waits until nothing more is written for a while: every answer is out.
for (let quiet = 0, seen = -1; quiet < 3; quiet = written.length === seen ? quiet + 1 : 0) {
  seen = written.length;
  await new Promise((resolve) => setTimeout(resolve, 20));
}
transport.close();
process.stdout.write(
  JSON.stringify({
    answers: written.map((line) => JSON.parse(line) as unknown),
    received,
    notified,
    diagnostics: diagnostics.map(({ reason, line, id, method, violations }) => ({
      reason,
      line: line ?? null,
      id: id ?? null,
      method: method ?? null,
      violations: violations ? violations.map((v) => [v.pointer, v.message]) : null,
    })),
  }),
);
