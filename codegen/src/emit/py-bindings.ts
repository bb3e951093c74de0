// IDL → Python bindings: constants.py (version, error codes, diagnostic reasons), methods.py (method
// names and metadata) and wire_names.py (the tables codec.py decodes and encodes by).
import type { Method, Model } from '../idl/model.js';
import { messageDoc, PLACEHOLDER_PATTERN } from '../idl/messages.js';
import { constantCase, kebabCase } from '../idl/names.js';
import type { GeneratedFile } from '../printer/generated-file.js';
import type { ProtocolTargets } from '../protocols/targets.js';
import type { SchemaBundle } from '../schema/bundle.js';
import type { Emitter } from './emitter.js';
import { pyFile, pyGenModule } from './emitter.js';
import { META_CONSTANTS, metaValue } from './meta-constants.js';
import { pyDocstring, pyStr, pyTuple } from './py-literals.js';
import { emitCapabilityTable } from './py-capabilities.js';
import { emitWireNames } from './py-wire-names.js';
import { newerParamsMembers } from './ts-methods.js';
import { deprecationText, withVersionSentences } from './version-notes.js';

export const pyBindingsEmitter: Emitter = {
  name: 'py-bindings',
  target: 'python',
  emit({ model, bundle, target }) {
    return [
      emitPackage(bundle, target),
      emitConstants(model, target),
      emitMethods(model, target),
      emitWireNames(model, bundle, target),
    ];
  },
};

/** __init__.py: every model class and union alias by its IDL name, for the package root to re-export. */
function emitPackage(bundle: SchemaBundle, target: ProtocolTargets) {
  const names = [bundle.title, ...Object.keys(bundle.definitions)].sort();
  const f = pyFile(target, '__init__.py', 'py-bindings');
  f.preamble(pyDocstring('Every model of the protocol, by its IDL name.'));
  for (const name of names) f.import(name, pyGenModule(f, 'models'));
  f.print`__all__ = [`;
  for (const name of names) f.print`    ${pyStr(name)},`;
  f.print`]`;
  return f.finish();
}

/** constants.py: the names the transport imports; nothing here depends on another generated module. */
export function emitConstants(model: Model, target: ProtocolTargets) {
  const f = pyFile(target, 'constants.py', 'py-bindings');
  f.preamble(
    pyDocstring(
      `Constants of the ${model.meta.title}: version, error codes, diagnostic reasons, message texts.`,
    ),
  );
  emitProtocolConstants(f, model);
  emitErrorCodes(f, model);
  emitDiagnosticReasons(f, model);
  emitMessages(f, model);
  return f.finish();
}

/** `typing.<name>`, imported where it is printed. */
const typing = (f: GeneratedFile, name: string): string => f.import(name, 'typing');

function emitProtocolConstants(f: GeneratedFile, model: Model): void {
  const Final = typing(f, 'Final');
  f.print`IDL_VERSION: ${Final} = ${pyStr(model.meta.version)}`;
  f.raw(
    pyDocstring(
      `The semantic version of the IDL (\`meta.version\`) these bindings were generated from. Not negotiated: see \`LATEST_PROTOCOL_VERSION\`.`,
    ),
  );
  f.print`LATEST_PROTOCOL_VERSION: ${Final} = ${model.meta.protocolVersion}`;
  f.raw(
    pyDocstring(
      'The latest protocol version these bindings speak (`meta.protocolVersion`): what a client asks for in `initialize` by default, and what a runtime answers at most.',
    ),
  );
  for (const constant of META_CONSTANTS) {
    f.print`${constant.name}: ${Final} = ${metaValue(model.meta, constant)}`;
    f.raw(pyDocstring(constant.doc));
  }
  for (const type of model.types) {
    if (!type.constantName) continue;
    f.print`${constantCase(type.constantName)}: ${Final} = ${pyStr(String(type.schema['const']))}`;
    f.raw(pyDocstring(type.description));
  }
  f.blank(2);
}

function emitErrorCodes(f: GeneratedFile, model: Model): void {
  f.print`class ErrorCode(${f.import('IntEnum', 'enum')}):`;
  f.raw(pyDocstring('The JSON-RPC error codes of the protocol, by name.', '    '));
  for (const e of model.errors) {
    f.blank();
    f.print`    ${constantCase(e.name)} = ${e.code}`;
    f.raw(pyDocstring(e.description, '    '));
  }
  f.blank(2);
  const mapping = f.import('Mapping', 'collections.abc');
  f.print`ERROR_MESSAGES: ${typing(f, 'Final')}[${mapping}[ErrorCode, str]] = {`;
  for (const e of model.errors)
    f.print`    ErrorCode.${constantCase(e.name)}: ${pyStr(e.message)},`;
  f.print`}`;
  f.raw(pyDocstring('The standard `message` of each error code.'));
  f.blank();
}

function emitDiagnosticReasons(f: GeneratedFile, model: Model): void {
  if (model.diagnostics.length === 0) {
    // `Literal[]` is not Python: a protocol without diagnostics has a reason type with no values.
    f.print`DiagnosticReason: ${typing(f, 'TypeAlias')} = ${typing(f, 'NoReturn')}`;
  } else {
    f.print`DiagnosticReason = ${typing(f, 'Literal')}[`;
    for (const d of model.diagnostics) f.print`    ${pyStr(d.reason)},`;
    f.print`]`;
  }
  f.raw(
    pyDocstring(
      'Why a transport ignored a line or a message. Reported to the diagnostics observer, never raised.',
    ),
  );
  f.blank();
  f.print`DIAGNOSTIC_REASONS: ${typing(f, 'Final')}[tuple[DiagnosticReason, ...]] = (${model.diagnostics.length === 0 ? ')' : ''}`;
  for (const d of model.diagnostics) f.print`    ${pyStr(d.reason)},`;
  if (model.diagnostics.length > 0) f.print`)`;
  f.raw(pyDocstring('Every diagnostic reason, in IDL order.'));
}

