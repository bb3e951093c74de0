// Runs the TypeScript TraceRecorder on scripts read from stdin ([{ options, steps: [{ push: dir,
// data: base64 } | { end: dir } | { finish: TraceFinish }] }, …]) with a clock that never
// moves, and prints, per script, the records it wrote. Used by tests/test_trace_recorder.py.
import { TraceRecorder } from '../../../packages/protocol/src/trace-recorder.js';
import type { TraceFinish } from '../../../packages/protocol/src/trace-recorder.js';
import type { TraceDirection } from '../../../packages/protocol/src/trace-format.js';

type Step =
  | { push: TraceDirection; data: string }
  | { end: TraceDirection }
  | { finish: TraceFinish };
type Script = {
  options: { maxFrameBytes?: number; headBytes?: number; maxPendingRequests?: number };
  steps: Step[];
};

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const scripts = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Script[];
const results = scripts.map(({ options, steps }) => {
  const records: string[] = [];
  const recorder = new TraceRecorder({
    ...options,
    write: (record) => records.push(record),
    recorder: 'crosscheck',
    now: () => 0,
  });
  for (const step of steps) {
    if ('push' in step) recorder.push(step.push, Buffer.from(step.data, 'base64'));
    else if ('end' in step) recorder.endOfStream(step.end);
    else recorder.finish(step.finish);
  }
  return records;
});
process.stdout.write(JSON.stringify(results));
