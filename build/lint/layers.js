/**
 * The layering of docs/ARCHITECTURE.md as an ESLint rule: every import is resolved against the file that makes
 * it, and the top-level folders of both are compared with one allow-table (as VS Code's code-layering does), so
 * no depth of `../` and no form of import (static, re-export, dynamic, `require`, `import type`) gets past it.
 * Bare module names are checked by layer too: Node's built-ins only where Node runs, and always with `node:`.
 */
import { builtinModules } from 'node:module';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Which top-level folders each layer may import; its own folder always. `*` is everything. */
export const LAYERS = {
  core: [],
  server: ['core'],
  services: ['core', 'server'],
  electron: ['core', 'services'],
  host: ['core', 'services'],
  renderer: ['core'],
  build: [],
  test: '*',
  bench: '*',
};

/** Layers that must run in a browser as well as in Node: no Node built-ins, no Node globals. */
export const BROWSER_LAYERS = ['core', 'renderer'];

/** Packages only some layers may load, beyond Node's built-ins. */
const PACKAGES = [
  { names: ['electron'], only: ['electron', 'test', 'bench', 'build'] },
  {
    names: ['react', 'react-dom', 'ag-grid-react', 'ag-grid-community'],
    only: ['renderer', 'test', 'bench'],
  },
];

/**
 * Modules one file alone may import, whatever path reaches them. The page's bridge is the services' global:
 * main.tsx hands it to ApiProvider, and every other renderer module asks `useApi()` or is given the api, so a
 * test can hand any of them its own.
 */
const ONE_IMPORTER = { 'renderer/src/api/page-bridge': 'renderer/src/main.tsx' };

/**
 * ag-grid behind one door: only renderer/src/grid/ (the grid port, port.ts, and what the features plug into
 * it, parts.ts) may load an ag-grid package; the rest of the renderer speaks rows, columns, positions and
 * selections.
 */
const GRID_DOOR = 'renderer/src/grid/';
const isAgGrid = (name) => /^(@ag-grid-[^/]+\/|ag-grid-)/.test(name);

/**
 * No loops between the renderer's folders: each folder (or file) directly under renderer/src/ stands on a
 * floor, and imports only from floors below its own, so an arrow back up (and with it a loop) fails lint. A
 * folder that needs one on its own floor moves up a floor here, in sight; a new folder is added here.
 */
export const RENDERER_FLOORS = [
  ['api', 'commands', 'grid', 'types'],
  ['ui', 'theme', 'budget', 'pending'],
  ['formula', 'links', 'status', 'connections'],
  ['editing', 'offline'],
  ['rows', 'live'],
  ['table'],
  ['tabs'],
  ['picker'],
  ['App'],
  ['main'],
];
const RENDERER = 'renderer/src/';
const floorOf = new Map(RENDERER_FLOORS.flatMap((names, floor) => names.map((n) => [n, floor])));
/** The folder, or the file without its extension, directly under renderer/src/ that a path is in. */
const rendererPart = (path) =>
  path.startsWith(RENDERER)
    ? path
        .slice(RENDERER.length)
        .split('/')[0]
        .replace(/\.[cm]?[jt]sx?$/, '')
    : undefined;

function checkFloors(path, targetPath, spec, report) {
  const from = rendererPart(path);
  const to = rendererPart(targetPath);
  if (from === undefined || to === undefined || from === to || /\.css$/.test(targetPath)) return;
  const [a, b] = [floorOf.get(from), floorOf.get(to)];
  if (a === undefined || b === undefined)
    return report(
      `renderer/src/${a === undefined ? from : to} has no floor: add it to RENDERER_FLOORS (build/lint/layers.js; docs/ARCHITECTURE.md, Folders).`,
    );
  if (b >= a)
    report(
      `renderer/src/${from} may not import renderer/src/${to} ("${spec}"): a folder imports only from floors below its own, so no loop forms (RENDERER_FLOORS, build/lint/layers.js; docs/ARCHITECTURE.md, Folders).`,
    );
}

