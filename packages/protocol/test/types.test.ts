// Type-level checks of the generated maps, through the package root. `tsc --noEmit` (pnpm lint)
// fails on a wrong type; vitest runs the expectTypeOf calls as no-ops.
import { describe, expectTypeOf, it } from 'vitest';
import type {
  ContentBlock,
  HarnessSdkNotificationMap,
  HarnessSdkRequestMap,
  InitializeParams,
  JsonRpcTransportPeer,
  NotificationMethod,
  RequestMethod,
  SdkEncodedImageBlock,
  ServerName,
  SessionInterruptResult,
  SessionEvent,
  SubagentStopReason,
  UnknownSessionEvent,
  UnknownValue,
} from '../src/index.js';
import { HarnessSdkClientPeer, JsonRpcLineTransport, Method, SERVER_NAME } from '../src/index.js';

describe('generated maps and types', () => {
  it('index requests by wire name with params and result', () => {
    expectTypeOf<RequestMethod>().toEqualTypeOf<
      'initialize' | 'session/prompt' | 'session/interrupt' | 'session/close' | 'shutdown'
    >();
    expectTypeOf<InitializeParams['protocolVersion']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<
      HarnessSdkRequestMap['session/interrupt']['result']
    >().toEqualTypeOf<SessionInterruptResult>();
    expectTypeOf<HarnessSdkRequestMap['initialize']['params']['cwd']>().toEqualTypeOf<string>();
    expectTypeOf<HarnessSdkRequestMap['initialize']['params']>().toHaveProperty('maxTokens');
    expectTypeOf<InitializeParams['maxTokens']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<
      HarnessSdkRequestMap['session/prompt']['result']['messageId']
    >().toEqualTypeOf<string>();
    expectTypeOf<HarnessSdkRequestMap['shutdown']['params']>().toEqualTypeOf<undefined>();
    // As wide as the original package's types (its code depends on them); the schema checks the values.
    expectTypeOf<
      HarnessSdkRequestMap['initialize']['result']['serverInfo']['name']
    >().toEqualTypeOf<string>();
    expectTypeOf<ServerName>().toEqualTypeOf<'deepseek-harness-sdk-runtime'>();
    expectTypeOf<HarnessSdkRequestMap['shutdown']['result']>().toEqualTypeOf<
      Record<string, never>
    >();
  });

  it('let a peer written for the original package stand for JsonRpcTransportPeer', () => {
    const originalPeer = {
      request: (_method: string, _params: object): Promise<unknown> => Promise.resolve({}),
      notify: (_method: string, _params?: object): void => {},
    };
    expectTypeOf(originalPeer).toMatchTypeOf<JsonRpcTransportPeer>();
    expectTypeOf<JsonRpcLineTransport>().toMatchTypeOf<JsonRpcTransportPeer>();
  });

  it('index notifications by wire name with their params', () => {
    expectTypeOf<NotificationMethod>().toEqualTypeOf<
      'session.event' | 'session.status' | 'subagent.started' | 'subagent.finished'
    >();
    expectTypeOf<HarnessSdkNotificationMap['session.status']['status']>().toEqualTypeOf<
      'running' | 'idle'
    >();
    expectTypeOf<HarnessSdkNotificationMap['subagent.finished']['status']>().toEqualTypeOf<
      'ok' | 'error'
    >();
    expectTypeOf<
      HarnessSdkNotificationMap['subagent.finished']['lastAssistantMessage']
    >().toEqualTypeOf<ContentBlock[] | undefined>();
    expectTypeOf<
      HarnessSdkNotificationMap['session.event']['event']
    >().toEqualTypeOf<SessionEvent>();
  });

  it('keep open unions open, their known values checked, and closed enums closed', () => {
    expectTypeOf<UnknownSessionEvent>().toMatchTypeOf<SessionEvent>();
    // A value this version does not know is an UnknownValue: readable, never a literal.
    expectTypeOf<{ type: UnknownValue }>().toMatchTypeOf<ContentBlock>();
    expectTypeOf<{ type: 'audio'; seconds: number }>().not.toMatchTypeOf<ContentBlock>();
    expectTypeOf<UnknownValue>().toMatchTypeOf<SubagentStopReason>();
    expectTypeOf<'budget-exhausted'>().not.toMatchTypeOf<SubagentStopReason>();
    expectTypeOf<'completed'>().toMatchTypeOf<SubagentStopReason>();
    expectTypeOf<'paused'>().not.toMatchTypeOf<
      HarnessSdkNotificationMap['session.status']['status']
    >();
    // An inline image cannot also carry a durable attachment.
    expectTypeOf<SdkEncodedImageBlock['attachment']>().toEqualTypeOf<undefined>();
  });

  it('give the client peer one typed method per request and one subscription per notification', () => {
    expectTypeOf<HarnessSdkClientPeer['initialize']>()
      .parameter(0)
      .toEqualTypeOf<InitializeParams>();
    expectTypeOf<ReturnType<HarnessSdkClientPeer['sessionPrompt']>>().resolves.toEqualTypeOf<
      HarnessSdkRequestMap['session/prompt']['result']
    >();
    expectTypeOf<HarnessSdkClientPeer['onSessionStatus']>()
      .parameter(0)
      .toEqualTypeOf<(params: HarnessSdkNotificationMap['session.status']) => void>();
    expectTypeOf(Method.sessionPrompt).toEqualTypeOf<'session/prompt'>();
    expectTypeOf<typeof SERVER_NAME>().toEqualTypeOf<'deepseek-harness-sdk-runtime'>();
  });
});
