// Validation bundle → ajv standalone ESM validators (no schema is compiled at run time) + typed .d.ts.
import AjvModule from 'ajv';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import { REF_PREFIX } from '../idl/model.js';
import type { Model } from '../idl/model.js';
import type { GeneratedFile } from '../printer/generated-file.js';
import { buildValidationBundle } from '../schema/validation.js';
import { addProtocolKeywords } from './ajv-keywords.js';
import type { Emitter } from './emitter.js';
import { tsFile } from './emitter.js';
import { OPEN_VALUE } from '../schema/number-rule.js';
import {
  noParamsSchema,
  paramsValidator,
  resultValidator,
  validatorSpecs,
} from './validator-names.js';

const Ajv = AjvModule.default;
const standaloneCode = standaloneCodeModule.default;

export const tsValidatorsEmitter: Emitter = {
  name: 'ts-validators',
  target: 'typescript',
  emit({ model, bundle, target }) {
    const validation = buildValidationBundle(bundle, model);
    const bundleId = validation.$id;
    const specs = validatorSpecs(model);
    // unicode: false measures strings with .length (no runtime import); only minLength 1 is used, where
    // UTF-16 units and code points agree. inlineRefs: false gives one shared function per definition.
    const ajv = new Ajv({
      allErrors: true,
      strict: false,
      unicode: false,
      inlineRefs: false,
      logger: false,
      // `format` is an annotation (idl.schema.json): `int64`, `uri` and the like are not asserted.
      validateFormats: false,
      code: { source: true, esm: true, lines: true },
    });
    addProtocolKeywords(ajv);
    ajv.addSchema(validation);
    ajv.addSchema({
      $id: `${bundleId}/no-params`,
      ...noParamsSchema(`${bundleId}${REF_PREFIX}${OPEN_VALUE}`),
    });
    const refs: Record<string, string> = {};
    for (const spec of specs) {
      refs[spec.name] = spec.typeName
        ? `${bundleId}${REF_PREFIX}${spec.typeName}`
        : `${bundleId}/no-params`;
    }
    refs['validateProtocolFrame'] = bundleId;
    const js = tsFile(target, 'validators.gen.js', 'ts-validators');
    js.raw('/* eslint-disable */');
    js.raw(standaloneCode(ajv, refs));
    emitMethodValidatorsTable(js, model);

    const dts = tsFile(target, 'validators.gen.d.ts', 'ts-validators');
    dts.raw(
      dts.jsdoc('One schema violation as ajv reports it; see `toViolations` for the wire form.'),
    );
    dts.print`export interface ValidationError {`;
    dts.print`  instancePath: string;`;
    dts.print`  schemaPath: string;`;
    dts.print`  keyword: string;`;
    dts.print`  params: Record<string, unknown>;`;
    dts.print`  message?: string;`;
    dts.print`}`;
    dts.raw(
      dts.jsdoc(
        'A precompiled validator: a type guard whose `errors` lists every violation of the last call.',
      ),
    );
    dts.print`export interface Validator<T> {`;
    dts.print`  (value: unknown): value is T;`;
    dts.print`  errors?: ValidationError[] | null;`;
    dts.print`}`;
    dts.blank();
    for (const spec of specs) {
      const what = spec.typeName
        ? `a \`${spec.typeName}\``
        : 'params of a method without params (an object or null)';
      dts.raw(dts.jsdoc(`Checks ${what}.`));
      const type = spec.typeName ? dts.importType(spec.tsType, './types.gen.js') : spec.tsType;
      dts.print`export declare const ${spec.name}: Validator<${type}>;`;
    }
    dts.raw(dts.jsdoc('Checks any frame of the protocol.'));
    dts.print`export declare const validateProtocolFrame: Validator<${dts.importType('ProtocolFrame', './types.gen.js')}>;`;
    emitMethodValidatorsDeclaration(dts);
    return [js.finish(), dts.finish()];
  },
};

/** Which validator checks what each method carries, for tools that check any frame (a recorder). */
function emitMethodValidatorsTable(f: GeneratedFile, model: Model): void {
  f.blank();
  f.raw(f.jsdoc("The validators of each method's params and result, by wire name."));
  f.print`export const METHOD_VALIDATORS = {`;
  for (const method of model.methods) {
    const result = resultValidator(method)?.name ?? 'null';
    f.print`  ${f.string(method.wireName)}: { params: ${paramsValidator(method).name}, result: ${result} },`;
  }
  f.print`};`;
}

function emitMethodValidatorsDeclaration(f: GeneratedFile): void {
  f.raw(
    f.jsdoc('The validators of one method: its params, and its result (null for a notification).'),
  );
  f.print`export interface MethodValidators {`;
  f.print`  readonly params: Validator<unknown>;`;
  f.print`  readonly result: Validator<unknown> | null;`;
  f.print`}`;
  f.raw(f.jsdoc("The validators of each method's params and result, by wire name."));
  f.print`export declare const METHOD_VALIDATORS: Readonly<Record<${f.importType('MethodName', './methods.gen.js')}, MethodValidators>>;`;
}
