// One TypeScript cell of the interop matrix: the TypeScript client against the runtime named on
// the command line. Prints what the client saw as JSON (time values removed) on stdout.
import { HarnessClient, imageFromFile, textBlock } from '../packages/client/dist/index.js';

const [runtimeLauncher, imagePath] = process.argv.slice(2);
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
const report = {
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
process.stdout.write(JSON.stringify(report, (key, value) => (key === 'time' ? undefined : value)));
