// IDL → constants.gen.ts: error codes, diagnostic reasons, message texts, the IDL and protocol
// versions and named constants.
import type { Model } from '../idl/model.js';
import { messageDoc, PLACEHOLDER_PATTERN } from '../idl/messages.js';
import { constantCase, pascalCase } from '../idl/names.js';
import type { GeneratedFile } from '../printer/generated-file.js';
import type { Emitter } from './emitter.js';
import { tsFile } from './emitter.js';
import { META_CONSTANTS, metaValue } from './meta-constants.js';

export const tsConstantsEmitter: Emitter = {
  name: 'ts-constants',
  target: 'typescript',
  emit({ model, target }) {
    const f = tsFile(target, 'constants.gen.ts', 'ts-constants');
    emitProtocolConstants(f, model);
    emitErrorCodes(f, model);
    // A protocol without diagnostics or message texts (one whose transport is another's) gets neither.
    if (model.diagnostics.length > 0) emitDiagnosticReasons(f, model);
    if (model.messages.length > 0) emitMessages(f, model);
    return [f.finish()];
  },
};

function emitProtocolConstants(f: GeneratedFile, model: Model): void {
  f.raw(
    f.jsdoc(
      `The semantic version of the IDL (\`meta.version\`) these bindings were generated from. Not negotiated: see {@link LATEST_PROTOCOL_VERSION}.`,
    ),
  );
  f.print`export const IDL_VERSION = ${f.string(model.meta.version)};`;
  f.raw(
    f.jsdoc(
      'The latest protocol version these bindings speak (`meta.protocolVersion`): what a client asks for in `initialize` by default, and what a runtime answers at most.',
    ),
  );
  f.print`export const LATEST_PROTOCOL_VERSION = ${model.meta.protocolVersion};`;
  for (const constant of META_CONSTANTS) {
    f.raw(f.jsdoc(constant.doc));
    f.print`export const ${constant.name} = ${metaValue(model.meta, constant)};`;
  }
  for (const type of model.types) {
    if (!type.constantName) continue;
    f.raw(f.jsdoc(type.description));
    f.print`export const ${constantCase(type.constantName)} = ${f.string(String(type.schema['const']))};`;
  }
  f.blank();
}

function emitErrorCodes(f: GeneratedFile, model: Model): void {
  f.raw(f.jsdoc('The JSON-RPC error codes of the protocol, by name.'));
  f.print`export const ErrorCode = {`;
  for (const e of model.errors) {
    f.raw(f.jsdoc(e.description, '  '));
    f.print`  ${pascalCase(e.name)}: ${e.code},`;
  }
  f.print`} as const;`;
  f.raw(f.jsdoc("One of the protocol's error codes."));
  f.print`export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];`;
  f.blank();
  f.raw(f.jsdoc('The standard `message` of each error code.'));
  f.print`export const ERROR_MESSAGES: Readonly<Record<ErrorCode, string>> = {`;
  for (const e of model.errors)
    f.print`  [ErrorCode.${pascalCase(e.name)}]: ${f.string(e.message)},`;
  f.print`};`;
  f.blank();
}

function emitDiagnosticReasons(f: GeneratedFile, model: Model): void {
  f.raw(
    f.jsdoc(
      'Why a transport ignored a line or a message. Reported to the diagnostics observer, never thrown.',
    ),
  );
  f.print`export type DiagnosticReason =`;
  for (const d of model.diagnostics) {
    f.raw(f.jsdoc(d.description, '  '));
    f.print`  | ${f.string(d.reason)}`;
  }
  f.print`;`;
  f.blank();
  f.raw(f.jsdoc('Every diagnostic reason, in IDL order.'));
  f.print`export const DIAGNOSTIC_REASONS: readonly DiagnosticReason[] = [${model.diagnostics.map((d) => f.string(d.reason)).join(', ')}];`;
}

function emitMessages(f: GeneratedFile, model: Model): void {
  f.blank();
  f.raw(
    f.jsdoc(
      "Every message text a transport or runtime writes on the wire or in a diagnostic (the IDL's `errors[].messages` and `diagnostics[].message`), by name. Fill the `{placeholders}` with {@link formatMessage}.",
    ),
  );
  f.print`export const WireMessage = {`;
  for (const m of model.messages) {
    f.raw(f.jsdoc(messageDoc(m), '  '));
    f.print`  ${pascalCase(m.name)}: ${f.string(m.template)},`;
  }
  f.print`} as const;`;
  f.raw(f.jsdoc('One of the message texts.'));
  f.print`export type WireMessage = (typeof WireMessage)[keyof typeof WireMessage];`;
  f.blank();
  f.raw(f.jsdoc('The names of the `{placeholders}` of a message text.'));
  f.print`export type MessagePlaceholders<T extends string> = T extends \`\${string}{\${infer Name}}\${infer Rest}\``;
  f.print`  ? Name | MessagePlaceholders<Rest>`;
  f.print`  : never;`;
  f.blank();
  f.print`const PLACEHOLDER = new RegExp(${f.string(PLACEHOLDER_PATTERN)}, 'g');`;
  f.blank();
  f.raw(
    f.jsdoc(
      '`template` with each `{name}` replaced by its value (a placeholder without one stays as written). A text without placeholders takes no values.',
    ),
  );
  f.print`export function formatMessage<T extends WireMessage>(`;
  f.print`  template: T,`;
  f.print`  ...values: [MessagePlaceholders<T>] extends [never]`;
  f.print`    ? []`;
  f.print`    : [Readonly<Record<MessagePlaceholders<T>, string | number>>]`;
  f.print`): string {`;
  f.print`  const filled: Readonly<Record<string, string | number>> = values[0] ?? {};`;
  f.print`  return template.replace(PLACEHOLDER, (whole, name: string) =>`;
  f.print`    name in filled ? String(filled[name]) : whole,`;
  f.print`  );`;
  f.print`}`;
}
