// One TypeScript cell of the interop matrix: the TypeScript client against the runtime named on
// the command line. Prints what the client saw as JSON (time values removed) on stdout.
//   node ts-cell.mjs <runtime> <image>                       the image and delegation script
//   node ts-cell.mjs --versions <runtime> <client> <runtime>  the version axis (1 or 2 each)
import {
  CapabilityNotSupportedError,
  HarnessClient,
  RunAbortedError,
  imageFromFile,
  textBlock,
} from '../packages/client/dist/index.js';

const withoutTime = (value) =>
  JSON.parse(JSON.stringify(value, (k, v) => (k === 'time' ? undefined : v)));

async function imageScript(runtimeLauncher, imagePath) {
  const client = await HarnessClient.spawn({
    command: [runtimeLauncher],
    initialize: { cwd: process.cwd(), provider: 'echo', model: 'echo-1', reasoningEffort: 'low' },
  });
  const image = await imageFromFile(imagePath);
  const runs = [
    await client.run([textBlock('describe this picture'), image], { sessionId: 'interop' }),
    await client.run('/delegate count the colours', { sessionId: 'interop' }),
  ];
  const shutdown = await client.shutdown();
  return {
    serverInfo: client.serverInfo,
    runs: runs.map((run) => ({
      sessionId: run.sessionId,
      messageId: run.messageId,
      finalResponse: run.finalResponse,
      finishReason: run.finishReason ?? null,
      events: run.events,
      notifications: run.notifications.map(({ method, params }) => ({ method, params })),
    })),
    shutdown: { endedBy: shutdown.endedBy, exitCode: shutdown.exitCode },
  };
}

/** What a version 2 call did: its result, or the capability it was refused for (not sent). */
async function callOrRefusal(call) {
  try {
    return { result: await call() };
  } catch (error) {
    if (error instanceof CapabilityNotSupportedError) return { refused: error.capability };
    throw error;
  }
}

async function versionScript(runtimeLauncher, clientVersion, runtimeVersion) {
  const client = await HarnessClient.spawn({
    command: [runtimeLauncher, '--protocol-version', runtimeVersion],
    env: { DSH_SDK_RUNTIME_CHUNK_DELAY_MS: '100' },
    initialize: { cwd: process.cwd(), provider: 'echo', model: 'echo-1' },
    protocolVersion: clientVersion === '1' ? null : Number(clientVersion),
  });
  const controller = new AbortController();
  const stop = client.onNotification((n) => {
    if (n.method === 'session.event' && n.params.event.type === 'assistant/chunk') {
      stop();
      controller.abort();
    }
  });
  let cancelledRun;
  try {
    const run = await client.run('Tell me everything about the sea, slowly, in many words', {
      sessionId: 'cancel',
      signal: controller.signal,
    });
    cancelledRun = { interrupted: true, finishReason: run.finishReason ?? null };
  } catch (error) {
    if (!(error instanceof RunAbortedError)) throw error;
    cancelledRun = {
      interrupted: false,
      finishReason: null,
      cannotInterrupt: /cannot interrupt/.test(error.message),
    };
  }
  const interrupt = await callOrRefusal(() => client.interrupt('cancel'));
  const close = await callOrRefusal(() => client.closeSession('cancel'));
  const later = await client.run('after', { sessionId: 'later' });
  const shutdown = await client.shutdown();
  return {
    protocolVersion: client.protocolVersion,
    capabilities: client.capabilities,
    cancelledRun,
    interrupt,
    close,
    laterRun: { finalResponse: later.finalResponse, finishReason: later.finishReason ?? null },
    shutdown: { endedBy: shutdown.endedBy, exitCode: shutdown.exitCode },
  };
}

const args = process.argv.slice(2);
const report =
  args[0] === '--versions'
    ? await versionScript(args[1], args[2], args[3])
    : await imageScript(args[0], args[1]);
process.stdout.write(JSON.stringify(withoutTime(report)));
