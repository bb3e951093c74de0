#!/usr/bin/env node
// dsh-sdk: see the traffic of the protocol, and bridge a runtime to ACP editors. `dsh-sdk <verb> --help` for each verb.
import { UsageError } from './cli-args.js';
import { runConformance } from './conformance-command.js';
import { flushStdio } from './flush-output.js';
import { runInspect } from './inspect-command.js';
import { runTrace } from './trace-command.js';
import { runView } from './view-command.js';

const HELP = `Usage: dsh-sdk <verb> [options]

Verbs:
  trace        record a runtime's traffic through a transparent stdio proxy
  view         turn a recorded trace into a timeline page (a file, or served on 127.0.0.1)
  inspect      start a runtime behind the recorder and watch it live in the browser
  conformance  judge a runtime or a client against the protocol (conformance runtime|client)
  acp          serve the Agent Client Protocol on stdio, so an ACP editor drives a runtime

Run dsh-sdk <verb> --help for a verb's options.`;

const VERBS: Record<string, (args: readonly string[]) => Promise<number>> = {
  trace: runTrace,
  view: runView,
  inspect: runInspect,
  conformance: runConformance,
  // Loaded only when used: the bridge brings the ACP bindings and the client.
  acp: async (args) => (await import('./acp/acp-command.js')).runAcp(args),
};

async function main(argv: readonly string[]): Promise<number> {
  const [verb, ...args] = argv;
  if (verb === undefined || verb === '--help' || verb === '-h' || verb === 'help') {
    process.stdout.write(`${HELP}\n`);
    return verb === undefined ? 2 : 0;
  }
  const run = VERBS[verb];
  if (!run) {
    process.stderr.write(`dsh-sdk: unknown verb ${JSON.stringify(verb)}\n\n${HELP}\n`);
    return 2;
  }
  try {
    return await run(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(
      `dsh-sdk ${verb}: ${error.message}\nRun dsh-sdk ${verb} --help for usage.\n`,
    );
    return 2;
  }
}

process.exitCode = await main(process.argv.slice(2));
// stdin may still be open (the proxy read it), so leave explicitly; but only once stdout and
// stderr are flushed: on a pipe their writes are asynchronous, and exit() would drop the rest.
await flushStdio();
process.exit();
