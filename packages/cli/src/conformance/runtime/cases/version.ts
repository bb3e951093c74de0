// Version negotiation (WIRE.md §9): the version both speak, the capabilities of a version, and a
// version 1 runtime's ignorance of it all.
import { CAPABILITIES, ErrorCode, LATEST_PROTOCOL_VERSION } from '@dsh-sdk/protocol';
import type { RuntimeCaseContext } from '../case-context.js';
import { describeAnswer, errorOf } from '../case-context.js';
import type { RuntimeCase } from '../case.js';
import type { JsonObject } from '../server-line.js';

/** Checks one version 2 answer to `protocolVersion` `asked`. */
function checkNegotiated(ctx: RuntimeCaseContext, asked: number, result: JsonObject): void {
  const shown = JSON.stringify(result);
  const expected = asked < ctx.runtimeVersion ? asked : ctx.runtimeVersion;
  const version = result['protocolVersion'];
  const isRight =
    asked <= LATEST_PROTOCOL_VERSION
      ? version === expected
      : typeof version === 'number' && version >= ctx.runtimeVersion && version <= asked;
  ctx.check(
    'DSH-VERSION-002',
    isRight,
    `asked for version ${asked}, answered ${shown} (expected protocolVersion ${expected})`,
  );
  if (typeof version !== 'number') return;
  const capabilities = result['capabilities'];
  if (version < 2) {
    ctx.check(
      'DSH-VERSION-002',
      capabilities === undefined,
      `version ${version} was negotiated but capabilities came too: ${shown}`,
    );
    return;
  }
  if (typeof capabilities !== 'object' || capabilities === null) {
    ctx.fail('DSH-VERSION-002', `version ${version} was negotiated without capabilities: ${shown}`);
    return;
  }
  for (const capability of CAPABILITIES.filter((c) => c.since <= version))
    ctx.check(
      'DSH-VERSION-003',
      (capabilities as JsonObject)[capability.name] === true,
      `version ${version} was negotiated without ${capability.name}: true (added in version ${capability.since}): ${shown}`,
    );
}

/** Checks a version 1 runtime's answer: exactly `{serverInfo}` whatever was asked. */
function checkVersion1(ctx: RuntimeCaseContext, asked: unknown, result: JsonObject): void {
  ctx.check(
    'DSH-VERSION-005',
    Object.keys(result).join() === 'serverInfo',
    `a version 1 runtime asked for protocolVersion ${JSON.stringify(asked)} answered ${JSON.stringify(result)}, not exactly {serverInfo}`,
  );
}

export const VERSION_CASES: readonly RuntimeCase[] = [
  {
    id: 'version.negotiation',
    title: `initialize asking for versions 1, ${LATEST_PROTOCOL_VERSION} and 99, each on its own runtime`,
    requirements: ['DSH-VERSION-002', 'DSH-VERSION-003', 'DSH-VERSION-005'],
    async run(ctx) {
      const asked = [...new Set([1, LATEST_PROTOCOL_VERSION, 99])];
      await Promise.all(
        asked.map(async (version) => {
          const wire = await ctx.start();
          const result = await ctx.initialize(wire, version);
          if (ctx.runtimeVersion >= 2) checkNegotiated(ctx, version, result);
          else checkVersion1(ctx, version, result);
          wire.closeStdin();
        }),
      );
    },
  },
  {
    id: 'version.v1-mode',
    title:
      'a version 1 runtime ignores an invalid protocolVersion and answers -32601 to the version 2 methods',
    requirements: ['DSH-VERSION-005'],
    versions: 'v1',
    async run(ctx) {
      const wire = await ctx.start();
      const answer = await wire.request('initialize', {
        ...ctx.initializeParams(),
        protocolVersion: '2',
      });
      const result = answer['result'];
      if (typeof result !== 'object' || result === null)
        ctx.fail(
          'DSH-VERSION-005',
          `initialize with protocolVersion "2" was refused: ${describeAnswer(answer)}`,
        );
      else checkVersion1(ctx, '2', result as JsonObject);
      for (const method of ['session/interrupt', 'session/close']) {
        const refused = await wire.request(method, { sessionId: 'conformance-v1' });
        ctx.check(
          'DSH-VERSION-005',
          errorOf(refused)?.['code'] === ErrorCode.MethodNotFound,
          `a version 1 runtime answered ${method} with ${describeAnswer(refused)}, not -32601`,
        );
      }
      wire.closeStdin();
    },
  },
];
