/**
 * The filter builder's days in the user's calendar, run by the real local server: "this week / month / year"
 * and "within the last / next N days" keep the records whose day, in a time zone far from GMT, is in the
 * user's period (weeks from the locale's first day). Records sit every 3 hours over 5 days either side of
 * now, so each side of the local midnights near now is there; what each formula should keep is worked out
 * here with Intl alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFilter, type Calendar, type Condition, type Filter } from '../../../core/formula/builder';
import { startLocalServer, type LocalServer } from '../../support/local-server';

interface Rec {
  id: string;
  fields: Record<string, unknown>;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PROBE = 'Zone probe';
const FIELDS = [
  { name: 'Name', type: 'singleLineText' },
  { name: 'Due', type: 'date' },
  { name: 'Started at', type: 'dateTime' },
];

let s: LocalServer;
const made: { id: string; at: number }[] = [];

async function kept(formula: string): Promise<string[]> {
  const out: Rec[] = [];
  let offset: string | undefined;
  do {
    const q = `pageSize=100&fields[]=Name&filterByFormula=${encodeURIComponent(formula)}`;
    const r = await s.request<{ records: Rec[]; offset?: string }>(
      'GET',
      `/v0/${s.baseId}/Tasks?${q}${offset ? `&offset=${offset}` : ''}`,
    );
    expect(r.status, r.text).toBe(200);
    out.push(...r.body.records);
    offset = r.body.offset;
  } while (offset);
  return out.map((r) => r.id).sort();
}

beforeAll(async () => {
  s = await startLocalServer({ demo: { largeTableRecords: 20 } });
  const now = Date.now();
  const ats = Array.from({ length: 81 }, (_, i) => now + (i - 40) * 3 * HOUR + 7 * 60_000);
  for (let i = 0; i < ats.length; i += 10) {
    const batch = ats.slice(i, i + 10);
    const r = await s.request<{ records: Rec[] }>('POST', `/v0/${s.baseId}/Tasks`, {
      records: batch.map((at) => ({ fields: { Name: PROBE, 'Started at': new Date(at).toISOString() } })),
    });
    expect(r.status, r.text).toBe(200);
    made.push(...r.body.records.map((rec, j) => ({ id: rec.id, at: batch[j] as number })));
  }
});

afterAll(async () => {
  await s.close();
});

const day = (ms: number, timeZone: string) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    ms,
  );
const dayNumber = (d: string) => Date.parse(`${d}T00:00:00Z`) / DAY;
const weekOf = (n: number, firstDay: number) => n - ((((n + 4) % 7) - firstDay + 7) % 7);

function keeps(c: Condition, at: number, now: number, cal: Calendar): boolean {
  const [d, t] = [dayNumber(day(at, cal.timeZone)), dayNumber(day(now, cal.timeZone))];
  const [dd, td] = [day(at, cal.timeZone), day(now, cal.timeZone)];
  if (c.op === 'thisWeek') return weekOf(d, cal.firstDay) === weekOf(t, cal.firstDay);
  if (c.op === 'thisMonth') return dd.slice(0, 7) === td.slice(0, 7);
  if (c.op === 'thisYear') return dd.slice(0, 4) === td.slice(0, 4);
  if (c.op === 'lastDays') return t - d >= 0 && t - d <= c.days;
  if (c.op === 'nextDays') return d - t >= 0 && d - t <= c.days;
  throw new Error(c.op);
}

describe("the filter builder's days on the local server, in the user's calendar", () => {
  it.each([
    { timeZone: 'Pacific/Kiritimati', firstDay: 1 },
    { timeZone: 'Pacific/Pago_Pago', firstDay: 0 },
    { timeZone: 'Asia/Tehran', firstDay: 6 },
  ])('$timeZone, weeks from day $firstDay', async (cal) => {
    const conditions: Condition[] = [
      { field: 'Started at', op: 'thisWeek' },
      { field: 'Started at', op: 'thisMonth' },
      { field: 'Started at', op: 'thisYear' },
      { field: 'Started at', op: 'lastDays', days: 2 },
      { field: 'Started at', op: 'nextDays', days: 1 },
    ];
    for (const c of conditions) {
      const filter: Filter = { join: 'AND', items: [{ field: 'Name', op: 'is', text: PROBE }, c] };
      const formula = writeFilter(filter, FIELDS, cal);
      // A local midnight passing during the request would change the answer: asked again then.
      for (;;) {
        const before = day(Date.now(), cal.timeZone);
        const ids = await kept(formula);
        const now = Date.now();
        if (day(now, cal.timeZone) !== before) continue;
        const want = made
          .filter((r) => keeps(c, r.at, now, cal))
          .map((r) => r.id)
          .sort();
        expect(ids, formula).toEqual(want);
        break;
      }
    }
  });
});
