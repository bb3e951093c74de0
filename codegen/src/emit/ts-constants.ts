// IDL → constants.gen.ts: error codes, diagnostic reasons, the IDL and protocol versions and named constants.
import type { Model } from '../idl/model.js';
import { constantCase, pascalCase } from '../idl/names.js';
import { GeneratedFile } from '../printer/generated-file.js';
import type { Emitter } from './emitter.js';
import { META_CONSTANTS, metaValue } from './meta-constants.js';
import { TS_GEN_DIR } from './emitter.js';

export const tsConstantsEmitter: Emitter = {
  name: 'ts-constants',
  emit({ model }) {
    const f = new GeneratedFile(`${TS_GEN_DIR}/constants.gen.ts`, 'ts-constants', 'ts');
    emitProtocolConstants(f, model);
    emitErrorCodes(f, model);
    emitDiagnosticReasons(f, model);
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
