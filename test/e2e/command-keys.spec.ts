/**
 * The keys the command table took over from hand-written handlers (issue 27), pressed as a person presses them:
 * Esc in Go to row's box stops a walk to a far row; in the formula bar, Ctrl+Space asks for suggestions, Enter
 * applies, and Esc puts back the formula applied. Each key is read from the table (commands/table.ts) alone, so
 * taking its entry's keys away breaks this spec.
 */
import { asHostedService } from '../support/fault-proxy';
import type { FaultProxy } from '../support/fault-proxy';
import { launchProxiedDoor } from './door';
import type { TestDoor } from './door';
import { doorTest, expect } from './fixtures';

const HOSTED = 'Hosted-like';

type KeysDoor = TestDoor & { proxy: FaultProxy };

const test = doorTest((): Promise<KeysDoor> =>
  launchProxiedDoor({ embedded: { rateLimit: 5, memory: true, largeTableRecords: 3000 } }, HOSTED),
);
test.use({ doorName: 'command-keys' });

test.beforeEach(({ door }) => {
  door.proxy.reset();
  door.proxy.latencyMs = 0;
  // As the hosted service: no seek, so a far row is reached by a walk that Esc can stop.
  asHostedService(door.proxy);
});

test("Esc in Go to row's box stops the walk to a far row and leaves the box ready for another", async ({
  app,
  door,
}) => {
  // Every answer takes 400 ms: the walk to row 2,900 takes some seconds.
  door.proxy.latencyMs = 400;
  await app.openConnection(HOSTED);
  await app.openTable('Tasks');
  const firstId = await app.rowId(0);
  const box = app.table.getByRole('spinbutton', { name: 'Go to row' });
  // Esc with no walk going does nothing to the box's number.
  await app.page.keyboard.press('Control+g');
  await expect(box).toBeFocused();
  await app.page.keyboard.type('2900');
  await app.page.keyboard.press('Escape');
  await expect(box).toHaveValue('2900');

  await app.page.keyboard.press('Enter');
  const panel = app.table.getByRole('status', { name: 'Going to row' });
  await expect(panel).toContainText('Going to row 2,900');
  await expect(box).toBeFocused();
  await app.page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(box).toBeFocused();
  // Stopped: the grid stays where it was, and the far row never comes.
  expect(await app.rowId(0)).toBe(firstId);
  await expect(app.table.locator('.ag-row[row-index="2899"]')).toHaveCount(0);
  await expect(app.table.locator('.ag-row.td-row-arrived')).toHaveCount(0);
});

test('in the formula bar Ctrl+Space suggests, Enter applies and Esc puts back the formula applied', async ({
  app,
}) => {
  await app.openTable('Tasks');
  const bar = app.formula;
  const suggestions = app.table.getByRole('listbox', { name: 'Completions' });
  await bar.click();
  await app.page.keyboard.type('{Poi');
  // Typing suggests by itself; Esc closes the list and keeps the text.
  await expect(suggestions).toBeVisible();
  await app.page.keyboard.press('Escape');
  await expect(suggestions).toBeHidden();
  await expect(bar).toHaveValue('{Poi');
  // Ctrl+Space asks again, and Enter takes the field.
  await app.page.keyboard.press('Control+Space');
  await expect(suggestions.getByRole('option', { name: /Points/ })).toBeVisible();
  await app.page.keyboard.press('Enter');
  await expect(suggestions).toBeHidden();
  await expect(bar).toHaveValue('{Points}');
  // The space of Ctrl+Space was not typed.
  await app.page.keyboard.type(' > 3');
  await expect(bar).toHaveValue('{Points} > 3');

  const opened = () => app.calls('view.open').map((c) => c.request['query'] as { formula?: string });
  await app.page.keyboard.press('Enter');
  await expect.poll(() => opened().at(-1)?.formula).toBe('{Points} > 3');
  const opens = opened().length;
  // More typed and not applied; Esc puts back the formula applied, and the view is not asked again.
  await app.page.keyboard.type(' * 100');
  await expect(suggestions).toBeHidden();
  await app.page.keyboard.press('Escape');
  await expect(bar).toHaveValue('{Points} > 3');
  await expect(bar).toBeFocused();
  expect(opened()).toHaveLength(opens);
  // Ctrl+Z brings the typing back, as Esc was the bar's own edit.
  await app.page.keyboard.press('Control+z');
  await expect(bar).toHaveValue('{Points} > 3 * 100');
});
