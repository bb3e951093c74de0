// Validation bundle → ajv standalone ESM validators (no schema is compiled at run time) + typed .d.ts.
import AjvModule, { _ } from 'ajv';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import { REF_PREFIX } from '../idl/model.js';
import type { Model } from '../idl/model.js';
import type { GeneratedFile } from '../printer/generated-file.js';
import { buildValidationBundle, NOT_OBJECT_LACKS_REQUIRED } from '../schema/validation.js';
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

/**
 * ajv treats `contentEncoding` as an annotation; the protocol asserts it. The check is inlined in
 * the standalone code: canonical padded base64 decodes and re-encodes to the same text.
 */
export function assertContentEncoding(ajv: InstanceType<typeof Ajv>): void {
  ajv.removeKeyword('contentEncoding');
  ajv.addKeyword({
    keyword: 'contentEncoding',
    type: 'string',
    schemaType: 'string',
    error: { message: 'must be canonical padded base64' },
    code(cxt) {
      if (cxt.schema !== 'base64')
        throw new Error(`unsupported contentEncoding ${String(cxt.schema)}`);
      cxt.fail(_`Buffer.from(${cxt.data}, 'base64').toString('base64') !== ${cxt.data}`);
    },
  });
}

/**
 * `x-not-object-lacks-required` (idl.schema.json): a value that is not a plain object is also
 * reported missing each `required` member, as `required` errors, so violations name the pointer
 * each member would have (the IDL's `x-not-object-lacks-required` on `SessionInterruptParams`: absent or array params name `/sessionId`).
 */
export function assertNotObjectLacksRequired(ajv: InstanceType<typeof Ajv>): void {
  ajv.addKeyword({
    keyword: NOT_OBJECT_LACKS_REQUIRED,
    schemaType: 'boolean',
    error: {
      message: (cxt) =>
        _`${"must have required property '"} + ${cxt.params['missingProperty'] ?? ''} + ${"'"}`,
      params: (cxt) => _`{missingProperty: ${cxt.params['missingProperty'] ?? ''}}`,
    },
    code(cxt) {
      const required = (cxt.parentSchema as { required?: string[] }).required ?? [];
      if (cxt.schema !== true || required.length === 0) return;
      const { gen, data } = cxt;
      gen.if(_`!(${data} && typeof ${data} == "object" && !Array.isArray(${data}))`, () => {
        for (const name of required) {
          cxt.setParams({ missingProperty: name });
          cxt.error(true);
        }
      });
    },
  });
}

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
      code: { source: true, esm: true, lines: true },
    });
    assertContentEncoding(ajv);
    assertNotObjectLacksRequired(ajv);
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
