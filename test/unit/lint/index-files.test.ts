/**
 * build/lint/index-files.js: an index file only re-exports, in every folder and form (a probe index with code
 * fails lint), and every index file of the project passes it.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();
const RULE = 'index/reexports-only';

async function problems(filePath: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === RULE).length;
}

/** The project's source folders (not node_modules, not build output). */
const ROOTS = ['core', 'server', 'services', 'renderer/src', 'electron', 'host', 'build', 'test', 'bench'];

const PATHS = [
  'core/formula/index.ts',
  'services/mirror/index.ts',
  'server/a/b/index.ts',
  'renderer/src/x/index.tsx',
];

describe('index files', () => {
  it.each([
    ['a function', 'export function f(): number {\n  return 1;\n}\n'],
    ['a constant', 'export const LIMIT = 3;\n'],
    ['a class', 'export class Engine {}\n'],
    ['an interface', 'export interface Options {\n  a: number;\n}\n'],
    ['a type', 'export type Id = string;\n'],
    ['an import re-exported by name', "import { parse } from './parser';\nexport { parse };\n"],
    ['a default export', 'export default 1;\n'],
    ['a statement', "console.log('loaded');\n"],
  ])('refuse %s', async (_what, code) => {
    for (const path of PATHS) expect(await problems(path, code), path).toBeGreaterThan(0);
  });

  it('allow re-exports of every form, and comments', async () => {
    const code = [
      '/** The folder. */',
      "export { a, b as c } from './a';",
      "export type { T } from './t';",
      "export * from './all';",
      "export * as ns from './ns';",
      '',
    ].join('\n');
    for (const path of PATHS) expect(await problems(path, code), path).toBe(0);
  });

  it('leave other files alone', async () => {
    expect(await problems('core/formula/engine.ts', 'export const LIMIT = 3;\n')).toBe(0);
  });

  it('hold for every index file of the project', async () => {
    const files = (
      await Promise.all(
        ROOTS.map(async (root) => (await readdir(root, { recursive: true })).map((f) => join(root, f))),
      )
    )
      .flat()
      .filter((f) => /(^|\/)index\.[cm]?[jt]sx?$/.test(f) && !f.includes('node_modules'));
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) expect(await problems(file, await readFile(file, 'utf8')), file).toBe(0);
  });
});
