// The embedded, deterministic agent of the reference runtime (docs/reference-runtime.md).
import type { InitializeParams, Violation } from '@dsh-sdk/protocol';
import type {
  DelegationOutcome,
  ModelAdapter,
  ModelPrompt,
  ModelReply,
  ModelRoute,
} from './model-adapter.js';

const PROVIDER = 'echo';
const MODELS = ['echo-1'];
const EFFORTS = ['low', 'medium', 'high'];
const DEFAULT_EFFORT = 'medium';
/** A reply is streamed in pieces of this many Unicode code points. */
const PIECE_CODE_POINTS = 16;
/** A prompt whose first text block starts with this runs a child agent on the rest. */
const DELEGATE_PREFIX = '/delegate ';

/** Cuts `text` every `size` code points; the last piece may be shorter. */
export function cutIntoPieces(text: string, size: number): string[] {
  const codePoints = Array.from(text);
  const pieces: string[] = [];
  for (let start = 0; start < codePoints.length; start += size) {
    pieces.push(codePoints.slice(start, start + size).join(''));
  }
  return pieces;
}

/** Counts the Unicode code points of `text`. */
function countCodePoints(text: string): number {
  let count = 0;
  for (const _codePoint of text) count += 1;
  return count;
}

/** The echo agent: repeats the prompt back, and delegates `/delegate <task>` to a child agent. */
export class EchoAdapter implements ModelAdapter {
  readonly provider = PROVIDER;

  resolveRoute(params: InitializeParams): ModelRoute | Violation {
    if (!MODELS.includes(params.model)) {
      const message = `model "${params.model}" is not served by ${PROVIDER}; served: ${MODELS.join(', ')}`;
      return { pointer: '/model', message };
    }
    const effort = params.reasoningEffort ?? DEFAULT_EFFORT;
    if (!EFFORTS.includes(effort)) {
      const message = `reasoningEffort "${effort}" is not supported by ${params.model}; supported: ${EFFORTS.join(', ')}`;
      return { pointer: '/reasoningEffort', message };
    }
    const route = { adapter: this, provider: PROVIDER, model: params.model };
    return params.maxTokens === undefined
      ? { ...route, reasoningEffort: effort }
      : { ...route, reasoningEffort: effort, maxTokens: params.maxTokens };
  }

  chooseDelegation(prompt: ModelPrompt): string | undefined {
    const first = prompt.texts[0];
    return first?.startsWith(DELEGATE_PREFIX) ? first.slice(DELEGATE_PREFIX.length) : undefined;
  }

  generateReply(
    prompt: ModelPrompt,
    route: ModelRoute,
    delegation?: DelegationOutcome,
  ): ModelReply {
    const whole = delegation
      ? `Delegated to ${delegation.childSessionId}: ${delegation.text}`
      : echoText(prompt);
    const allPieces = cutIntoPieces(whole, PIECE_CODE_POINTS);
    const isCut = route.maxTokens !== undefined && route.maxTokens < allPieces.length;
    const pieces = isCut ? allPieces.slice(0, route.maxTokens) : allPieces;
    return {
      pieces,
      text: pieces.join(''),
      usage: {
        inputTokens: countCodePoints(prompt.texts.join('\n')),
        outputTokens: pieces.length,
      },
      finish: isCut ? 'max-tokens' : 'completed',
    };
  }
}

/** `Echo: ` and the text blocks joined with `\n`, then one line per image. */
function echoText(prompt: ModelPrompt): string {
  const imageLines = prompt.images.map(
    (image) => `[image ${image.mediaType}, ${image.byteLength} bytes, ${image.attachmentId}]`,
  );
  return [`Echo: ${prompt.texts.join('\n')}`, ...imageLines].join('\n');
}
