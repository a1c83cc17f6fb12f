/**
 * A daily user far from GMT (Kiritimati, UTC+14, with a British locale whose weeks start on Monday) filters by
 * date as they read dates: the builder's "is this week" keeps the records whose day, in the user's zone, is in
 * the user's week from Monday; "is" a day keeps that local day; and the formula the bar sends says so (the
 * zone and the week's first day), which the real local server evaluates. Records sit every 6 hours over 5 days
 * either side of now, so each side of the local midnights near now is there; what should be kept is worked
 * out here with Intl alone. "Filter by this value" on a date-time takes the day the cell shows, too.
 */
import type { AppPage } from './app-page';
import { expect, test } from './edit-fixtures';
import { showCell } from './edit-helpers';

const ZONE = 'Pacific/Kiritimati';
test.use({ doorName: 'filter-dates', timezoneId: ZONE, locale: 'en-GB' });

const TASKS = 'Tasks';
const PROBE = 'Week probe';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const localDay = (ms: number) =>
  new Intl.DateTimeFormat('sv-SE', {
    timeZone: ZONE,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(ms);
const dayNumber = (d: string) => Date.parse(`${d}T00:00:00Z`) / DAY;
/** The Monday starting the week of a day number (day 0, 1970-01-01, was a Thursday). */
const monday = (n: number) => n - ((n + 3) % 7);
const records = (n: number) => (n === 1 ? '1 record' : `${n} records`);

async function openBuilder(app: AppPage) {
  const panel = app.table.getByRole('dialog', { name: 'Filter builder' });
  if (!(await panel.isVisible())) await app.table.getByRole('button', { name: 'Filter builder' }).click();
  return panel;
}

test("this week and a day are the user's: their zone, weeks from their locale's first day", async ({
  app,
  door,
}) => {
  const now = Date.now();
  const ats = Array.from({ length: 41 }, (_, i) => now + (i - 20) * 6 * HOUR + 7 * 60_000);
  await door.create(
    TASKS,
    ats.map((at, i) => ({ Name: `${PROBE} ${i}`, 'Started at': new Date(at).toISOString() })),
  );
  const thisWeek = (at: number) =>
    monday(dayNumber(localDay(at))) === monday(dayNumber(localDay(Date.now())));
  const today = (at: number) => localDay(at) === localDay(Date.now());

  await app.openTable(TASKS);
  const panel = await openBuilder(app);
  await panel.getByRole('button', { name: 'Add condition', exact: true }).click();
  const first = panel.getByRole('group', { name: 'Condition 1', exact: true });
  await first.getByLabel('Field').selectOption('Name');
  await first.getByLabel('Operator').selectOption({ label: 'contains' });
  await first.getByLabel('Text').fill(PROBE);
  await panel.getByRole('button', { name: 'Add condition', exact: true }).click();
  const second = panel.getByRole('group', { name: 'Condition 2', exact: true });
  await second.getByLabel('Field').selectOption('Started at');
  await second.getByLabel('Operator').selectOption({ label: 'is this week' });
  await panel.getByRole('button', { name: 'Apply conditions' }).click();
  await expect(panel).toBeHidden();

  const count = app.status.getByTestId('row-count');
  // Worked out again at each look, so a local midnight passing meanwhile cannot fail it.
  await expect
    .poll(async () => (await count.innerText()) === records(ats.filter(thisWeek).length))
    .toBe(true);
  // The week from Monday, of days in the user's zone.
  await expect(app.formula).toHaveValue(new RegExp(`SET_TIMEZONE\\(\\{Started at\\}, '${ZONE}'\\)`));
  await expect(app.formula).toHaveValue(/WEEKDAY\([^()]*\([^()]*\([^()]*\)[^()]*\), 'Monday'\)/);
  // The server keeps, for the formula the bar sent, the records worked out here; GMT's Sunday-to-Saturday
  // week keeps others (a week's ends are 10 hours apart, and one end is always within the records' span).
  const sent = await app.formula.inputValue();
  const served = (await door.records(TASKS, { formula: sent, fields: ['Started at'] }))
    .map((r) => Date.parse(String(r.fields['Started at'])))
    .sort((x, y) => x - y);
  expect(served).toEqual(ats.filter(thisWeek));
  const gmtSunday = (at: number) => {
    const n = Math.floor(at / DAY);
    return n - ((n + 4) % 7);
  };
  expect(ats.filter((at) => gmtSunday(at) === gmtSunday(Date.now()))).not.toEqual(served);

  // Reopened, the builder reads its own formula back; "is" today's local day keeps that day's records.
  await openBuilder(app);
  await expect(second.getByLabel('Operator')).toHaveValue('thisWeek');
  await second.getByLabel('Operator').selectOption({ label: 'is' });
  await second.getByLabel('Day').fill(localDay(Date.now()));
  await panel.getByRole('button', { name: 'Apply conditions' }).click();
  await expect(panel).toBeHidden();
  await expect.poll(async () => (await count.innerText()) === records(ats.filter(today).length)).toBe(true);
  // The rows show that day, as the grid writes dates in the user's zone and locale.
  await expect(await showCell(app, 0, 'Started at')).toContainText(
    new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, dateStyle: 'medium' }).format(Date.now()),
  );

  // "Filter by this value" on such a cell takes the day the cell shows, in the user's zone.
  const applied = await app.formula.inputValue();
  await (await showCell(app, 0, 'Started at')).click({ button: 'right' });
  await app.page
    .getByRole('menu', { name: 'Started at, row 1' })
    .getByRole('menuitem', { name: 'Filter by this value' })
    .click();
  const day = `DATETIME_FORMAT(SET_TIMEZONE({Started at}, '${ZONE}'), 'YYYY-MM-DD')`;
  await expect(app.formula).toHaveValue(`AND(${applied}, IS_SAME(${day}, '${localDay(Date.now())}', 'day'))`);
});
