import { fixtureValidators, renderFixture } from '../test/helpers/fixture-protocol.js';
const v = await fixtureValidators(await renderFixture('untagged-union'));
const f = v['validateResource']!;
console.log(f({ uri: 'a', blob: 1 }), JSON.stringify(f.errors, null, 1));
const outs = await renderFixture('annotations');
console.log(outs.get('types.gen.ts'));
