/** The lint rule that keeps plain Errors in services/ to invariants, through ESLint with the project's config. */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
}

describe('plain Errors in services/', () => {
  it('refuses a thrown plain Error at any depth of services/', async () => {
    for (const path of ['services/probe.ts', 'services/mirror/deep/probe.ts']) {
      expect(
        await problems(path, "export function f(): void {\n  throw new Error('No mirror');\n}\n"),
      ).toEqual([expect.stringContaining('ServiceError')]);
    }
  });

  it('passes a ServiceError, and a plain Error marked as an invariant', async () => {
    const code =
      "import { ServiceError } from './errors';\n" +
      'export function f(a: boolean): void {\n' +
      "  if (a) throw new ServiceError('not-found', 'No mirror');\n" +
      '  // eslint-disable-next-line no-restricted-syntax -- invariant: a is checked by the caller\n' +
      "  throw new Error('unreachable');\n" +
      '}\n';
    expect(await problems('services/probe.ts', code)).toEqual([]);
  });

  it('leaves other layers alone', async () => {
    expect(
      await problems('core/probe.ts', "export function f(): void {\n  throw new Error('x');\n}\n"),
    ).toEqual([]);
  });
});
