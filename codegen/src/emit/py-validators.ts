// Validation bundle → python/src/dsh_sdk/_gen/validators.py: one check function per definition, compiled
// ahead of time (no schema is read at run time), reporting the same pointers as the ajv validators.
// The helpers the checks call are hand-written, in python/src/dsh_sdk/validation_runtime.py.
import type { Model } from '../idl/model.js';
import { REF_PREFIX } from '../idl/model.js';
import { OPEN_VALUE } from '../schema/number-rule.js';
import { snakeCase } from '../idl/names.js';
import type { SchemaBundle } from '../schema/bundle.js';
import { buildValidationBundle } from '../schema/validation.js';
import type { Emitter } from './emitter.js';
import { pyFile, pyGenModule } from './emitter.js';
import type { GeneratedFile } from '../printer/generated-file.js';
import type { ProtocolTargets } from '../protocols/targets.js';
import { layoutPy, pyDocstring, pyStr, PY_LINE_LENGTH } from './py-literals.js';
import { PyValidatorCompiler } from './py-validator-compiler.js';
import type { ModuleParts } from './py-validator-module.js';
import { runtimeModule } from './py-validator-module.js';
import type { ValidatorSpec } from './validator-names.js';
import {
  noParamsSchema,
  paramsValidator,
  resultValidator,
  validatorSpecs,
} from './validator-names.js';

export const pyValidatorsEmitter: Emitter = {
  name: 'py-validators',
  target: 'python',
  emit({ model, bundle, target }) {
    return [emitValidators(model, bundle, target)];
  },
};

/** `validateInitializeParams` → `validate_initialize_params`. */
export function pyValidatorName(spec: ValidatorSpec): string {
  return snakeCase(spec.name);
}

export function emitValidators(
  model: Model,
  bundle: SchemaBundle,
  target: ProtocolTargets,
  name = 'validators.py',
) {
  const validation = buildValidationBundle(bundle, model);
  const compiler = new PyValidatorCompiler(validation.definitions);
  const checks = Object.entries(validation.definitions).map(([name, schema]) =>
    compiler.checkFunction(PyValidatorCompiler.checkName(name), schema, `#/definitions/${name}`),
  );
  const noParams = compiler.checkFunction(
    '_check_no_params',
    noParamsSchema(REF_PREFIX + OPEN_VALUE),
    '#/no-params',
  );
  const frame = compiler.checkFunction('_check_protocol_frame', { anyOf: validation.anyOf }, '#');
  const fast = target.python?.fastValidators === true ? fastFunctions(compiler, model) : [];
  // The public validators call `run`; the method tables hold `Validator`s.
  compiler.parts.use('run');
  compiler.parts.use('Validator');

  const f = pyFile(target, name, 'py-validators');
  f.preamble(
    pyDocstring(
      `Validators of the ${model.meta.title}, compiled from the schema bundle ahead of time.`,
    ),
  );
  importValidatorParts(
    f,
    compiler.parts,
    model.types.some((t) => t.name === 'Violation'),
  );
  for (const constant of compiler.parts.constants) f.raw(constant);
  f.blank(2);
  emitPublicValidators(f, model, fast.length > 0);
  const parts = compiler.parts;
  for (const source of [...checks, noParams, frame, ...fast, ...parts.helpers, ...parts.tables]) {
    f.blank(2);
    f.raw(source);
  }
  f.blank(2);
  emitMethodTables(f, model);
  const file = f.finish();
  assertLineLengths(file.content, file.path);
  return file;
}

/**
 * Records the imports of a module of compiled checks: what `parts` records as used (modules and
 * run-time helpers, named inside the compiled source), and the typing names the checks print.
 */
