// Run a protocol's emitters in memory and format the results; the same text is written or compared.
import { format, resolveConfig } from 'prettier';
import { join } from 'node:path';
import type { OutputFile } from './printer/generated-file.js';
import type { LoadedProtocol } from './protocols/load-protocol.js';
import { listReleasedVersions } from './release/released-files.js';
import { buildSchemaBundle } from './schema/bundle.js';
import { hasTarget } from './emit/emitter.js';
import { EMITTERS } from './emit/registry.js';

const PRETTIER_PARSER: Partial<Record<OutputFile['language'], string>> = {
  ts: 'typescript',
  js: 'babel',
  md: 'markdown',
  json: 'json',
};

/** Every output of one protocol: the emitters of the targets it has, in registry order. */
export async function renderProtocol(
  { model, targets }: LoadedProtocol,
  root: string,
): Promise<OutputFile[]> {
  const bundle = buildSchemaBundle(model, targets.schemaId);
  const releases = listReleasedVersions(root, targets.releases.dir);
  const context = { model, bundle, releases, target: targets };
  const emitters = EMITTERS.filter((emitter) => hasTarget(targets, emitter.target));
  // Started together: an emitter that waits on a child process (py-models) lets the others run.
  const outputs = (await Promise.all(emitters.map((emitter) => emitter.emit(context)))).flat();
  const config = (await resolveConfig(join(root, 'package.json'))) ?? {};
  return Promise.all(outputs.map((o) => formatOutput(o, config)));
}

async function formatOutput(output: OutputFile, config: object): Promise<OutputFile> {
  const parser = PRETTIER_PARSER[output.language];
  if (!parser) return output;
  return { ...output, content: await format(output.content, { ...config, parser }) };
}
