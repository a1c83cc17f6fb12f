/**
 * build/lint/plain-errors.js: plain errors are kept to invariants (core/invariant.ts) in every layer that runs
 * in Node or hands errors to the services' mapping (core/, server/, services/, host/, electron/), in whatever
 * form a plain error is made; linted through ESLint with the project's config.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'errors/plain').map((m) => m.message);
}

const FOLDERS = ['core', 'server', 'services', 'host', 'electron'];
const MADE = 'invariant(condition, why)';
const NOT_AN_ERROR = 'not a value that is not an error';

describe('plain errors', () => {
  it('are refused at any depth of each folder the rule covers', async () => {
    const code = "export function f() {\n  throw new Error('No mirror');\n}\n";
    for (const folder of FOLDERS)
      for (const path of [`${folder}/probe.ts`, `${folder}/a/b/c/d/probe.ts`, `${folder}/deep/probe.mjs`])
        expect(await problems(path, code), path).toEqual([expect.stringContaining(MADE)]);
  });

  it.each([
    [
      'thrown from a condition',
      "export const f = (busy: boolean, e: Error) => {\n  throw busy ? new Error('Syncing') : e;\n};",
    ],
    ['kept in a variable', "export function f(): never {\n  const e = new Error('Syncing');\n  throw e;\n}"],
    ['handed to reject', "export const p = new Promise((_, reject) => reject(new Error('Syncing')));"],
    ['handed to Promise.reject', "export const p = () => Promise.reject(new Error('Syncing'));"],
    ['an abort’s reason', "export const stop = (c: AbortController) => c.abort(new Error('stopped'));"],
    ['made without new', "export function f(): never {\n  throw Error('Syncing');\n}"],
    ['a built-in kind of error', "export function f(): never {\n  throw new TypeError('Syncing');\n}"],
    ['a range error', "export const e = () => new RangeError('too far');"],
    ['through globalThis', "export function f(): never {\n  throw new globalThis.Error('Syncing');\n}"],
    ['aliased', "const Plain = Error;\nexport function f(): never {\n  throw new Plain('Syncing');\n}"],
    ['constructed by reflection', "export const e = () => Reflect.construct(Error, ['Syncing']);"],
    ['in an object', "export const fail = () => Object.assign(new Error('full'), { code: 'ENOSPC' });"],
    ['in a callback', "export const f = (cb: (e: Error) => void) => cb(new Error('Syncing'));"],
  ])('are refused %s', async (_, code) => {
    for (const folder of FOLDERS)
      expect(await problems(`${folder}/a/b/c/d/probe.ts`, code), folder).toEqual(
        expect.arrayContaining([expect.stringContaining(MADE)]),
      );
  });

  it.each([
    ['a thrown string', "export function f(): never {\n  throw 'Syncing';\n}"],
    ['a thrown template', 'export function f(id: string): never {\n  throw `Syncing ${id}`;\n}'],
    ['a thrown object', "export function f(): never {\n  throw { kind: 'invalid-request' };\n}"],
    ['a rejected string', "export const p = () => Promise.reject('Syncing');"],
  ])('refuse %s, which is not an error at all', async (_, code) => {
    for (const folder of FOLDERS)
      expect(await problems(`${folder}/probe.ts`, code), folder).toEqual([
        expect.stringContaining(NOT_AN_ERROR),
      ]);
  });

  it('pass as a typed error, an invariant, or a plain error named only to test or extend it', async () => {
    const code =
      "import { ServiceError } from './errors';\n" +
      "import { invariant } from '../core/invariant';\n" +
      'export class Misuse extends Error {}\n' +
      'export function f(a: boolean, b: string | undefined, e: unknown): string {\n' +
      "  if (a) throw new ServiceError('not-found', 'No mirror');\n" +
      "  if (e instanceof Error || e instanceof globalThis.TypeError) throw new Misuse('used wrongly');\n" +
      "  invariant(b, 'b is set by the caller');\n" +
      '  Error.captureStackTrace(e as object);\n' +
      '  const kept: Error | undefined = undefined;\n' +
      '  return b + String(kept);\n' +
      '}\n' +
      'export const rethrow = (e: Error) => Promise.reject(e);\n';
    for (const folder of FOLDERS) expect(await problems(`${folder}/probe.ts`, code), folder).toEqual([]);
  });

  it('a class of the file’s own named Error is not the built-in one', async () => {
    const code =
      "class Error {\n  constructor(readonly why: string) {}\n}\nexport const e = new Error('own');\n";
    expect(await problems('services/probe.ts', code)).toEqual([]);
  });

  it('are made in core/invariant.ts alone, and are the renderer’s own (its error boundary reports them)', async () => {
    const code = "export function f(): never {\n  throw new Error('No mirror');\n}\n";
    expect(await problems('core/invariant.ts', code)).toEqual([]);
    expect(await problems('renderer/src/probe.ts', code)).toEqual([]);
  });
});