export function importValidatorParts(
  f: GeneratedFile,
  parts: ModuleParts,
  hasOwnViolation = true,
): void {
  f.import('annotations', '__future__');
  for (const module of parts.modules) f.importModule(module);
  f.import('Mapping', 'collections.abc');
  for (const name of ['Any', 'Final']) f.import(name, 'typing');
  // The protocol's own Violation model where it has one, else the one the runtime reports with.
  f.import('Violation', hasOwnViolation ? pyGenModule(f, 'models') : f.python.runtime.validation);
  for (const name of parts.runtime) f.import(name, runtimeModule(name, f.python));
}

/**
 * The fast check of every public validator's definition (and of the params of a method without
 * params), then of every definition they call, in the order first called.
 */
function fastFunctions(compiler: PyValidatorCompiler, model: Model): string[] {
  const fast = [
    compiler.fastFunction(
      '_valid_no_params',
      noParamsSchema(REF_PREFIX + OPEN_VALUE),
      '#/no-params',
    ),
  ];
  for (const spec of validatorSpecs(model))
    if (spec.typeName) compiler.fastCalled.add(spec.typeName);
  const definitions = compiler.definitionSchemas;
  // A Set iterates over what is added while it iterates: the definitions the fast checks call.
  for (const name of compiler.fastCalled) {
    const at = `#/definitions/${name}`;
    fast.push(compiler.fastFunction(PyValidatorCompiler.fastName(name), definitions[name], at));
  }
  return fast;
}

function emitPublicValidators(f: GeneratedFile, model: Model, fastPath: boolean): void {
  const specs = validatorSpecs(model);
  for (const spec of specs) {
    const what = spec.typeName
      ? `a value of \`${spec.typeName}\``
      : 'the params of a method without params (an object or null)';
    const check = spec.typeName ? PyValidatorCompiler.checkName(spec.typeName) : '_check_no_params';
    f.print`def ${pyValidatorName(spec)}(value: object) -> list[Violation]:`;
    f.raw(pyDocstring(`Checks ${what}; returns every violation, none when it is valid.`, '    '));
    if (fastPath) {
      // The common valid value costs one boolean check; the full one finds what is wrong or repairs.
      const fast = spec.typeName ? PyValidatorCompiler.fastName(spec.typeName) : '_valid_no_params';
      f.print`    if ${fast}(value):`;
      f.print`        return []`;
    }
    f.print`    return run(${check}, value)`;
    f.blank(2);
  }
  f.print`def validate_protocol_frame(value: object) -> list[Violation]:`;
  f.raw(
    pyDocstring(
      'Checks any frame of the protocol; returns every violation, none when it is valid.',
      '    ',
    ),
  );
  f.print`    return run(_check_protocol_frame, value)`;
}

function emitMethodTables(f: GeneratedFile, model: Model): void {
  // A request family and a notification family may share a prefix (`_`): one entry, the first's.
  const methods = model.methods.filter(
    (m, i) => model.methods.findIndex((n) => n.wireName === m.wireName) === i,
  );
  f.print`PARAMS_VALIDATORS: Final[Mapping[str, Validator]] = {`;
  for (const method of methods) {
    f.raw(
      layoutPy(pyValidatorName(paramsValidator(method)), 4, `${pyStr(method.wireName)}: `, ','),
    );
  }
  f.print`}`;
  f.raw(pyDocstring('The params validator of every method, by wire method name.'));
  f.blank();
  f.print`RESULT_VALIDATORS: Final[Mapping[str, Validator]] = {`;
  for (const method of methods) {
    const spec = resultValidator(method);
    if (spec) f.raw(layoutPy(pyValidatorName(spec), 4, `${pyStr(method.wireName)}: `, ','));
  }
  f.print`}`;
  f.raw(pyDocstring('The result validator of every request, by wire method name.'));
}

/** The output must already be as `ruff format` prints it; a line it would wrap is a generator bug. */
function assertLineLengths(content: string, path: string): void {
  const long = content
    .split('\n')
    .filter((line) => line.length > PY_LINE_LENGTH && !/^\s*("""|# )/.test(line));
  if (long.length > 0)
    throw new Error(`py-validators: ${path} has lines ruff format would wrap:\n${long.join('\n')}`);
}
