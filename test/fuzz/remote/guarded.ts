/**
 * One fixed plan for each check the mirror makes of what a remote service answers (issue 24). The fuzzer's
 * fixed seed in `npm test` draws only a few shapes, so a check dropped from the code could go unnoticed;
 * each of these meets one check on every request of its kind, in the pull and again in the sync, and its run
 * fails when that check is gone (a copy said ready that is not, a hang, an unclear error, a download from
 * a refused host). Checks another one backs up are not here, since dropping one alone changes nothing the
 * run can see: the record id and time checks of services/mirror/remote-records.ts (the local server's
 * mirror route refuses the same records), a field id named twice (the copy's schema then refuses the
 * cells), an attachment on a link-local address (nothing answers there in a test).
 */
import type { Fault } from '../../support/fault-proxy';
import {
  attachmentsElsewhere,
  BODIES,
  idsAcrossPages,
  offsetLoop,
  RECORD_EDITS,
  redirectElsewhere,
  rewriteJson,
  SCHEMA_EDITS,
  UNKNOWN_TYPE,
} from './shapes';
import type { DrawnFault, RequestKind, ShapeContext } from './shapes';
import type { Plan } from './target';

const every = (kind: RequestKind, label: string, fault: (ctx: ShapeContext) => Fault): DrawnFault => ({
  label,
  kind,
  nth: 0,
  times: Infinity,
  fault,
});

const body = (what: string): DrawnFault => {
  const [, make] = BODIES.find(([w]) => w === what)!;
  return every('list', what, () => ({ type: 'replace-body', status: 200, body: make() }));
};

const recordEdit = (label: string, v: unknown = 42): DrawnFault => {
  const { edit } = RECORD_EDITS.find((e) => e.label === label)!;
  return every('list', `list: ${label}`, () => rewriteJson((b) => edit(b, 0.5, v, {})));
};

const schemaEdit = (label: string): DrawnFault => {
  const { edit } = SCHEMA_EDITS.find((e) => e.label === label)!;
  return every('schema', `schema: ${label}`, () => rewriteJson((b) => edit(b, 0.5, 42, 'x')));
};

/** The field of this name (in the remote world's base) given another type in every schema answer. */
const fieldOfType = (name: string, type: string): DrawnFault =>
  every('schema', `schema: ${name} of type ${type}`, () =>
    rewriteJson((b) => {
      const body = b as { tables: { fields: { name: string }[] }[] };
      return {
        ...body,
        tables: body.tables.map((t) => ({
          ...t,
          fields: t.fields.map((f) => (f.name === name ? { ...f, type } : f)),
        })),
      };
    }),
  );

/** Each check, named by where it is, and the fault that meets it. */
const CHECKS: [string, DrawnFault][] = [
  ['a size limit on every answer (core/api/attempt.ts)', body('a huge body')],
  ['a depth limit on every answer (core/api/attempt.ts)', body('a deep body')],
  ['a depth limit on every cell (core/api/attempt.ts)', recordEdit('a deep cell')],
  [
    'an offset named again ends a walk (core/api/offsets.ts)',
    every('list', 'empty pages, the same offset', () => offsetLoop(false, true)),
  ],
  [
    'offsets in a cycle end a walk (core/api/offsets.ts)',
    every('list', 'empty pages, offsets in a cycle', () => offsetLoop(true, true)),
  ],
  ['a bases walk ends too (core/api/offsets.ts)', every('bases', 'bases: loop', () => offsetLoop(false))],
  ['a record twice in a walk (core/api/offsets.ts WalkedIds)', every('list', 'ids again', idsAcrossPages)],
  ['a record twice in a page (core/api/offsets.ts WalkedIds)', recordEdit('a record id twice in a page')],
  ['a cell of a wrong type (server/store/mirror-cells.ts)', recordEdit('a cell of a wrong type')],
  [
    'cells not named by field ids (services/mirror/remote-records.ts)',
    recordEdit('fields of a wrong type', { id: 7 }),
  ],
  ['a table id named twice (core/api/schema-answer.ts)', schemaEdit('duplicate table ids')],
  [
    'a primary field the copy cannot hold refuses the schema (server/store/mirror-writes.ts)',
    schemaEdit('a primary field type this server does not know'),
  ],
  [
    'a field left out holds no cells in the base, and is read whole once copied (services/mirror/links.ts MergeBase, pull.ts)',
    fieldOfType('N', UNKNOWN_TYPE),
  ],
  ['a link pair is left out together (server/store/mirror-writes.ts)', fieldOfType('Group', UNKNOWN_TYPE)],
  [
    'files only from the service (services/mirror/file-hosts.ts)',
    every('list', 'urls', attachmentsElsewhere(0)),
  ],
  [
    'files only from the service’s own port (services/mirror/file-hosts.ts)',
    every('list', 'urls at another port', attachmentsElsewhere(1)),
  ],
  [
    'redirects only within the service (services/mirror/file-hosts.ts)',
    every('file', 'redirect', redirectElsewhere(0)),
  ],
  [
    'redirects only within the service’s own port (services/mirror/file-hosts.ts)',
    every('file', 'redirect to another port', redirectElsewhere(1)),
  ],
  [
    'a Retry-After of an hour is no wait (core/api/requester.ts)',
    every('list', '429 Retry-After 3600', () => ({ type: 'status', status: 429, retryAfter: '3600' })),
  ],
];

export const GUARDED: { check: string; plan: Plan }[] = CHECKS.map(([check, fault]) => ({
  check,
  plan: { pullFaults: [fault], syncFaults: [fault], partitions: 1 },
}));
