// The packages' declaration files compiled on their own, where no @types package is installed:
// what each file needs from outside the packages shows as its errors.
import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createFolder, run, tarballEntries } from './scratch-project.js';

const execFileAsync = promisify(execFile);

/**
 * The error codes `tsc` reports in each `.d.ts` of `tarballs`, by the file's path under
 * `node_modules` (`@dsh-sdk/client/dist/errors.d.ts`): the tarballs unpacked into a folder of
 * the system's temporary folder (no @types/node anywhere above it), every declaration file in
 * one program with `types: []`.
 */
export async function declarationErrors(
  tsc: string,
  tarballs: readonly string[],
): Promise<Map<string, string[]>> {
  const folder = await createFolder('declarations');
  try {
    const files: string[] = [];
    for (const tarball of tarballs) {
      const manifest = JSON.parse(
        (await run('tar', ['-xzOf', tarball, 'package/package.json'], folder)).stdout,
      ) as { name: string };
      const target = join(folder, 'node_modules', manifest.name);
      await mkdir(target, { recursive: true });
      await run('tar', ['-xzf', tarball, '-C', target, '--strip-components=1'], folder);
      for (const entry of await tarballEntries(tarball))
        if (entry.endsWith('.d.ts')) files.push(join('node_modules', manifest.name, entry));
    }
    const compilerOptions = { module: 'nodenext', strict: true, noEmit: true, types: [] };
    await writeFile(join(folder, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }));
    return errorsByFile(await compileOutput(tsc, folder));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** What `tsc -p folder` printed; it fails when there are errors, which are the point here. */
async function compileOutput(tsc: string, folder: string): Promise<string> {
  try {
    return (await execFileAsync(tsc, ['-p', folder], { cwd: folder })).stdout;
  } catch (error) {
    const { stdout } = error as { stdout?: string };
    if (stdout === undefined || stdout === '') throw error;
    return stdout;
  }
}

/** `node_modules/@a/b/x.d.ts(1,2): error TS2688: …` lines, as codes by file. */
function errorsByFile(output: string): Map<string, string[]> {
  const errors = new Map<string, string[]>();
  for (const [, file = '', code = ''] of output.matchAll(
    /^node_modules\/(\S+?)\(\d+,\d+\): error (TS\d+):/gm,
  ))
    errors.set(file, [...(errors.get(file) ?? []), code]);
  return errors;
}