const BUILTINS = new Set(builtinModules.filter((m) => !m.startsWith('_')));
const packageName = (spec) =>
  spec
    .split('/')
    .slice(0, spec.startsWith('@') ? 2 : 1)
    .join('/');
const isBuiltin = (spec) => spec.startsWith('node:') || BUILTINS.has(packageName(spec));
const topOf = (abs) => {
  const rel = relative(ROOT, abs);
  if (rel === '' || rel.startsWith('..')) return undefined;
  return rel.split(sep).length > 1 ? rel.split(sep)[0] : '';
};

function check(context, node, spec) {
  if (typeof spec !== 'string') return;
  const file = context.filename;
  const from = topOf(file);
  const allowed = from === undefined ? undefined : LAYERS[from];
  const report = (message) => context.report({ node, message });

  if (spec.startsWith('.')) {
    const target = resolve(dirname(file), spec);
    const to = topOf(target);
    const only =
      ONE_IMPORTER[
        relative(ROOT, target)
          .split(sep)
          .join('/')
          .replace(/\.[cm]?[jt]sx?$/, '')
      ];
    if (only !== undefined && relative(ROOT, file).split(sep).join('/') !== only)
      return report(`Only ${only} may import "${spec}" (docs/ARCHITECTURE.md, The renderer's api).`);
    const posix = (abs) => relative(ROOT, abs).split(sep).join('/');
    checkFloors(posix(file), posix(target), spec, report);
    if (allowed === undefined || to === from) return;
    if (to === undefined) return report(`"${spec}" leaves the project.`);
    if (allowed === '*' || allowed.includes(to) || !(to in LAYERS)) return;
    return report(
      `${from}/ may not import ${to}/ ("${spec}"): ${from}/ may import ${allowed.length ? allowed.map((l) => `${l}/`).join(', ') : 'no other layer'} (docs/ARCHITECTURE.md, Layers).`,
    );
  }
  if (isBuiltin(spec)) {
    if (from !== undefined && BROWSER_LAYERS.includes(from))
      return report(`${from}/ runs in a browser too: no Node built-in ("${spec}").`);
    if (!spec.startsWith('node:')) return report(`Write Node's built-in as "node:${spec}".`);
    return;
  }
  if (from === undefined || allowed === '*') return;
  const name = packageName(spec);
  const rule = PACKAGES.find((p) => p.names.includes(name));
  if (rule && !rule.only.includes(from))
    return report(`${from}/ may not load "${name}" (only ${rule.only.map((l) => `${l}/`).join(', ')}).`);
  const path = relative(ROOT, file).split(sep).join('/');
  if (from === 'renderer' && isAgGrid(name) && !path.startsWith(GRID_DOOR))
    report(
      `Only ${GRID_DOOR} may load "${name}": speak to the grid through its port (renderer/src/grid/port.ts; docs/ARCHITECTURE.md, The grid port).`,
    );
}

const importsRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports follow the layering of docs/ARCHITECTURE.md' },
    schema: [],
  },
  create(context) {
    const source = (node) => check(context, node.source, node.source?.value);
    return {
      ImportDeclaration: source,
      ExportNamedDeclaration: (node) => node.source && source(node),
      ExportAllDeclaration: source,
      ImportExpression: (node) =>
        node.source.type === 'Literal' && check(context, node.source, node.source.value),
      TSImportType: (node) => {
        const arg = node.argument?.literal ?? node.argument;
        if (arg?.type === 'Literal') check(context, arg, arg.value);
      },
      TSExternalModuleReference: (node) => check(context, node.expression, node.expression.value),
      CallExpression: (node) => {
        if (
          node.callee.type === 'Identifier' &&
          node.callee.name === 'require' &&
          node.arguments[0]?.type === 'Literal'
        )
          check(context, node.arguments[0], node.arguments[0].value);
      },
    };
  },
};

export default { rules: { imports: importsRule } };
