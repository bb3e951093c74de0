// Schema bundle → python/src/dsh_sdk/_gen/models.py: standard-library dataclasses made by
// datamodel-code-generator (pinned in codegen/package.json, run through pipx), steered only by options.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { cachedText } from '../inner-loop/output-cache.js';
import { pythonToolFingerprint } from '../inner-loop/tool-fingerprint.js';
import { commentedHeader } from '../printer/generated-file.js';
import type { SchemaBundle } from '../schema/bundle.js';
import { withVersionDescriptions } from '../schema/version-descriptions.js';
import { versionSentences } from './version-notes.js';
import type { ProtocolTargets } from '../protocols/targets.js';
import type { Emitter } from './emitter.js';
import { pyTarget } from './emitter.js';
import { pyTypedBundle } from './py-typed-bundle.js';

const codegenPackage = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
) as {
  pythonTools: Record<string, string>;
};

/** The pinned version, `pythonTools` in codegen/package.json. */
export const DMCG_VERSION =
  codegenPackage.pythonTools['datamodel-code-generator'] ?? '(not pinned)';

/** The hand-written base class that carries unknown fields (`extra`), in the runtime's `wireObject` module. */
export const WIRE_OBJECT_CLASS = 'WireObject';

const SETUP_HINT = 'run `bash scripts/setup.sh` to install it';

/** Fixed options: every one is a decision recorded here, none depends on the machine. */
export function dmcgOptions(target: ProtocolTargets): string[] {
  return [
    '--input-file-type',
    'jsonschema',
    '--output-model-type',
    'dataclasses.dataclass',
    '--target-python-version',
    '3.10',
    '--dataclass-arguments',
    '{"frozen": true, "kw_only": true, "slots": true}',
    '--base-class',
    `${pyTarget(target).runtime.wireObject}.${WIRE_OBJECT_CLASS}`,
    // Class names are the IDL names (every definition has a title); fields are snake_case.
    '--use-title-as-name',
    '--snake-case-field',
    // Enums become Literal types, so values are the wire strings themselves.
    '--enum-field-as-literal',
    'all',
    '--use-schema-description',
    '--use-field-description',
    '--use-single-line-docstring',
    '--use-double-quotes',
    // The IDL's order cannot be kept: datamodel-code-generator always reorders so that a class
    // follows the classes it uses. Without this flag the result interleaves dependency layers
    // (InitializeParams, ImageMimeType, ShutdownResult, SessionStatus, …); with it, it is a
    // topological order broken by name, which reads as alphabetical: the easier one to look up.
    '--keep-model-order',
    '--disable-timestamp',
    '--formatters',
    'black',
    'isort',
    '--custom-file-header',
    commentedHeader('py-models', 'py', target.idlPath),
  ];
}

/** black and isort read their settings from here: the repository's line length, so `ruff format` agrees. */
const FORMATTER_SETTINGS = `[tool.black]
line-length = 100

[tool.isort]
profile = "black"
line_length = 100
`;

export const pyModelsEmitter: Emitter = {
  name: 'py-models',
  target: 'python',
  emit({ bundle, model, target }) {
    const described = withVersionDescriptions(
      pyTypedBundle(bundle),
      model,
      (text, item) => [text, ...versionSentences(item)].join(' '),
      (value, item) => `\`${value}\`: ${versionSentences(item).join(' ')}`,
    );
    // A child process: awaited, so the other emitters (of this protocol and others) run meanwhile.
    const input = withListedEnumDescriptions(withoutForbiddenProperties(described));
    return runDatamodelCodegen(input, target).then((content) => [
      { path: `${pyTarget(target).genDir}/models.py`, content, language: 'py' as const },
    ]);
  },
};

/**
 * Drops properties whose schema is `false` (must be absent, e.g. `data` on a durable image block).
 * datamodel-code-generator would make each an `Any | None` field that no valid value can fill; the
 * validators still reject them, since they read the bundle itself.
 */
