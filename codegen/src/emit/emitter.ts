// The contract every emitter follows: model and targets in, files out. Emitters never touch the disk.
import type { Model } from '../idl/model.js';
import type { Language, OutputFile } from '../printer/generated-file.js';
import { GeneratedFile } from '../printer/generated-file.js';
import type { ProtocolTargets, PyTarget, TsTarget } from '../protocols/targets.js';
import type { ReleasedVersion } from '../release/released-files.js';
import type { SchemaBundle } from '../schema/bundle.js';

export interface EmitContext {
  readonly model: Model;
  /** The JSON Schema bundle, built once from the model. */
  readonly bundle: SchemaBundle;
  /** Where this protocol's files go and how its bindings are named (protocol.targets.json). */
  readonly target: ProtocolTargets;
  /** The released protocol versions frozen under the releases folder, oldest first (none when absent). */
  readonly releases?: readonly ReleasedVersion[];
  /**
   * Formats a text as the repository formats that language (on the format pool's workers). An
   * emitter that formats its output so marks it `isFormatted`; absent, it formats by itself.
   */
  readonly format?: (text: string, language: Language) => Promise<string>;
}

/** The target an emitter writes for: it runs only when the protocol's targets file has it. */
export type EmitterTarget = 'typescript' | 'python' | 'docs' | 'schema';

export interface Emitter {
  /** The module name under codegen/src/emit, used in file headers. */
  readonly name: string;
  readonly target: EmitterTarget;
  emit(context: EmitContext): OutputFile[] | Promise<OutputFile[]>;
}

/** Whether the protocol has the target an emitter writes for. */
export function hasTarget(target: ProtocolTargets, kind: EmitterTarget): boolean {
  if (kind === 'schema') return target.typescript !== null || target.python !== null;
  return target[kind] !== null;
}

/** Whether `emitter` runs for `target`: it has the emitter's target, and does not leave it out. */
export function runsFor(target: ProtocolTargets, emitter: Emitter): boolean {
  if (!hasTarget(target, emitter.target)) return false;
  const chosen = emitter.target === 'python' ? target.python?.emitters : undefined;
  return chosen === undefined || chosen.includes(emitter.name);
}

/** The TypeScript target; an emitter of it only runs when it exists. */
export function tsTarget(target: ProtocolTargets): TsTarget {
  if (!target.typescript) throw new Error(`protocol ${target.name} has no TypeScript target`);
  return target.typescript;
}

/** The Python target; an emitter of it only runs when it exists. */
export function pyTarget(target: ProtocolTargets): PyTarget {
  if (!target.python) throw new Error(`protocol ${target.name} has no Python target`);
  return target.python;
}

/** A file in the TypeScript gen folder, e.g. `methods.gen.ts`. */
export function tsFile(target: ProtocolTargets, name: string, emitter: string): GeneratedFile {
  const language: Language = name.endsWith('.js') ? 'js' : 'ts';
  return new GeneratedFile(`${tsTarget(target).genDir}/${name}`, emitter, language, target);
}

/** A module in the Python gen folder, e.g. `methods.py`. */
export function pyFile(target: ProtocolTargets, name: string, emitter: string): GeneratedFile {
  return new GeneratedFile(`${pyTarget(target).genDir}/${name}`, emitter, 'py', target);
}

/** `<genPackage>.<module>`: a generated Python module, as imported. */
export function pyGenModule(f: GeneratedFile, module: string): string {
  return `${f.python.genPackage}.${module}`;
}

export type { OutputFile };
