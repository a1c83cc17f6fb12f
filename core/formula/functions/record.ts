/** Record functions (research §9.6); CREATED_TIME and LAST_MODIFIED_TIME live with the dates. */
import type { FunctionDef } from '../runtime';

export const recordFunctions: FunctionDef[] = [
  {
    name: 'RECORD_ID',
    family: 'record',
    minArgs: 0,
    maxArgs: 0,
    signature: 'RECORD_ID()',
    doc: 'The id of the record, like "rec…".',
    call: (_args, r) => r.id,
  },
];
