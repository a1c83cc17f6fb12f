/**
 * The layering rule (build/lint/layers.js) on probe files that cross each boundary, at any depth and in every
 * form of import, through ESLint itself with the project's own configuration.
 */
import { ESLint } from 'eslint';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAYERS } from '../../../build/lint/layers.js';

const eslint = new ESLint();

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) =>
      [
        'layers/imports',
        'grid/markup',
        'no-restricted-globals',
        'no-restricted-properties',
        'no-restricted-syntax',
      ].includes(m.ruleId ?? ''),
    )
    .map((m) => m.message);
}

describe('the layering rule', () => {
  it.each([
    [
      'renderer/src/a/b/c/probe.ts',
      "import { x } from '../../../../../services/app';",
      'renderer/ may not import services/',
    ],
    [
      'renderer/src/a/b/c/d/probe.ts',
      "export * from '../../../../../../server/index';",
      'renderer/ may not import server/',
    ],
    [
      'renderer/src/probe.tsx',
      "const m = await import('../../host/main');",
      'renderer/ may not import host/',
    ],
    [
      'renderer/src/probe.ts',
      "import type { App } from '../../electron/main';",
      'renderer/ may not import electron/',
    ],
    [
      'core/formula/deep/er/probe.ts',
      "export { x } from '../../../../services/app';",
      'core/ may not import services/',
    ],
    ['core/api/probe.ts', "const s = require('../../server/index');", 'core/ may not import server/'],
    ['server/store/probe.ts', "import '../../services/app';", 'server/ may not import services/'],
    ['services/edits/probe.ts', "import '../../electron/main';", 'services/ may not import electron/'],
    ['services/probe.ts', "import '../host/main';", 'services/ may not import host/'],
    ['electron/main/probe.ts', "import '../../server/index';", 'electron/ may not import server/'],
    ['electron/probe.ts', "import '../host/main';", 'electron/ may not import host/'],
    ['host/probe.ts', "import '../renderer/src/App';", 'host/ may not import renderer/'],
    ['host/probe.ts', "import '../server/index';", 'host/ may not import server/'],
    ['build/probe.ts', "import '../services/app';", 'build/ may not import services/'],
  ])('%s: %s', async (file, code, expected) => {
    expect(await problems(file, code)).toEqual(expect.arrayContaining([expect.stringContaining(expected)]));
  });

  it.each([
    ['core/records/probe.ts', "import { readFile } from 'fs';", 'no Node built-in'],
    ['core/records/probe.ts', "import { readFile } from 'node:fs/promises';", 'no Node built-in'],
    ['renderer/src/grid/probe.ts', "import path from 'path';", 'no Node built-in'],
    [
      'services/edits/probe.ts',
      "import { readFile } from 'fs/promises';",
      'Write Node\'s built-in as "node:fs/promises"',
    ],
    ['server/probe.ts', "import { createHash } from 'crypto';", 'Write Node\'s built-in as "node:crypto"'],
    ['services/probe.ts', "import { app } from 'electron';", 'services/ may not load "electron"'],
    ['core/probe.ts', "import React from 'react';", 'core/ may not load "react"'],
    [
      'server/probe.ts',
      "import { AgGridReact } from 'ag-grid-react';",
      'server/ may not load "ag-grid-react"',
    ],
    ['core/formula/probe.ts', 'export const b = Buffer.from("x");', 'no Node globals'],
    ['renderer/src/probe.ts', 'export const e = process.env.HOME;', 'no Node globals'],
    ['renderer/src/probe.ts', 'setImmediate(() => undefined);', 'no Node globals'],
    [
      'renderer/src/table/probe.ts',
      "import { pageBridge } from '../api/page-bridge';",
      'Only renderer/src/main.tsx',
    ],
    [
      'renderer/src/a/b/c/probe.ts',
      "export * from '../../../api/page-bridge.ts';",
      'Only renderer/src/main.tsx',
    ],
    ['renderer/src/App.tsx', "const m = await import('./api/page-bridge');", 'Only renderer/src/main.tsx'],
    ['renderer/src/grid/probe.ts', 'export const api = window.tabledesk;', 'useApi()'],
    ['renderer/src/grid/probe.ts', 'export const api = globalThis.tabledesk;', 'useApi()'],
  ])('%s: %s', async (file, code, expected) => {
    expect(await problems(file, code)).toEqual([expect.stringContaining(expected)]);
  });

  it.each([
    ['renderer/src/a/b/c/probe.ts', "import { x } from '../../../../../core/records/index';"],
    ['renderer/src/table/probe.ts', "import { useApi } from '../api/ApiProvider';"],
    ['renderer/src/main.tsx', "import { pageBridge } from './api/page-bridge';"],
    ['renderer/src/api/page-bridge.ts', 'window.tabledesk ??= undefined;'],
    [
      'services/edits/probe.ts',
      "import '../../server/index'; import '../../core/api/index'; import 'node:fs';",
    ],
    [
      'electron/probe.ts',
      "import { app } from 'electron'; import '../services/app'; import '../core/api/index';",
    ],
    ['host/probe.ts', "import '../services/app'; import 'node:http'; import Fastify from 'fastify';"],
    ['test/unit/probe.ts', "import '../../server/index'; import '../../renderer/src/App'; import 'node:fs';"],
    ['bench/probe.ts', "import '../electron/main'; import '../host/main';"],
  ])('allows %s: %s', async (file, code) => {
    expect(await problems(file, code)).toEqual([]);
  });
});

