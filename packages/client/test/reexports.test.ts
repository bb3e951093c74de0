// The package as a user imports it (by name, its built `exports`): the protocol types, constants
// and guards its API takes and gives come with it. `tsc --noEmit` checks the types.
import * as protocol from '@dsh-sdk/protocol';
import {
  HarnessClient,
  LATEST_PROTOCOL_VERSION,
  Method,
  isAssistantChunkEvent,
  isTextBlock,
  isTurnEndEvent,
} from '@dsh-sdk/client';
import type {
  AssistantChunk,
  HarnessNotification,
  InitializeParams,
  InitializeResult,
  RunResult,
  ServerCapabilities,
  SessionEvent,
  SessionPromptParams,
  SessionStatusNotification,
  SubagentFinishedNotification,
  TextStream,
  TraceFinding,
  TraceFindingContext,
  TraceOptions,
  TurnAbortKind,
  TurnAbortReason,
  TurnEndKind,
  TurnEndReason,
  UnknownValue,
  Violation,
} from '@dsh-sdk/client';
import { describe, expect, expectTypeOf, test } from 'vitest';

describe('@dsh-sdk/client re-exports the protocol it speaks', () => {
  test('the constants and guards are the protocol package values themselves', () => {
    expect(LATEST_PROTOCOL_VERSION).toBe(protocol.LATEST_PROTOCOL_VERSION);
    expect(Method).toBe(protocol.Method);
    expect(isAssistantChunkEvent).toBe(protocol.isAssistantChunkEvent);
    expect(isTurnEndEvent).toBe(protocol.isTurnEndEvent);
    expect(isTextBlock).toBe(protocol.isTextBlock);
  });

  test('the types the API uses are the protocol types', () => {
    expectTypeOf<InitializeParams>().toEqualTypeOf<protocol.InitializeParams>();
    expectTypeOf<
      Parameters<typeof HarnessClient.spawn>[0]['initialize']
    >().toEqualTypeOf<InitializeParams>();
    expectTypeOf<RunResult['events'][number]>().toEqualTypeOf<SessionEvent>();
    expectTypeOf<HarnessClient['capabilities']>().toEqualTypeOf<ServerCapabilities>();
    expectTypeOf<Parameters<HarnessClient['prompt']>[0]>().toEqualTypeOf<SessionPromptParams>();
    expectTypeOf<InitializeResult>().toEqualTypeOf<protocol.InitializeResult>();
    expectTypeOf<Violation>().toEqualTypeOf<protocol.Violation>();
    expectTypeOf<TurnEndKind>().toEqualTypeOf<protocol.TurnEndKind>();
    expectTypeOf<UnknownValue>().toEqualTypeOf<protocol.UnknownValue>();
    expectTypeOf<ReturnType<HarnessClient['streamText']>>().toEqualTypeOf<TextStream>();
    // What a notification listener and a trace's finding callback receive.
    expectTypeOf<
      Extract<HarnessNotification, { method: typeof Method.sessionStatus }>['params']
    >().toEqualTypeOf<SessionStatusNotification>();
    expectTypeOf<
      Extract<HarnessNotification, { method: typeof Method.subagentFinished }>['params']
    >().toEqualTypeOf<SubagentFinishedNotification>();
    expectTypeOf<TurnEndReason>().toEqualTypeOf<protocol.TurnEndReason>();
    expectTypeOf<TurnAbortReason>().toEqualTypeOf<protocol.TurnAbortReason>();
    expectTypeOf<TurnAbortKind>().toEqualTypeOf<protocol.TurnAbortKind>();
    expectTypeOf<Parameters<NonNullable<TraceOptions['onFinding']>>>().toEqualTypeOf<
      [TraceFinding, TraceFindingContext]
    >();
  });

  test("a guard narrows a run's events where comparing type cannot", () => {
    const event = { type: 'assistant/chunk', seq: 1, time: 0, data: {} } as SessionEvent;
    if (isAssistantChunkEvent(event)) expectTypeOf(event.data).toEqualTypeOf<AssistantChunk>();
    const notification = {} as HarnessNotification;
    if (notification.method === Method.sessionEvent)
      expectTypeOf(notification.params.event).toEqualTypeOf<SessionEvent>();
  });
});
