/**
 * The lint rule that keeps plain Errors to invariants in every layer that runs in Node or hands errors to the
 * services' mapping (core/, server/, services/, host/, electron/), through ESLint with the project's config.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

const PLAIN = "export function f(): void {\n  throw new Error('No mirror');\n}\n";
const FOLDERS = ['core', 'server', 'services', 'host', 'electron'];

describe('plain Errors', () => {
  it('are refused at any depth of each folder the rule covers', async () => {
    for (const folder of FOLDERS)
      for (const path of [`${folder}/probe.ts`, `${folder}/deep/er/probe.ts`])
        expect(await problems(path, PLAIN), path).toEqual([
          expect.stringContaining('invariant(condition, why)'),
        ]);
  });

  it('pass as a typed error or an invariant checked through core/invariant.ts', async () => {
    const code =
      "import { ServiceError } from './errors';\n" +
      "import { invariant } from '../core/invariant';\n" +
      'export function f(a: boolean, b: string | undefined): string {\n' +
      "  if (a) throw new ServiceError('not-found', 'No mirror');\n" +
      "  invariant(b, 'b is set by the caller');\n" +
      '  return b;\n' +
      '}\n';
    for (const folder of ['services', 'host', 'electron'])
      expect(await problems(`${folder}/probe.ts`, code)).toEqual([]);
  });

  it('are the renderer’s own (its error boundary and status bar report them)', async () => {
    expect(await problems('renderer/src/probe.ts', PLAIN)).toEqual([]);
  });
});
