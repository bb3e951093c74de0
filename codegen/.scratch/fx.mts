import { fixtureContext } from '../test/helpers/fixture-protocol.js';
import { tsTypesEmitter } from '../src/emit/ts-types.js';
const name = process.argv[2]!;
const ctx = fixtureContext(name);
const [file] = await tsTypesEmitter.emit(ctx);
console.log(file!.content);
