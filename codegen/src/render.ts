// Run every emitter in memory and format the results; the same text is written or compared.
import { format, resolveConfig, version as PRETTIER_VERSION } from 'prettier';
import { join } from 'node:path';
import { cachedText } from './inner-loop/output-cache.js';
import type { Model } from './idl/model.js';
import type { OutputFile } from './printer/generated-file.js';
import { listReleasedVersions } from './release/released-files.js';
import { buildSchemaBundle } from './schema/bundle.js';
import { EMITTERS } from './emit/registry.js';

const PRETTIER_PARSER: Partial<Record<OutputFile['language'], string>> = {
  ts: 'typescript',
  js: 'babel',
  md: 'markdown',
  json: 'json',
};

export async function renderAll(model: Model, root: string): Promise<OutputFile[]> {
  const bundle = buildSchemaBundle(model);
  const releases = listReleasedVersions(root);
  const outputs: OutputFile[] = [];
  for (const emitter of EMITTERS)
    outputs.push(...(await emitter.emit({ model, bundle, releases })));
  const config = (await resolveConfig(join(root, 'package.json'))) ?? {};
  return Promise.all(outputs.map((o) => formatOutput(o, config)));
}

async function formatOutput(output: OutputFile, config: object): Promise<OutputFile> {
  const parser = PRETTIER_PARSER[output.language];
  if (!parser) return output;
  const options = { ...config, parser };
  const content = await cachedText('prettier', [PRETTIER_VERSION, options, output.content], () =>
    format(output.content, options),
  );
  return { ...output, content };
}