/** Each layer's files four folders deep (the renderer's five: its code is under src/). */
const DEEP: Record<string, string> = {
  core: 'core/a/b/c/d/probe.ts',
  server: 'server/a/b/c/d/probe.ts',
  services: 'services/a/b/c/d/probe.ts',
  host: 'host/a/b/c/d/probe.ts',
  electron: 'electron/a/b/c/d/probe.ts',
  renderer: 'renderer/src/a/b/c/d/probe.ts',
  build: 'build/a/b/c/d/probe.ts',
};
const up = (file: string) => '../'.repeat(file.split('/').length - 1);
const TARGETS: Record<string, string> = {
  core: 'core/api/index',
  server: 'server/index',
  services: 'services/app',
  host: 'host/main',
  electron: 'electron/main',
  renderer: 'renderer/src/App',
  build: 'build/dist',
  test: 'test/support/local-server',
  bench: 'bench/run',
};
const FORMS: ((spec: string) => string)[] = [
  (spec) => `import { x } from '${spec}';`,
  (spec) => `import type { X } from '${spec}';`,
  (spec) => `export * from '${spec}';`,
  (spec) => `export { x } from '${spec}';`,
  (spec) => `const m = await import('${spec}');`,
  (spec) => `const m = await import(\`${spec}\`);`,
  (spec) => `type M = typeof import('${spec}');`,
  (spec) => `const m = require('${spec}');`,
];

describe('every forbidden crossing, four folders deep, in every form of import', () => {
  const crossings = Object.entries(DEEP).flatMap(([from, file]) =>
    Object.entries(TARGETS)
      .filter(([to]) => to !== from && !(LAYERS[from] as readonly string[]).includes(to))
      .map(([to, target]) => [from, to, file, `${up(file)}${target}`] as const),
  );

  it('covers each layer', () => {
    expect(new Set(crossings.map(([from]) => from))).toEqual(new Set(Object.keys(DEEP)));
  });

  it.each(crossings)('%s/ may not import %s/', async (from, to, file, spec) => {
    for (const form of FORMS)
      expect(await problems(file, form(spec)), form(spec)).toEqual(
        expect.arrayContaining([expect.stringContaining(`${from}/ may not import ${to}/`)]),
      );
  });

  it.each(Object.entries(DEEP).filter(([from]) => from !== 'build'))(
    '%s/ may import what its row allows',
    async (from, file) => {
      const allowed = LAYERS[from] as readonly string[];
      const code = allowed.map((to) => `import '${up(file)}${TARGETS[to]}';`).join('\n') || 'export {};';
      expect(await problems(file, code)).toEqual([]);
    },
  );
});

describe('imports that do not look like paths', () => {
  it.each([
    [
      'renderer/src/a/b/c/d/probe.ts',
      `import '${resolve('services/app.ts')}';`,
      'renderer/ may not import services/',
    ],
    [
      'core/a/b/c/d/probe.ts',
      `import '${pathToFileURL(resolve('server/index.ts')).href}';`,
      'core/ may not import server/',
    ],
    [
      'server/a/b/c/d/probe.ts',
      "import { createRequire } from 'node:module';\nconst m = createRequire(import.meta.url)('../../../../../services/app');",
      'server/ may not import services/',
    ],
    [
      'services/a/b/c/d/probe.ts',
      "const p = require.resolve('../../../../../host/main');",
      'services/ may not import host/',
    ],
    [
      'renderer/src/a/b/c/d/probe.ts',
      '/// <reference path="../../../../../../services/app.ts" />',
      'renderer/ may not import services/',
    ],
    ['renderer/src/a/b/c/d/probe.ts', '/// <reference types="node" />', '"node" is not among the packages'],
    ['core/a/b/c/d/probe.ts', '/// <reference types="node" />', '"node" is not among the packages'],
    ['renderer/src/a/b/c/d/probe.ts', "import '../../../../../../docs/x';", 'docs/ is not a layer'],
    ['services/a/b/c/d/probe.ts', "import '../../../../../.ci/run';", '.ci/ is not a layer'],
    [
      'core/a/b/c/d/probe.ts',
      "import pkg from '../../../../../package.json';",
      "the project's root is not a layer",
    ],
    [
      'renderer/src/a/b/c/d/probe.ts',
      "import Database from '../../../../../../node_modules/better-sqlite3/lib/index.js';",
      '"better-sqlite3" is not among the packages',
    ],
    [
      'renderer/src/rows/a/b/c/probe.ts',
      "import { AgGridReact } from '../../../../../../node_modules/ag-grid-react/dist/package/index.esm.mjs';",
      'Only renderer/src/grid/ may load "ag-grid-react"',
    ],
  ])('%s: %s', async (file, code, expected) => {
    expect(await problems(file, code)).toEqual(expect.arrayContaining([expect.stringContaining(expected)]));
  });
});

