import { renderFixture } from '../test/helpers/fixture-protocol.js';
const [name, file] = process.argv.slice(2);
const out = await renderFixture(name!);
console.log(out.get(file!));
