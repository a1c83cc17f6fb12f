/**
 * The cost quoted before deleting a whole view, against the requests that reach the hosted service (a local
 * server playing it, extensions off, behind a proxy that logs every request): in a view that hides fields the
 * records are read again by id, whole, before they are deleted (so undo brings the hidden fields back), and
 * the quote counts those reads with the view's reads and the deletes.
 */
import { expect } from '@playwright/test';
import { doorTest } from './fixtures';
import { chooseFreePlan, openHostedDoor, openHostedTasks } from './hosted-door';
import { hideFields, selectWholeView } from './rows-helpers';

const RECORDS = 250;
const test = doorTest(() => openHostedDoor({ records: RECORDS, proxy: true }));
test.use({ doorName: 'delete-quote' });

test('deleting a whole view that hides fields quotes the reads by id it sends', async ({ app, door }) => {
  test.setTimeout(120_000);
  const proxy = door.hosted.proxy;
  if (!proxy) throw new Error('The door has no proxy');
  const { page } = app;
  await openHostedTasks(app);
  // Counted before the plan is said (nothing asks), so the quote knows the view's size.
  await hideFields(app, ['Notes']);
  await expect(app.status.getByTestId('row-count')).toHaveText(`${RECORDS} records`);
  await chooseFreePlan(app);

  const loaded = await selectWholeView(app, String(RECORDS));
  await app.table.getByRole('button', { name: /^Delete [\d,]+ rows$/ }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete records' });
  const quoted = Number(
    /takes about ([\d,]+) API calls/.exec(await confirm.innerText())?.[1]?.replace(/,/g, '') ?? NaN,
  );
  // The rows not loaded are read (a call per 100), all of them again by id (a call per 100), then deleted
  // (a call per 10).
  expect(quoted).toBe(Math.ceil((RECORDS - loaded) / 100) + Math.ceil(RECORDS / 100) + RECORDS / 10);

  const from = proxy.log.length;
  await confirm.getByRole('button', { name: 'Delete' }).click();
  const question = page.getByRole('region', { name: 'API calls question' });
  await expect(question.or(app.table.getByTestId('edit-message'))).toBeVisible();
  if (await question.isVisible()) await question.getByRole('button', { name: 'Go ahead' }).click();
  await expect(app.table.getByTestId('edit-message')).toHaveText(`Deleted ${RECORDS} records.`, {
    timeout: 60_000,
  });
  const sent = proxy.log.slice(from);
  const lastDelete = sent.findLastIndex((r) => r.method === 'DELETE');
  const tasks = sent
    .slice(0, lastDelete + 1)
    .filter((r) => r.path.includes('/Tasks') || r.path.includes(`/${door.hosted.baseId}/tbl`));
  const byId = tasks.filter((r) => decodeURIComponent(r.path + r.body).includes('RECORD_ID()'));
  const deletes = tasks.filter((r) => r.method === 'DELETE');
  expect({ byId: byId.length, deletes: deletes.length }).toEqual({
    byId: Math.ceil(RECORDS / 100),
    deletes: RECORDS / 10,
  });
  expect(tasks.length).toBe(quoted);
});
