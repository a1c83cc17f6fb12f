/**
 * No two source files import each other, however long the loop (issue 27, item 6): a folder's index only hands
 * names on to files outside it, files inside import each other directly, and a type both sides need lives in
 * the lower file. Type-only imports count too: a loop of types is a loop a reader has to untangle. Nor do two
 * folders (a feature's, a layer's parts) reach each other in a loop; a folder and the folder holding it may, as
 * a layer's own entry files (server/index.ts) sit above its parts and its ground files (server/errors.ts) below.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const FOLDERS = ['core', 'services', 'server', 'renderer/src', 'electron', 'host'];
const SOURCE = /\.tsx?$/;
const NOT_SOURCE = /\.(test|spec)\.tsx?$|\.d\.ts$/;
/** Static imports and re-exports at the start of a line, and import() of a literal path. */
const IMPORTS = [
  /^\s*(?:import|export)\b[^;]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]/gm,
  /^\s*import\s*['"](\.{1,2}\/[^'"]+)['"]/gm,
  /\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g,
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sourceFiles(path);
    return SOURCE.test(e.name) && !NOT_SOURCE.test(e.name) ? [path] : [];
  });
}

function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const target = (from: string, spec: string): string | undefined => {
    const base = resolve(dirname(from), spec.replace(/\.js$/, ''));
    return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')].find((c) =>
      known.has(c),
    );
  };
  return new Map(
    files.map((file) => {
      const text = readFileSync(file, 'utf8');
      const specs = IMPORTS.flatMap((re) => [...text.matchAll(re)].map((m) => m[1] ?? ''));
      return [file, [...new Set(specs.map((s) => target(file, s)).filter((t) => t !== undefined))]];
    }),
  );
}

/** Tarjan's strongly connected components of more than one file (or a file that imports itself). */
function loops(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)?.includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** The graph of folders: an arrow where a file imports one in another folder that neither folder holds. */
function folderGraph(graph: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const holds = (a: string, b: string) => b.startsWith(`${a}/`);
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = dirname(file);
    const arrows = folders.get(from) ?? new Set<string>();
    folders.set(from, arrows);
    for (const to of targets.map(dirname))
      if (to !== from && !holds(from, to) && !holds(to, from)) arrows.add(to);
  }
  return new Map([...folders].map(([f, arrows]) => [f, [...arrows]]));
}

describe('import loops', () => {
  it('finds a loop when there is one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(loops(graph)).toEqual([['a', 'b', 'c']]);
  });

  it('no source file imports itself back through others', () => {
    const files = FOLDERS.flatMap((f) => sourceFiles(join(ROOT, f)));
    const graph = importGraph(files);
    expect([...graph.values()].flat().length).toBeGreaterThan(files.length);
    expect(loops(graph).map((c) => c.map((f) => relative(ROOT, f)))).toEqual([]);
  });

  it('no folder reaches itself back through its siblings', () => {
    const graph = folderGraph(importGraph(FOLDERS.flatMap((f) => sourceFiles(join(ROOT, f)))));
    expect([...graph.values()].flat().length).toBeGreaterThan(graph.size);
    expect(loops(graph).map((c) => c.map((f) => relative(ROOT, f)))).toEqual([]);
  });
});