function emitMessages(f: GeneratedFile, model: Model): void {
  const Final = typing(f, 'Final');
  f.blank(2);
  f.print`class WireMessage:`;
  f.raw(
    pyDocstring(
      "Every message text a transport or runtime writes on the wire or in a diagnostic (the IDL's `errors[].messages` and `diagnostics[].message`), by name. Fill the `{placeholders}` with `format_message`.",
      '    ',
    ),
  );
  for (const m of model.messages) {
    f.blank();
    f.print`    ${constantCase(m.name)}: ${Final} = ${pyStr(m.template)}`;
    f.raw(pyDocstring(messageDoc(m), '    '));
  }
  f.blank(2);
  const re = f.importModule('re');
  f.print`_PLACEHOLDER: ${Final} = ${re}.compile(${pyStr(PLACEHOLDER_PATTERN)})`;
  f.blank(2);
  f.print`def format_message(template: str, **values: object) -> str:`;
  f.raw(
    pyDocstring(
      '`template` with each `{name}` replaced by `str(values[name])` (a placeholder without a value stays as written).',
      '    ',
    ),
  );
  f.print`    return _PLACEHOLDER.sub(lambda m: str(values.get(m.group(1), m.group(0))), template)`;
}

/** methods.py: `Method.SESSION_PROMPT == "session/prompt"` and the METHODS metadata table. */
export function emitMethods(model: Model, target: ProtocolTargets) {
  const f = pyFile(target, 'methods.py', 'py-bindings');
  f.preamble(pyDocstring(`The methods of the ${model.meta.title}: wire names and metadata.`));
  const Final = typing(f, 'Final');
  const Literal = typing(f, 'Literal');
  f.print`class Method:`;
  f.raw(pyDocstring('The wire name of every method, by its generated name.', '    '));
  for (const m of model.methods) {
    f.blank();
    f.print`    ${constantCase(m.name)}: ${Final} = ${pyStr(m.wireName)}`;
    f.raw(pyDocstring(withVersionSentences(m.description, m), '    '));
  }
  f.blank(2);
  f.print`MethodName = ${Literal}[`;
  for (const m of model.methods) f.print`    ${pyStr(m.wireName)},`;
  f.print`]`;
  f.raw(pyDocstring('A wire method name of the protocol.'));
  f.blank(2);
  f.print`@${f.import('dataclass', 'dataclasses')}(frozen=True, kw_only=True, slots=True)`;
  f.print`class MethodInfo:`;
  f.raw(pyDocstring('What the IDL says about one method, available at run time.', '    '));
  f.blank();
  f.print`    name: str`;
  f.print`    kebab_name: str`;
  f.raw(
    pyDocstring("The name in kebab case, for file and folder names (the golden vectors').", '    '),
  );
  f.print`    wire_name: MethodName`;
  // Extension methods may go either way (`both`), where a protocol has them.
  const both = model.methods.some((m) => m.direction === 'both') ? ', "both"' : '';
  f.print`    direction: ${Literal}["clientToServer", "serverToClient"${both}]`;
  f.print`    kind: ${Literal}["request", "notification"]`;
  f.print`    params_type: str | None`;
  f.print`    result_type: str | None`;
  f.print`    error_codes: tuple[int, ...]`;
  f.print`    since: int`;
  f.raw(
    pyDocstring(
      'The protocol version that introduced it: peers of earlier versions never see it.',
      '    ',
    ),
  );
  f.print`    deprecated: str | None`;
  f.raw(pyDocstring('Why it is deprecated and what to use instead, or None.', '    '));
  f.print`    params_members_since: ${f.import('Mapping', 'collections.abc')}[str, int]`;
  f.raw(
    pyDocstring(
      'Params members introduced after version 1, by wire name, with their version: a peer playing an older version treats them as unknown members.',
      '    ',
    ),
  );
  f.blank(2);
  f.print`METHODS: ${Final}[tuple[MethodInfo, ...]] = (`;
  for (const m of model.methods) emitMethodInfo(f, m, model);
  f.print`)`;
  f.raw(pyDocstring('Every method of the protocol, in IDL order.'));
  emitCapabilityTable(f, model);
  return f.finish();
}

function emitMethodInfo(f: GeneratedFile, m: Method, model: Model): void {
  const codes = m.errors.map((name) =>
    String(model.errors.find((e) => e.name === name)?.code ?? 0),
  );
  f.print`    MethodInfo(`;
  f.print`        name=${pyStr(m.name)},`;
  f.print`        kebab_name=${pyStr(kebabCase(m.name))},`;
  f.print`        wire_name=${pyStr(m.wireName)},`;
  f.print`        direction=${pyStr(m.direction)},`;
  f.print`        kind=${pyStr(m.kind)},`;
  f.print`        params_type=${m.params ? pyStr(m.params) : 'None'},`;
  f.print`        result_type=${m.result ? pyStr(m.result) : 'None'},`;
  f.print`        error_codes=${pyTuple(codes)},`;
  f.print`        since=${m.since},`;
  f.print`        deprecated=${m.deprecated ? pyStr(deprecationText(m.deprecated)) : 'None'},`;
  const newer = newerParamsMembers(m, model).map(([name, since]) => `${pyStr(name)}: ${since}`);
  f.print`        params_members_since={${newer.join(', ')}},`;
  f.print`    ),`;
}
