// The keywords the validators assert beyond ajv's own, as ajv code keywords (inlined into the
// standalone code): canonical base64, the IDL's x-not-object-lacks-required, and the repairs of
// the lenient-decoding keywords (schema/lenient.ts).
import type AjvModule from 'ajv';
import { _ } from 'ajv';
import { LENIENT_COMPACT, LENIENT_DEFAULT, LENIENT_DROP } from '../schema/lenient.js';
import { NOT_OBJECT_LACKS_REQUIRED } from '../schema/validation.js';

type Ajv = InstanceType<typeof AjvModule.default>;

/** Every keyword below, on one ajv instance. */
export function addProtocolKeywords(ajv: Ajv): void {
  assertContentEncoding(ajv);
  assertNotObjectLacksRequired(ajv);
  addLenientRepairs(ajv);
}

/**
 * ajv treats `contentEncoding` as an annotation; the protocol asserts it. The check is inlined in
 * the standalone code: canonical padded base64 decodes and re-encodes to the same text.
 */
export function assertContentEncoding(ajv: Ajv): void {
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
export function assertNotObjectLacksRequired(ajv: Ajv): void {
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

/**
 * The repairs of lenient decoding. They change the value being checked, where it sits in its
 * parent: a member is removed or replaced; an array item is marked `undefined` (a JSON text never
 * holds it), and the array's LENIENT_COMPACT, which runs after `items`, removes the marked items.
 */
export function addLenientRepairs(ajv: Ajv): void {
  ajv.addKeyword({
    keyword: LENIENT_DROP,
    schemaType: 'boolean',
    modifying: true,
    code(cxt) {
      const { parentData, parentDataProperty } = cxt.it;
      cxt.gen.if(_`${parentData} !== undefined`, () => {
        cxt.gen.if(
          _`Array.isArray(${parentData})`,
          () => cxt.gen.assign(_`${parentData}[${parentDataProperty}]`, _`undefined`),
          () => cxt.gen.code(_`delete ${parentData}[${parentDataProperty}]`),
        );
      });
    },
  });
  ajv.addKeyword({
    keyword: LENIENT_DEFAULT,
    modifying: true,
    code(cxt) {
      const { parentData, parentDataProperty } = cxt.it;
      // The default as a literal: a fresh value each time, never shared between messages.
      const literal = JSON.stringify(cxt.schema);
      cxt.gen.if(_`${parentData} !== undefined`, () =>
        cxt.gen.assign(_`${parentData}[${parentDataProperty}]`, _`JSON.parse(${literal})`),
      );
    },
  });
  ajv.addKeyword({
    keyword: LENIENT_COMPACT,
    type: 'array',
    schemaType: 'boolean',
    modifying: true,
    code(cxt) {
      const { data, gen } = cxt;
      const i = gen.let('i', _`${data}.length`);
      gen.code(_`while (${i}-- > 0) if (${data}[${i}] === undefined) ${data}.splice(${i}, 1)`);
    },
  });
}
