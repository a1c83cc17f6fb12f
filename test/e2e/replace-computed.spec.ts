/**
 * Find and replace over a whole view whose fields are of every kind (issue 22, item 7), as a person does it:
 * lookups, formulas, created and modified times, the autonumber (computed) and links are left out and named
 * once, none counted as a refused change; what the preview lists is what the service then holds.
 */
import { expect, test } from './edit-fixtures';
import { openReplaceDialog } from './replace-helpers';

test.use({ doorName: 'replace-computed' });

const TASKS = 'Tasks';

test('a whole-view replace leaves every computed field and link out, said once, and does what it previewed', async ({
  app,
  door,
}) => {
  // Three tasks whose Name and Notes hold "quoll", and so their Labels (a formula over the Name) too.
  const [person] = await door.records('People');
  const made = await door.create(
    TASKS,
    [1, 2, 3].map((i) => ({
      Name: `Quoll survey ${i}`,
      Notes: `Count every quoll on site ${i}`,
      Status: 'Todo',
      Assignee: [person!.id],
    })),
  );
  await app.openTable(TASKS);
  await app.formula.fill("FIND('Quoll survey', {Name})");
  await app.formula.press('Enter');
  await expect(app.status.getByTestId('row-count')).toHaveText('3 records');

  const dialog = await openReplaceDialog(app);
  await dialog.getByLabel('Find').fill('quoll');
  await dialog.getByLabel('Replace with').fill('numbat');
  await dialog.getByLabel('Replace in').selectOption('view');
  await dialog.getByRole('button', { name: 'Preview' }).click();
  const summary = dialog.getByTestId('replace-summary');
  await expect(summary).toContainText('6 changes in 3 records');
  await expect(summary).not.toContainText('refused');
  await expect(dialog.getByRole('table', { name: 'Refused changes' })).toHaveCount(0);

  // Left out, each named once in one line: the link, and every computed field (lookup, formulas, times,
  // autonumber), though the Label shows "Quoll".
  const leftOut = dialog.getByTestId('replace-left-out');
  await expect(leftOut).toHaveCount(1);
  await expect(leftOut).toContainText('Assignee (link to another record)');
  const computed = ['Task #', 'Created', 'Last modified', 'Label', 'Value', 'Team'];
  await expect(leftOut).toContainText(`${computed.join(', ')} (computed)`);
  for (const field of ['Assignee', ...computed])
    expect((await leftOut.textContent())?.split(field).length, field).toBe(2);

  // What the preview lists, by record and field: only Name and Notes.
  const rows = dialog.getByRole('table', { name: 'Changes' }).locator('tbody tr');
  await expect(rows).toHaveCount(6);
  const listed = await rows.evaluateAll((trs) =>
    trs.map((tr) => {
      const [record, field, change] = [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '');
      return { record, field, after: change?.split(' → ')[1] ?? '' };
    }),
  );
  expect(new Set(listed.map((l) => l.field))).toEqual(new Set(['Name', 'Notes']));

  await dialog.getByRole('button', { name: 'Replace in 3 records' }).click();
  await expect(dialog.getByTestId('replace-status')).toContainText('Replaced in 3 records.');

  // The service holds what was previewed, and the computed fields followed by themselves.
  const ids = new Set(made.map((r) => r.id));
  const names = new Map(made.map((r) => [String(r.fields['Name']), r.id]));
  await expect
    .poll(async () => {
      const stored = new Map((await door.records(TASKS)).filter((r) => ids.has(r.id)).map((r) => [r.id, r]));
      return listed.every((l) => {
        const record = stored.get(names.get(l.record ?? '') ?? '');
        return record !== undefined && record.fields[l.field ?? ''] === l.after;
      });
    })
    .toBe(true);
  const after = (await door.records(TASKS)).filter((r) => ids.has(r.id));
  for (const r of after) {
    expect(String(r.fields['Label'])).toBe(`Todo: ${String(r.fields['Name'])}`);
    expect(r.fields['Assignee']).toEqual([person!.id]);
  }
});
