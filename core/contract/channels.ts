/** The contract's core channels: app info, connections, metadata and table views (browse and filter). */
import { z } from 'zod';
import { channel } from './define';
import {
  baseSchema,
  channelErrorSchema,
  columnSchema,
  connectionSummarySchema,
  idSchema,
  recordSchema,
  sortSpecSchema,
  tableSchema,
} from './schemas';

const empty = z.object({}).default({});

/**
 * A service's base URL: http(s), and no user or password in it, since everything but the key's own field is
 * shown back to the renderer and stored in plain `connections.json`.
 */
const baseUrlSchema = z
  .url({ protocol: /^https?$/, error: 'The base URL must start with http:// or https://' })
  // zod's url check lets some addresses through that URL cannot parse (`http://[::1`); refuse them first, so
  // that the next check never throws.
  .refine((u) => URL.canParse(u), { error: 'That base URL is not a valid address', abort: true })
  .refine((u) => {
    const url = new URL(u);
    return url.username === '' && url.password === '';
  }, 'Put the API key in its own field, not in the base URL');
const refused = z.object({ refused: z.literal(true), message: z.string() });

/** The query of a table view; every change opens a new view (a new page chain). */
export const viewQuerySchema = z.object({
  view: z.string().min(1).optional(),
  fields: z.array(z.string().min(1)).optional(),
  sort: z.array(sortSpecSchema).optional(),
  formula: z.string().max(16_000).optional(),
});
export type ViewQuery = z.infer<typeof viewQuerySchema>;

export const appChannels = {
  'app.info': channel(
    empty,
    z.object({
      name: z.string(),
      version: z.string(),
      door: z.enum(['electron', 'browser']),
      platform: z.string(),
      /** Where keys are kept; `persistent: false` with a warning where the OS offers no real secret store. */
      keyStorage: z.object({ backend: z.string(), persistent: z.boolean(), warning: z.string().optional() }),
    }),
  ),

  'connections.list': channel(
    empty,
    z.object({ connections: z.array(connectionSummarySchema), defaultId: idSchema }),
  ),
  /** Adds (no id) or edits a connection. `apiKey` is write-only; left out on an edit, the stored key stays. */
  'connections.save': channel(
    z.object({
      id: idSchema.optional(),
      name: z.string().trim().min(1, 'Give the connection a name').max(200),
      baseUrl: baseUrlSchema.default('https://api.airtable.com'),
      apiKey: z.string().trim().min(1, 'The API key is empty').max(4096).optional(),
      remember: z.boolean().default(true),
    }),
    z.object({ connection: connectionSummarySchema, warning: z.string().optional() }),
  ),
  'connections.remove': channel(z.object({ id: idSchema }), z.object({ removed: z.boolean() })),
  /** Tests a saved connection (`id`), or unsaved values (`baseUrl` + `apiKey`; a missing key uses the saved one). */
  'connections.test': channel(
    z
      .object({
        id: idSchema.optional(),
        baseUrl: baseUrlSchema.optional(),
        apiKey: z.string().trim().min(1).max(4096).optional(),
      })
      .refine((r) => r.id !== undefined || r.baseUrl !== undefined, 'Give a connection id or a base URL'),
    z.object({
      ok: z.boolean(),
      message: z.string(),
      status: z.number().int().optional(),
      userId: z.string().optional(),
    }),
  ),

  /** 403 from the metadata API answers `{ refused: true }`: the user then types a base id and a table name. */
  'meta.bases': channel(
    z.object({ connectionId: idSchema }),
    z.discriminatedUnion('refused', [
      z.object({ refused: z.literal(false), bases: z.array(baseSchema) }),
      refused,
    ]),
  ),
  'meta.tables': channel(
    z.object({ connectionId: idSchema, baseId: idSchema }),
    z.discriminatedUnion('refused', [
      z.object({ refused: z.literal(false), tables: z.array(tableSchema) }),
      refused,
    ]),
  ),

  'view.open': channel(
    z.object({
      connectionId: idSchema,
      baseId: idSchema,
      table: z.string().min(1).max(500),
      query: viewQuerySchema.default({}),
    }),
    z.object({
      viewId: idSchema,
      columns: z.array(columnSchema),
      /** The primary field's name when the schema is known. */
      primaryField: z.string().optional(),
      pageSize: z.number().int(),
    }),
  ),
  /**
   * Rows [start, end): waits for the pages that hold them; a far jump walks the chain forward first. With the
   * rows on `screen`, rows read where they are may come as the run held around those on screen, from `first`:
   * the rest are read when they come on screen. `screen.within` is the stretch of rows the grid shows around
   * the screen without a break (a grouped view leaves out its collapsed groups' records): a read for the
   * screen stays in it.
   */
  'view.rows': channel(
    z
      .object({
        viewId: idSchema,
        start: z.number().int().min(0),
        end: z.number().int().min(0),
        screen: z
          .object({
            start: z.number().int().min(0),
            end: z.number().int().min(0),
            within: z.object({ start: z.number().int().min(0), end: z.number().int().min(0) }).optional(),
          })
          .refine((s) => s.end > s.start && s.end - s.start <= 1000, 'A screen of 1 to 1000 rows')
          .refine(
            (s) => s.within === undefined || (s.within.start <= s.start && s.within.end >= s.end),
            'A screen within the rows shown around it',
          )
          .optional(),
      })
      .refine(
        (r) => r.end >= r.start && r.end - r.start <= 1000,
        'Ask for at most 1000 rows, with end ≥ start',
      ),
    z.object({
      records: z.array(recordSchema),
      /** Where `records` start when not at `start` (rows before them are not read yet). */
      first: z.number().int().optional(),
      /** Known once the page without an offset has arrived. */
      rowCount: z.number().int().optional(),
      loaded: z.number().int(),
    }),
  ),
  'view.close': channel(z.object({ viewId: idSchema }), z.object({ closed: z.boolean() })),
  /** Counts the view now: the user asked for it (after declining the walk's cost before). */
  'view.countNow': channel(z.object({ viewId: idSchema }), z.object({ started: z.boolean() })),
} as const;

export const appEvents = {
  'view.state': z.object({
    viewId: idSchema,
    loaded: z.number().int(),
    total: z.number().int().optional(),
    /** 1-based page number being fetched while the chain walks forward. */
    loadingPage: z.number().int().optional(),
    error: channelErrorSchema.optional(),
    /** Present when inferred columns grew (schema refused). */
    columns: z.array(columnSchema).optional(),
  }),
  /** The view's record count (its named view and formula): exact, or at least `count` while it is walked. */
  'view.count': z.object({
    viewId: idSchema,
    count: z.number().int(),
    exact: z.boolean(),
    /** The walk that counts the view was not agreed to (its calls); `view.countNow` starts it. */
    declined: z.boolean().optional(),
  }),
  'client.status': z.object({
    connectionId: idSchema,
    queued: z.number().int(),
    inFlight: z.number().int(),
    ratePerSecond: z.number(),
    pausedUntil: z.number().optional(),
    lastError: z.string().optional(),
  }),
} as const;