export function withoutForbiddenProperties(bundle: SchemaBundle): SchemaBundle {
  const definitions: SchemaBundle['definitions'] = {};
  for (const [name, schema] of Object.entries(bundle.definitions)) {
    const properties = schema['properties'] as Record<string, unknown> | undefined;
    if (!properties) {
      definitions[name] = schema;
      continue;
    }
    const kept = Object.entries(properties).filter(([, property]) => property !== false);
    definitions[name] = { ...schema, properties: Object.fromEntries(kept) };
  }
  return { ...bundle, definitions };
}

/**
 * The IDL's `x-enum-descriptions` maps each value to its text; datamodel-code-generator reads a
 * keyword of the same name as a list in `enum` order, and refuses a map. Handed over as that list.
 */
export function withListedEnumDescriptions<T>(node: T): T {
  if (Array.isArray(node)) return node.map(withListedEnumDescriptions) as T;
  if (node === null || typeof node !== 'object') return node;
  const entries = Object.entries(node).map(([key, value]) => {
    const values = (node as Record<string, unknown>)['enum'];
    if (key === 'x-enum-descriptions' && Array.isArray(values)) {
      const texts = value as Record<string, string>;
      return [key, values.map((item) => texts[String(item)] ?? '')];
    }
    return [key, withListedEnumDescriptions(value)];
  });
  return Object.fromEntries(entries) as T;
}

export async function runDatamodelCodegen(
  bundle: SchemaBundle,
  target: ProtocolTargets,
): Promise<string> {
  const executable = await locateDatamodelCodegen();
  const schema = `${JSON.stringify(bundle, null, 2)}\n`;
  const options = dmcgOptions(target);
  // Reused when the schema, the options and every installed tool version are the same.
  const key = [pythonToolFingerprint(executable), options, FORMATTER_SETTINGS, schema];
  return cachedText('datamodel-codegen', key, () => generateModels(executable, schema, options));
}

async function generateModels(
  executable: string,
  schema: string,
  options: readonly string[],
): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-py-models-'));
  try {
    writeFileSync(join(dir, 'protocol.schema.json'), schema);
    writeFileSync(join(dir, 'pyproject.toml'), FORMATTER_SETTINGS);
    const args = ['--input', 'protocol.schema.json', '--output', 'models.py', ...options];
    await run(executable, args, dir);
    return readFileSync(join(dir, 'models.py'), 'utf8').replace(/\r\n/g, '\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Where set-up installs datamodel-codegen: pipx's bin folder inside the checkout (`PIPX_BIN_DIR` in
 * scripts/lib/tools.sh), so generation needs neither pipx nor anything else on the caller's PATH.
 */
export const DMCG_EXECUTABLE = fileURLToPath(
  new URL('../../../.tools/pipx/bin/datamodel-codegen', import.meta.url),
);

/** The pinned datamodel-codegen; fails with the fix when it is missing or another version. */
export async function locateDatamodelCodegen(executable = DMCG_EXECUTABLE): Promise<string> {
  let version: string;
  try {
    version = (await run(executable, ['--version'], process.cwd())).trim();
  } catch {
    throw new Error(
      `py-models: ${executable} not found; ${SETUP_HINT} (datamodel-code-generator==${DMCG_VERSION}).`,
    );
  }
  if (version !== `datamodel-codegen ${DMCG_VERSION}`) {
    throw new Error(
      `py-models: found "${version}" at ${executable}, but codegen/package.json pins ${DMCG_VERSION}; ${SETUP_HINT}.`,
    );
  }
  return executable;
}

const execFileAsync = promisify(execFile);

async function run(command: string, args: readonly string[], cwd: string): Promise<string> {
  try {
    return (await execFileAsync(command, [...args], { cwd, encoding: 'utf8' })).stdout;
  } catch (error) {
    const detail = (error as { stderr?: string }).stderr?.trim();
    throw new Error(
      `${command} ${args.slice(0, 2).join(' ')} failed${detail ? `:\n${detail}` : ''}`,
      { cause: error },
    );
  }
}
