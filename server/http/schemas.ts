import { z } from 'zod';

/** Booleans as Airtable accepts them in a query or a body: true/false/1/0. */
const bool = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0']), z.literal(1), z.literal(0)])
  .transform((v) => v === true || v === 'true' || v === '1' || v === 1);

export const count = z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]);

const sortEntry = z.object({ field: z.string(), direction: z.enum(['asc', 'desc']).optional() });

/** Most sort rules a list or view may have: each is a term of the SQL that pages through the table. */
const MAX_SORT = 20;

/** List options, from the query of a GET or the body of POST …/listRecords. Unknown keys are tolerated. */
export const listOptions = z.looseObject({
  pageSize: count.optional(),
  limit: count.optional(),
  maxRecords: count.optional(),
  offset: z.string().optional(),
  view: z.string().optional(),
  fields: z.array(z.string()).optional(),
  sort: z.array(sortEntry).max(MAX_SORT).optional(),
  filterByFormula: z.string().optional(),
  cellFormat: z.enum(['json', 'string']).optional(),
  timeZone: z.string().optional(),
  userLocale: z.string().optional(),
  returnFieldsByFieldId: bool.optional(),
  recordMetadata: z.array(z.literal('commentCount')).optional(),
});
export type ListOptions = z.infer<typeof listOptions>;

export const recordQuery = z.looseObject({
  fields: z.array(z.string()).optional(),
  recordMetadata: z.array(z.literal('commentCount')).optional(),
  cellFormat: z.enum(['json', 'string']).optional(),
  timeZone: z.string().optional(),
  userLocale: z.string().optional(),
  returnFieldsByFieldId: bool.optional(),
});

/**
 * A record's `fields` map, kept as parsed (JSON.parse makes every key an own property): z.record would drop a
 * key named `__proto__`, and a field may have that name.
 */
const fieldsObject = z.custom<Record<string, unknown>>(
  (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  { message: 'fields must be an object' },
);

const writeFlags = {
  typecast: bool.optional(),
  returnFieldsByFieldId: bool.optional(),
};

export const createBody = z.looseObject({
  records: z.array(z.looseObject({ fields: fieldsObject })).optional(),
  fields: fieldsObject.optional(),
  ...writeFlags,
});

export const updateOneBody = z.looseObject({ fields: fieldsObject, ...writeFlags });

export const updateManyBody = z.looseObject({
  records: z.array(z.looseObject({ id: z.string().optional(), fields: fieldsObject })),
  performUpsert: z.looseObject({ fieldsToMergeOn: z.array(z.string()) }).optional(),
  ...writeFlags,
});

export const deleteQuery = z.looseObject({ records: z.union([z.array(z.string()), z.string()]).optional() });

const fieldSpec = z.looseObject({
  name: z.string(),
  type: z.string(),
  description: z.string().max(20_000).optional(),
  options: z.record(z.string(), z.unknown()).nullable().optional(),
});

const viewSpec = z.object({
  name: z.string().min(1),
  filterByFormula: z.string().optional(),
  sort: z.array(sortEntry).max(MAX_SORT).optional(),
  hiddenFields: z.array(z.string()).optional(),
});

export const tableSpec = z.looseObject({
  name: z.string(),
  description: z.string().max(20_000).optional(),
  fields: z.array(fieldSpec).min(1),
  // Not in Airtable's API (it has no view endpoints): lets a caller create filtered/sorted views.
  views: z.array(viewSpec).optional(),
});

export const createBaseBody = z.looseObject({
  name: z.string(),
  workspaceId: z.string().optional(),
  tables: z.array(tableSpec).min(1),
});

export { fieldSpec };

export const renameBody = z.looseObject({
  name: z.string().optional(),
  description: z.string().max(20_000).optional(),
});
