/**
 * ag-grid behind one door, in the files and words ESLint does not read: outside renderer/src/grid/, no file of
 * renderer/ names ag-grid's classes (`.ag-…`) or custom properties (`--ag-…`), and no stylesheet selects
 * ag-grid's attributes (`row-index`, `row-id`, `col-id`, `aria-rowindex`, `aria-colindex`, the theme's
 * `data-ag-theme-mode`); no file there loads an ag-grid package or its stylesheets. Comments count: a file
 * that speaks of ag-grid's markup is one that leans on it. The grid's styles are grid/grid.css, and the rest of
 * the renderer styles the grid through the port's class names and custom properties (docs/ARCHITECTURE.md,
 * The grid port). `npm run lint` runs it (`tsx build/lint/grid-door.ts`); test/unit/lint/grid-door.test.ts
 * lints probes with it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const RENDERER = 'renderer/';
const DOOR = 'renderer/src/grid/';
const CHECKED = /\.(?:css|[cm]?[jt]sx?|html)$/;

const EVERYWHERE = [
  { pattern: /(?:^|[^\w-])\.ag-[A-Za-z]/m, what: "ag-grid's class names (.ag-…)" },
  { pattern: /(?:^|[^\w-])--ag-[A-Za-z]/m, what: "ag-grid's custom properties (--ag-…)" },
  {
    pattern: /(?:^|[\s'"`(~=:,/])(?:@ag-grid-[\w-]+\/|ag-grid-[a-z])/m,
    what: 'an ag-grid package or its stylesheets',
  },
];
const CSS_ONLY = [
  { pattern: /\[\s*(?:row-index|row-id|col-id|aria-rowindex|aria-colindex)\b/, what: "ag-grid's attributes" },
  { pattern: /\bdata-ag-/, what: "ag-grid's theme attribute" },
  { pattern: /\[\s*class\s*[~|^$*]?=\s*['"]?ag-/, what: "ag-grid's class names (.ag-…)" },
];

/** What `text`, the content of the renderer file at `path` (from the project's root), says of ag-grid. */
export function gridDoorProblems(path: string, text: string): string[] {
  const posix = path.split(sep).join('/');
  if (!posix.startsWith(RENDERER) || posix.startsWith(DOOR) || !CHECKED.test(posix)) return [];
  const rules = posix.endsWith('.css') ? [...EVERYWHERE, ...CSS_ONLY] : EVERYWHERE;
  return rules
    .filter(({ pattern }) => pattern.test(text))
    .map(
      ({ what }) =>
        `${posix} names ${what}: only ${DOOR} knows ag-grid (style the grid through grid/grid.css's class names and custom properties; docs/ARCHITECTURE.md, The grid port).`,
    );
}

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (CHECKED.test(entry.name)) yield path;
  }
}

/** Every problem in the project's renderer/. */
export function checkRenderer(root = ROOT): string[] {
  return [...files(join(root, RENDERER))].flatMap((path) =>
    gridDoorProblems(relative(root, path), readFileSync(path, 'utf8')),
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const problems = checkRenderer();
  for (const problem of problems) console.error(problem);
  process.exitCode = problems.length > 0 ? 1 : 0;
}
