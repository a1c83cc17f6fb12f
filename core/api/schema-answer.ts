/**
 * The metadata API's answer about a base's tables, checked before anything uses it: a service that names one
 * table or field id twice, a primary field that is not among its fields, or ids of another shape would make the
 * app (and an offline copy) put one table's records under another's, and a sync would then send the mix back.
 * Names are only checked to be text: what a name may hold is the consumer's rule (the local server's).
 */
import { z } from 'zod';
import type { TableSchema } from '../records/types';
import { FIELD_TYPE_NAME } from '../records/types';
import { RecordTableError } from './errors';

/** Airtable's ids are a prefix and 14 letters or digits; any service's are at least plain and short. */
const id = z.string().regex(/^[A-Za-z0-9]{1,64}$/);

const answer = z.object({
  tables: z
    .array(
      z.object({
        id,
        name: z.string(),
        primaryFieldId: id,
        description: z.string().optional(),
        fields: z
          .array(
            z.looseObject({
              id,
              name: z.string(),
              type: z.string().regex(FIELD_TYPE_NAME, 'not the name of a type'),
              description: z.string().optional(),
              options: z.record(z.string(), z.unknown()).nullable().optional(),
            }),
          )
          .min(1),
        views: z.array(z.looseObject({ id, name: z.string(), type: z.string() })).optional(),
      }),
    )
    .min(1),
});

/** The tables of a base schema answer, or a clear error naming what is wrong with it. */
export function asTables(body: unknown): TableSchema[] {
  const parsed = answer.safeParse(body, { error: inWords });
  const wrong = parsed.success ? duplicates(parsed.data.tables as TableSchema[]) : describe(parsed.error);
  if (wrong === undefined)
    return (parsed.data!.tables as TableSchema[]).map((t) => ({ ...t, views: t.views ?? [] }));
  return fail(wrong, body);
}

function duplicates(tables: TableSchema[]): string | undefined {
  const tableIds = new Set<string>();
  const fieldIds = new Set<string>();
  for (const t of tables) {
    if (tableIds.has(t.id)) return `table id ${t.id} named twice`;
    tableIds.add(t.id);
    for (const f of t.fields) {
      if (fieldIds.has(f.id)) return `field id ${f.id} named twice`;
      fieldIds.add(f.id);
    }
    if (!t.fields.some((f) => f.id === t.primaryFieldId))
      return `table ${t.id}'s primary field ${t.primaryFieldId} is not among its fields`;
  }
  return undefined;
}

/** A value of the wrong type said in words: zod's own message names JavaScript's types ("received undefined"). */
function inWords(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code !== 'invalid_type') return undefined;
  if (issue.input === undefined) return 'missing';
  return `not ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`;
}

function describe(error: z.ZodError): string {
  const [issue] = error.issues;
  return `${issue?.path.join('.') || 'the answer'}: ${issue?.message ?? 'not a schema'}`;
}

function fail(why: string, body: unknown): never {
  const text = JSON.stringify(body) ?? String(body);
  throw new RecordTableError({
    kind: 'http',
    message: `The service answered with a base schema that cannot be used (${why.slice(0, 200)})`,
    rawBody: text.slice(0, 2000),
  });
}
