// protocol.targets.json: what is particular to one protocol besides its IDL (output folders, binding
// names, runtime import specifiers), read into a typed object. Checked against
// codegen/targets.schema.json, then for what a schema cannot say; every problem is located by
// JSON pointer and line:column, with a fix.
import { readFileSync } from 'node:fs';
import AjvModule from 'ajv';
import type { Finding } from '../idl/check.js';
import { metaSchemaFindings } from '../idl/meta-findings.js';
import { IdlError, parseIdlSource } from '../idl/source.js';

const Ajv = AjvModule.default;
const metaSchemaUrl = new URL('../../targets.schema.json', import.meta.url);

/** The two ends of the protocol, as names and docs call them (`client`, `server` or `agent`). */
export interface Sides {
  readonly client: string;
  readonly server: string;
}

export interface TsTarget {
  readonly genDir: string;
  /** Module specifiers of the JSON-RPC runtime, as imported from a file in genDir. */
  readonly runtime: {
    readonly peerSupport: string;
    readonly pendingRequests: string;
    readonly inboundHandlers: string;
  };
}

export interface PyTarget {
  readonly genDir: string;
  /** `dsh_sdk._gen`. */
  readonly genPackage: string;
  /** `dsh_sdk`: its imports form their own isort section. */
  readonly firstParty: string;
  /** The hand-written modules the generated code imports, by role. */
  readonly runtime: {
    readonly peerSupport: string;
    readonly codec: string;
    readonly wireObject: string;
    readonly tableCodec: string;
    readonly json: string;
    readonly validation: string;
    readonly wireTables: string;
    readonly inboundHandlers: string;
  };
  /** The Python emitters that run (`py-validators`); absent, all of them. */
  readonly emitters?: readonly string[];
  /** Whether each validator first runs a fast boolean check (codegen/src/emit/py-fast-path.ts). */
  readonly fastValidators?: boolean;
}

export interface DocsTarget {
  readonly reference: string;
  readonly participants: Sides;
}

/** Everything an emitter may know about a protocol besides its model. */
export interface ProtocolTargets {
  readonly name: string;
  /** The IDL, relative to the repository root: generated files name it in their header. */
  readonly idlPath: string;
  readonly schemaId: string;
  readonly bindings: { readonly prefix: string; readonly sides: Sides };
  readonly typescript: TsTarget | null;
  readonly python: PyTarget | null;
  readonly docs: DocsTarget | null;
  readonly releases: { readonly dir: string; readonly allowList: string };
  readonly vectors: string | null;
}

type RawTargets = Omit<ProtocolTargets, 'idlPath' | 'typescript' | 'python' | 'docs' | 'vectors'> &
  Partial<Pick<ProtocolTargets, 'typescript' | 'python' | 'docs' | 'vectors'>>;

let validateTargets: ReturnType<InstanceType<typeof Ajv>['compile']> | undefined;

const HINTS = {
  schemaFile: 'codegen/targets.schema.json',
  unknownMember: 'remove it or fix its spelling (codegen/targets.schema.json lists every member)',
  falseSchema: 'remove it',
  notSchema: 'remove it',
};

/**
 * Reads a targets file. `idlPath` is its IDL relative to the root; `folderName` is the protocol's
 * folder under protocols/ (null for the root protocol), which its `name` must equal.
 */
export function loadTargets(
  path: string,
  displayPath: string,
  idlPath: string,
  folderName: string | null,
): ProtocolTargets {
  const source = parseIdlSource(displayPath, readFileSync(path, 'utf8'));
  validateTargets ??= new Ajv({ allErrors: true, strict: false }).compile(
    JSON.parse(readFileSync(metaSchemaUrl, 'utf8')) as object,
  );
  const findings: Finding[] = validateTargets(source.value)
    ? checkTargets(source.value as RawTargets, folderName)
    : metaSchemaFindings(validateTargets.errors ?? [], HINTS);
  if (findings.length > 0)
    throw new IdlError(
      displayPath,
      findings.map((f) => ({ ...f, ...source.locate(f.pointer) })),
    );
  const raw = source.value as RawTargets;
  return {
    name: raw.name,
    idlPath,
    schemaId: raw.schemaId,
    bindings: raw.bindings,
    typescript: raw.typescript ?? null,
    python: raw.python ?? null,
    docs: raw.docs ?? null,
    releases: raw.releases,
    vectors: raw.vectors ?? null,
  };
}

function checkTargets(raw: RawTargets, folderName: string | null): Finding[] {
  const findings: Finding[] = [];
  if (folderName !== null && raw.name !== folderName)
    findings.push({
      pointer: '/name',
      message: `name "${raw.name}" is not the protocol's folder name "${folderName}"`,
      hint: `write "name": "${folderName}", or rename the folder protocols/${folderName}`,
    });
  if (raw.bindings.sides.client === raw.bindings.sides.server)
    findings.push({
      pointer: '/bindings/sides/server',
      message: 'both sides have the same name',
      hint: 'give the two ends different names, e.g. "client" and "server"',
    });
  if (raw.python && !raw.python.genDir.endsWith(raw.python.genPackage.replace(/\./g, '/')))
    findings.push({
      pointer: '/python/genPackage',
      message: `"${raw.python.genPackage}" is not the package of genDir "${raw.python.genDir}"`,
      hint: 'make genPackage the dotted form of the end of genDir (python/src/dsh_sdk/_gen → dsh_sdk._gen)',
    });
  return findings;
}

/** The folders and files a protocol's generated output may occupy (checked disjoint across protocols). */
export function generatedLocations(targets: ProtocolTargets): {
  folders: string[];
  files: string[];
} {
  const folders = [targets.typescript?.genDir, targets.python?.genDir].filter(
    (dir): dir is string => dir !== undefined,
  );
  return { folders, files: targets.docs ? [targets.docs.reference] : [] };
}
