// What the live page asks of the runtime through the inspector: a prompt (text and an image),
// a session action (each offered when the runtime reports its capability), and the answers, a
// result or an error as the page shows it.
import { JsonRpcResponseError } from '@dsh-sdk/protocol';
import type {
  HarnessSdkClientPeer,
  SdkEncodedImageBlock,
  SdkPromptContentBlock,
  ServerCapabilities,
  TextBlock,
} from '@dsh-sdk/protocol';

/**
 * An action on one session, offered as a button when the runtime reports its capability in the
 * `initialize` result (protocol version 2), calling the generated peer's method. The page draws
 * whatever this list yields.
 */
interface SessionAction {
  readonly name: string;
  readonly label: string;
  readonly capability: keyof ServerCapabilities;
  readonly run: (peer: HarnessSdkClientPeer, sessionId: string) => Promise<unknown>;
}

const SESSION_ACTIONS: readonly SessionAction[] = [
  {
    name: 'interrupt',
    label: 'Interrupt',
    capability: 'sessionInterrupt',
    run: (peer, sessionId) => peer.sessionInterrupt({ sessionId }),
  },
  {
    name: 'close',
    label: 'Close',
    capability: 'sessionClose',
    run: (peer, sessionId) => peer.sessionClose({ sessionId }),
  },
];

/** The actions the runtime's capabilities allow, for the page's buttons. */
export function actionsFor(
  capabilities: ServerCapabilities | undefined,
): { name: string; label: string }[] {
  return SESSION_ACTIONS.filter((a) => capabilities?.[a.capability] === true).map(
    ({ name, label }) => ({ name, label }),
  );
}

export type Answer =
  { result: unknown } | { error: { code?: number; message: string; data?: unknown } };

export function errorAnswer(error: unknown): Answer {
  if (error instanceof JsonRpcResponseError) {
    return {
      error: {
        code: error.code,
        message: error.wireMessage,
        ...(error.data === undefined ? {} : { data: error.data }),
      },
    };
  }
  return { error: { message: error instanceof Error ? error.message : String(error) } };
}

/** An error's message, with the violations of a `-32602` (pointer and reason each). */
export function describeError(error: { message: string; data?: unknown }): string {
  if (!Array.isArray(error.data)) return error.message;
  const violations = (error.data as { pointer?: unknown; message?: unknown }[]).map(
    (v) => `${String(v.pointer)} ${String(v.message)}`,
  );
  return `${error.message}: ${violations.join('; ')}`;
}

export interface PromptRequest {
  readonly sessionId?: unknown;
  readonly text?: unknown;
  readonly image?: { readonly data: string; readonly mimeType: string };
}

export interface ActionRequest {
  readonly name?: string;
  readonly sessionId?: string;
}

/** Sends the page's prompt (its text, and its image if any) as `session/prompt`. */
export async function sendPrompt(peer: HarnessSdkClientPeer, body: PromptRequest): Promise<Answer> {
  const contentBlocks: SdkPromptContentBlock[] = [];
  if (typeof body.text === 'string' && body.text !== '') {
    const text: TextBlock = { type: 'text', text: body.text };
    contentBlocks.push(text);
  }
  if (body.image) {
    const image = { type: 'image', data: body.image.data, mimeType: body.image.mimeType };
    contentBlocks.push(image as SdkEncodedImageBlock);
  }
  try {
    const sessionId = String(body.sessionId ?? '');
    return { result: await peer.sessionPrompt({ sessionId, contentBlocks }) };
  } catch (error) {
    return errorAnswer(error);
  }
}

/** Runs the page's session action by its name. */
export async function runAction(peer: HarnessSdkClientPeer, body: ActionRequest): Promise<Answer> {
  const action = SESSION_ACTIONS.find((a) => a.name === body.name);
  if (!action) return { error: { message: `no action ${String(body.name)}` } };
  try {
    return { result: await action.run(peer, String(body.sessionId ?? '')) };
  } catch (error) {
    return errorAnswer(error);
  }
}