describe('Node in the browser layers, four folders deep', () => {
  it.each([
    ['core/a/b/c/d/probe.ts', "import { readFileSync } from 'fs';", 'no Node built-in ("fs")'],
    ['core/a/b/c/d/probe.ts', "import { join } from 'path/posix';", 'no Node built-in'],
    ['core/a/b/c/d/probe.ts', "const fs = await import('fs');", 'no Node built-in'],
    ['core/a/b/c/d/probe.ts', "const fs = require('fs');", 'no Node built-in'],
    ['renderer/src/a/b/c/d/probe.ts', "import { EventEmitter } from 'events';", 'no Node built-in'],
    ['renderer/src/a/b/c/d/probe.ts', "import { Buffer } from 'node:buffer';", 'no Node built-in'],
    [
      'renderer/src/a/b/c/d/probe.ts',
      "import Database from 'better-sqlite3';",
      '"better-sqlite3" is not among',
    ],
    ['renderer/src/a/b/c/d/probe.ts', "import { WebSocketServer } from 'ws';", '"ws" is not among'],
    ['core/a/b/c/d/probe.ts', "import Fastify from 'fastify';", '"fastify" is not among'],
    ['core/a/b/c/d/probe.ts', "import sharp from 'sharp';", '"sharp" is not among'],
    ['renderer/src/a/b/c/d/probe.ts', 'export const b = Buffer.from("x");', 'no Node globals'],
    ['renderer/src/a/b/c/d/probe.ts', 'export const e = process.env.HOME;', 'no Node globals'],
    ['renderer/src/a/b/c/d/probe.ts', 'export const e = globalThis.process.env.HOME;', 'no Node globals'],
    ['renderer/src/a/b/c/d/probe.ts', 'export const b = window.Buffer.from("x");', 'no Node globals'],
    [
      'renderer/src/a/b/c/d/probe.ts',
      'const { process: p } = globalThis;\nexport const e = p;',
      'no Node globals',
    ],
    [
      'renderer/src/a/b/c/d/probe.ts',
      'declare const process: { env: Record<string, string> };\nexport const e = process.env.HOME;',
      'no Node globals',
    ],
    [
      'core/a/b/c/d/probe.ts',
      'declare global {\n  var Buffer: { from(s: string): Uint8Array };\n}\nexport {};',
      'no Node globals',
    ],
    ['core/a/b/c/d/probe.ts', 'export const b = self.Buffer;', 'no Node globals'],
  ])('%s: %s', async (file, code, expected) => {
    expect(await problems(file, code)).toEqual(expect.arrayContaining([expect.stringContaining(expected)]));
  });
});

describe('the grid door', () => {
  it.each([
    ['renderer/src/rows/probe.ts', "import type { GridApi } from 'ag-grid-community';"],
    ['renderer/src/table/find/deep/probe.tsx', "import { AgGridReact } from 'ag-grid-react';"],
    ['renderer/src/probe.ts', "export { themeQuartz } from 'ag-grid-community';"],
    ['renderer/src/links/probe.ts', "const m = await import('ag-grid-community');"],
    ['renderer/src/ui/probe.ts', "type A = import('ag-grid-community').GridApi;"],
    ['renderer/src/rows/probe.ts', "import '@ag-grid-community/core';"],
    ['renderer/src/rows/probe.ts', "import 'ag-grid-enterprise';"],
    // Where the grid's editors, cells, headers and options were before the port had words for them.
    ['renderer/src/editing/probe.tsx', "import type { CustomCellEditorProps } from 'ag-grid-react';"],
    ['renderer/src/table/groups/probe.ts', "import type { IDatasource } from 'ag-grid-community';"],
    ['renderer/src/table/header-menu/probe.ts', "import type { IHeaderComp } from 'ag-grid-community';"],
  ])('%s may not load ag-grid: %s', async (file, code) => {
    expect(await problems(file, code)).toEqual([expect.stringContaining('Only renderer/src/grid/ may load')]);
  });

  it('lets the grid itself, tests and benches load ag-grid', async () => {
    for (const file of ['renderer/src/grid/probe.ts', 'renderer/src/grid/deep/probe.tsx', 'bench/probe.ts'])
      expect(await problems(file, "import type { GridApi } from 'ag-grid-community';")).toEqual([]);
  });
});

