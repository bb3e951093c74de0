// A conformance driver for @dsh-sdk/client (docs/conformance.md, "Writing a driver"):
//   dsh-sdk conformance client -- node packages/client/examples/conformance-driver.mjs
// For each scenario the kit starts it with DSH_CONFORMANCE_SCENARIO, DSH_CONFORMANCE_PLAN and
// DSH_SDK_RUNTIME (the runtime command, a JSON array); it runs the plan with the client and
// prints one result line.
import {
  CapabilityNotSupportedError,
  HarnessClient,
  JsonRpcResponseError,
  ProtocolError,
  RequestTimeoutError,
  RunAbortedError,
  RunTimeoutError,
  RuntimeExitedError,
} from '@dsh-sdk/client';

const scenario = process.env.DSH_CONFORMANCE_SCENARIO;
const plan = JSON.parse(process.env.DSH_CONFORMANCE_PLAN ?? '{}');
const command = JSON.parse(process.env.DSH_SDK_RUNTIME ?? '[]');
const result = { scenario, finalText: null, finishReason: null, eventTypes: [], errors: [] };

/** The kit's error classes (docs/conformance.md), from this client's errors. */
function classOf(error) {
  if (error instanceof RuntimeExitedError) return 'runtime-exited';
  if (error instanceof CapabilityNotSupportedError) return 'capability-missing';
  if (error instanceof RunAbortedError) return 'aborted';
  if (error instanceof RunTimeoutError || error instanceof RequestTimeoutError) return 'timeout';
  if (error instanceof ProtocolError) return 'protocol-error';
  if (error instanceof JsonRpcResponseError) return 'rpc-error';
  return 'other';
}

function record(stage, error) {
  const code = error instanceof JsonRpcResponseError ? error.code : null;
  result.errors.push({
    stage,
    class: classOf(error),
    code,
    message: String(error?.message ?? error),
  });
}

let client;
try {
  client = await HarnessClient.spawn({ command, initialize: plan.route });
} catch (error) {
  record('spawn', error);
}
if (client) {
  try {
    const stop = new AbortController();
    const stream = client.streamText(plan.prompt, {
      sessionId: plan.sessionId,
      signal: stop.signal,
    });
    for await (const _delta of stream) if (plan.stop === 'first-delta') stop.abort();
    const run = await stream.result;
    result.finalText = run.finalResponse;
    result.finishReason = run.finishReason ?? null;
    result.eventTypes = run.events.map((event) => event.type);
  } catch (error) {
    record('run', error);
  }
  if (plan.closeAfter) {
    try {
      await client.closeSession(plan.sessionId);
    } catch (error) {
      record('close', error);
    }
  }
  try {
    await client.shutdown();
  } catch (error) {
    record('shutdown', error);
  }
}
process.stdout.write(`${JSON.stringify(result)}\n`);
