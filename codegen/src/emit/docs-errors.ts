// The error codes, transport diagnostics and message texts of the protocol reference; a protocol
// without diagnostics or message texts (one whose transport is another's) gets no such section.
import type { Model } from '../idl/model.js';
import type { GeneratedFile } from '../printer/generated-file.js';
import { anchor, cell, emitTypes } from './docs-types.js';

export function emitErrors(f: GeneratedFile, model: Model): void {
  f.print`## Error codes`;
  f.blank();
  f.print`| code | name | message | data | when |`;
  f.print`|---|---|---|---|---|`;
  for (const e of model.errors) {
    f.print`| \`${e.code}\` | ${e.name} | ${e.message} | ${e.dataType ? anchor(e.dataType) : '—'} | ${cell(e.description)} |`;
  }
  f.blank();
  emitTypes(f, model, 'errorData', 'Error data');
}

export function emitDiagnostics(f: GeneratedFile, model: Model): void {
  if (model.diagnostics.length === 0) return;
  f.print`## Transport diagnostics`;
  f.blank();
  f.raw(
    'What a transport ignores is reported to its observer with one of these reasons; it is never thrown and never answered.',
  );
  f.blank();
  f.print`| reason | meaning |`;
  f.print`|---|---|`;
  for (const d of model.diagnostics) f.print`| \`${d.reason}\` | ${cell(d.description)} |`;
  if (model.messages.length > 0) emitMessages(f, model);
}

function emitMessages(f: GeneratedFile, model: Model): void {
  f.blank();
  f.print`### Message texts`;
  f.blank();
  f.raw(
    "The `message` a transport or runtime writes with an error or a diagnostic, the same in every language (`WireMessage` / `formatMessage` in TypeScript, `WireMessage` / `format_message` in Python). `{name}` is filled in when the message is sent. A handler's own error keeps its own message.",
  );
  f.blank();
  f.print`| name | text | sent with |`;
  f.print`|---|---|---|`;
  for (const m of model.messages)
    f.print`| ${m.name} | ${cell('`' + m.template + '`')} | ${m.owner} |`;
}