describe("the grid's markup", () => {
  it.each([
    [
      'renderer/src/table/find/probe.ts',
      "export const rows = (root: Element) => root.querySelectorAll('.ag-row');",
    ],
    ['renderer/src/rows/range/probe.ts', "export const cell = (el: Element) => el.closest('ag-cell');"],
    ['renderer/src/rows/probe.ts', "export const at = (el: Element) => el.getAttribute('row-index');"],
    ['renderer/src/links/deep/probe.ts', "export const id = (el: Element) => el.getAttribute('row-id');"],
    ['renderer/src/table/probe.ts', 'export const q = (c: string) => `.ag-cell[col-id="${c}"]`;'],
    ['renderer/src/rows/probe.tsx', 'export const q = (r: number) => `[aria-rowindex="${r}"]`;'],
    ['renderer/src/ui/probe.tsx', 'export const Cell = () => <div className="ag-cell-value" />;'],
    ['renderer/src/table/probe.ts', "export const own = (id: string) => id.startsWith('ag-Grid-');"],
    ['renderer/src/probe.ts', "document.documentElement.dataset['agThemeMode'] = 'dark';"],
  ])('%s may not read it: %s', async (file, code) => {
    expect(await problems(file, code)).toEqual([expect.stringContaining("is ag-grid's markup")]);
  });

  it('lets the grid itself and the end-to-end specs read it, and any file name a module or say it in a comment', async () => {
    const query = "export const rows = (root: Element) => root.querySelectorAll('.ag-row[row-index]');";
    for (const file of [
      'renderer/src/grid/dom.ts',
      'renderer/src/grid/deep/probe.ts',
      'test/e2e/probe.spec.ts',
    ])
      expect(await problems(file, query)).toEqual([]);
    expect(
      await problems(
        'renderer/src/table/probe.ts',
        "// ag-grid draws .ag-row with row-index\nimport { isOwnColumn } from '../grid/ag-port';\nexport { isOwnColumn };",
      ),
    ).toEqual([]);
  });
});

describe("the renderer's folder floors", () => {
  it.each([
    [
      'renderer/src/grid/probe.ts',
      "import { linkNames } from '../links/names';",
      'renderer/src/grid may not import renderer/src/links',
    ],
    [
      'renderer/src/links/deep/probe.ts',
      "import type { Parsed } from '../../editing/parse';",
      'renderer/src/links may not import renderer/src/editing',
    ],
    [
      'renderer/src/editing/probe.ts',
      "import { x } from '../rows/paste';",
      'renderer/src/editing may not import renderer/src/rows',
    ],
    [
      'renderer/src/ui/probe.tsx',
      "const m = await import('../table/TableTab');",
      'renderer/src/ui may not import renderer/src/table',
    ],
    // Two folders on one floor may not import each other either: either way would be the first half of a loop.
    [
      'renderer/src/formula/probe.ts',
      "import '../links/names';",
      'renderer/src/formula may not import renderer/src/links',
    ],
    [
      'renderer/src/color-scheme.ts',
      "import '../src/budget/useBudget';",
      'renderer/src/color-scheme may not import renderer/src/budget',
    ],
    ['renderer/src/newfolder/probe.ts', "import '../grid/port';", 'renderer/src/newfolder has no floor'],
  ])('%s: %s', async (file, code, expected) => {
    expect(await problems(file, code)).toEqual([expect.stringContaining(expected)]);
  });

  it('lets a folder import the floors below it, and itself', async () => {
    for (const [file, code] of [
      [
        'renderer/src/rows/deep/probe.ts',
        "import '../../editing/parse'; import '../../links/names'; import '../../grid/port';",
      ],
      [
        'renderer/src/links/probe.ts',
        "import '../grid/format'; import '../ui/RecordSection'; import './names';",
      ],
      ['renderer/src/main.tsx', "import './App'; import './styles.css';"],
    ] as const)
      expect(await problems(file, code)).toEqual([]);
  });
});
