/**
 * The layering of docs/ARCHITECTURE.md as an ESLint rule: every import is resolved against the file that makes
 * it, and the top-level folders of both are compared with one allow-table (as VS Code's code-layering does), so
 * no depth of `../` and no form of import (static, re-export, dynamic, `require`, `import type`) gets past it.
 * Bare module names are checked by layer too: Node's built-ins only where Node runs, and always with `node:`.
 */
import { builtinModules } from 'node:module';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
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

/**
 * The npm packages a browser layer may load (and their subpaths): each runs in a page, and its types do not
 * pull Node's into the renderer's program. Any other package (better-sqlite3, fastify, ws, …) is refused there;
 * one added here is checked for both first.
 */
export const BROWSER_PACKAGES = {
  core: ['dayjs', 'zod', 're2js', 'p-queue', 'fastest-levenshtein'],
  renderer: [
    'react',
    'react-dom',
    'ag-grid-community',
    'ag-grid-react',
    'papaparse',
    'dayjs',
    'zod',
    're2js',
  ],
};

/** Files that a build tool loads in Node though they sit in a browser layer's folder: the build layer's. */
const BUILD_FILES = new Set(['renderer/vite.config.ts']);

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
  ['ui', 'color-scheme'],
  ['budget', 'pending'],
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
const posixOf = (abs) => relative(ROOT, abs).split(sep).join('/');
const topOf = (abs) => {
  const rel = posixOf(abs);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  if (BUILD_FILES.has(rel)) return 'build';
  return rel.includes('/') ? rel.split('/')[0] : '';
};
/** The package a path into node_modules/ names (`…/node_modules/ag-grid-react/dist/x.mjs` → ag-grid-react). */
const packageInNodeModules = (abs) => {
  const parts = abs.split(sep);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0 || at + 1 >= parts.length) return undefined;
  return packageName(parts.slice(at + 1).join('/'));
};
/** A module name as written, for the string forms an import may take (a template with no expression too). */
const literalOf = (node) => {
  if (node?.type === 'Literal') return node.value;
  if (node?.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0]?.value.cooked;
  return undefined;
};

function check(context, node, spec) {
  if (typeof spec !== 'string') return;
  const file = context.filename;
  const from = topOf(file);
  const allowed = from === undefined ? undefined : LAYERS[from];
  const report = (message) => context.report({ node, message });

  // A path, relative or absolute (a file: URL too), is resolved against the importing file.
  let path = spec;
  if (spec.startsWith('file:'))
    try {
      path = fileURLToPath(spec);
    } catch {
      return report(`"${spec}" is not a file URL.`);
    }
  if (path.startsWith('.') || isAbsolute(path)) {
    const target = resolve(dirname(file), path);
    const inPackage = packageInNodeModules(target);
    if (inPackage !== undefined) return checkPackage(context, node, from, allowed, inPackage);
    const to = topOf(target);
    const only = ONE_IMPORTER[posixOf(target).replace(/\.[cm]?[jt]sx?$/, '')];
    if (only !== undefined && posixOf(file) !== only)
      return report(`Only ${only} may import "${spec}" (docs/ARCHITECTURE.md, The renderer's api).`);
    checkFloors(posixOf(file), posixOf(target), spec, report);
    if (allowed === undefined || to === from || allowed === '*') return;
    if (to === undefined) return report(`"${spec}" leaves the project.`);
    if (!(to in LAYERS))
      return report(
        `${from}/ may not import "${spec}": ${to === '' ? "the project's root" : `${to}/`} is not a layer (docs/ARCHITECTURE.md, Layers).`,
      );
    if (allowed.includes(to)) return;
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
  checkPackage(context, node, from, allowed, packageName(spec));
}

function checkPackage(context, node, from, allowed, name) {
  const report = (message) => context.report({ node, message });
  if (from === undefined || allowed === '*') return;
  const rule = PACKAGES.find((p) => p.names.includes(name));
  if (rule && !rule.only.includes(from))
    return report(`${from}/ may not load "${name}" (only ${rule.only.map((l) => `${l}/`).join(', ')}).`);
  if (from === 'renderer' && isAgGrid(name) && !posixOf(context.filename).startsWith(GRID_DOOR))
    return report(
      `Only ${GRID_DOOR} may load "${name}": speak to the grid through its port (renderer/src/grid/port.ts; docs/ARCHITECTURE.md, The grid port).`,
    );
  const browser = BROWSER_PACKAGES[from];
  if (browser && !browser.includes(name))
    report(
      `${from}/ runs in a browser too: "${name}" is not among the packages it may load (BROWSER_PACKAGES, build/lint/layers.js).`,
    );
}

/** `require(…)`, `module.require(…)`, `require.resolve(…)` or a `createRequire(…)`'s `(…)`. */
const isRequire = (callee) =>
  (callee.type === 'Identifier' && callee.name === 'require') ||
  (callee.type === 'MemberExpression' &&
    ((callee.object.type === 'Identifier' &&
      callee.object.name === 'module' &&
      callee.property.name === 'require') ||
      (callee.object.type === 'Identifier' &&
        callee.object.name === 'require' &&
        callee.property.name === 'resolve'))) ||
  (callee.type === 'CallExpression' &&
    callee.callee.type === 'Identifier' &&
    callee.callee.name === 'createRequire');

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
      ImportExpression: (node) => check(context, node.source, literalOf(node.source)),
      TSImportType: (node) => {
        const arg = node.argument?.literal ?? node.argument;
        if (arg?.type === 'Literal') check(context, arg, arg.value);
      },
      TSExternalModuleReference: (node) => check(context, node.expression, node.expression.value),
      CallExpression: (node) => {
        if (isRequire(node.callee)) check(context, node.arguments[0], literalOf(node.arguments[0]));
      },
      // A triple-slash reference loads a file, or a package's types (Node's into a browser layer's program).
      Program: () => {
        for (const comment of context.sourceCode.getAllComments()) {
          const ref = /^\/\s*<reference\s+(path|types)\s*=\s*["']([^"']+)["']/.exec(comment.value);
          if (!ref) continue;
          const [, kind, name] = ref;
          check(context, comment, kind === 'path' && !name.startsWith('.') ? `./${name}` : name);
        }
      },
    };
  },
};

export default { rules: { imports: importsRule } };
