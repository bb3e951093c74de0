import { compile } from 'json-schema-to-typescript';
const defs = { TextContent: { title: 'TextContent', type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } };
const opts = { bannerComment: '', additionalProperties: false, declareExternallyReferenced: false, format: true, unknownAny: true } as const;
console.log(await compile({ title: 'A', type: 'object', properties: { type: { type: 'string', const: 'text', description: 'tag' } }, required: ['type'], allOf: [{ $ref: '#/definitions/TextContent' }], definitions: defs } as never, 'A', opts));
console.log(await compile({ title: 'B', allOf: [{ $ref: '#/definitions/TextContent' }, { type: 'object', properties: { type: { type: 'string', const: 'text', description: 'tag' } }, required: ['type'] }], definitions: defs } as never, 'B', opts));
console.log(await compile({ title: 'C', type: 'object', allOf: [{ $ref: '#/definitions/TextContent' }], definitions: defs } as never, 'C', opts));
