/**
 * Linked records through the browser door: names in the grid, the copied text and the record form;
 * click-through to a linked record and Back; picking and removing links (read back from the server), a
 * lookup following the new link; pasting names back as links.
 */
import type { RecordData } from '../../core/records/types';
import type { AppPage } from './app-page';
import type { EditDoor } from './edit-door';
import { expect, test } from './edit-fixtures';
import { showCell, startEditing, typeInto } from './edit-helpers';
import { copyText, pasteText } from './rows-helpers';

const links = (r: RecordData | undefined, field: string) => (r?.fields[field] as string[] | undefined) ?? [];

async function tables(door: EditDoor) {
  const [tasks, people, teams] = await Promise.all(['Tasks', 'People', 'Teams'].map((t) => door.records(t)));
  const name = new Map([...people!, ...teams!].map((r) => [r.id, String(r.fields['Name'])]));
  return { tasks: tasks!, people: people!, name };
}

/** Focuses a cell by a click beside its chips (a click on a chip opens the linked record). */
async function focusCell(app: AppPage, row: number, column: string) {
  const cell = await showCell(app, row, column);
  const box = (await cell.boundingBox())!;
  await cell.click({ position: { x: box.width - 3, y: box.height / 2 } });
  return cell;
}

const chipTexts = (app: AppPage, row: number, column: string) =>
  app.cell(row, column).locator('.td-chip-link').allTextContents();

test('the grid, the copied text and the record form name linked records; a chip opens its record, with Back', async ({
  app,
  door,
}, info) => {
  await app.openTable('Tasks');
  const { tasks, name } = await tables(door);
  const row = await app.rowIds(3);
  const index = row.findIndex(
    (id) =>
      links(
        tasks.find((t) => t.id === id),
        'Assignee',
      ).length > 0,
  );
  const task = tasks.find((t) => t.id === row[index])!;
  const assignees = links(task, 'Assignee');
  const names = assignees.map((id) => name.get(id)!);

  // Shown first by id, the cells on screen are redrawn with the names when they come, with no scrolling.
  await expect(app.cell(index, 'Assignee')).toBeVisible();
  await expect.poll(() => chipTexts(app, index, 'Assignee')).toEqual(names);
  await showCell(app, index, 'Team');
  // A task's team, looked up through its assignee, is named too.
  await expect(app.cell(index, 'Team').locator('.td-chip-link').first()).not.toHaveText(/^rec/);
  const cell = await focusCell(app, index, 'Assignee');
  await expect.poll(() => chipTexts(app, index, 'Assignee')).toEqual(names);
  expect(await copyText(app)).toBe(names.map((n) => (/[",]/.test(n) ? `"${n}"` : n)).join(', '));

  // The record form: the same names, as chips that open the person.
  await cell.press('Space');
  const form = app.page.getByRole('dialog', { name: 'Record' });
  await expect(form.getByRole('group', { name: 'Assignee' }).getByRole('button')).toHaveText(names);
  await form
    .getByRole('group', { name: 'Assignee' })
    .getByRole('button', { name: names[0], exact: true })
    .click();
  const linked = app.page.getByRole('dialog', { name: 'Linked record' });
  await expect(linked.getByRole('heading', { name: names[0] })).toBeVisible();
  // The person's form lists the tasks that link to them, this one among them.
  const linkedFrom = linked.getByRole('region', { name: 'Linked from' });
  await expect(linkedFrom).toContainText('Tasks · Assignee');
  await expect(
    linkedFrom.getByRole('button', { name: String(task.fields['Name']), exact: true }),
  ).toBeVisible();
  await app.screenshot(info, 'links-01-linked-record');

  // Deeper: the task again from the person's list, then Back, Back: the task's own form is still open.
  await linkedFrom.getByRole('button', { name: String(task.fields['Name']), exact: true }).click();
  await expect(linked.getByRole('heading', { name: String(task.fields['Name']) })).toBeVisible();
  await linked.getByRole('button', { name: 'Back' }).click();
  await expect(linked.getByRole('heading', { name: names[0] })).toBeVisible();
  await linked.getByRole('button', { name: 'Back' }).click();
  await expect(linked).toBeHidden();
  await expect(form).toBeVisible();
  await form.getByRole('button', { name: 'Close' }).click();

  // A chip in the grid opens its record as well.
  await app.cell(index, 'Assignee').locator('.td-chip-link').first().click();
  await expect(linked.getByRole('heading', { name: names[0] })).toBeVisible();
  await linked.press('Escape');
  await expect(linked).toBeHidden();
});

test('the picker links and unlinks records, saved on the server, and the lookup follows', async ({
  app,
  door,
}, info) => {
  await app.openTable('Tasks');
  const { people, name } = await tables(door);
  const id = (await app.rowId(1))!;
  const person = people.find((p) => links(p, 'Team').length === 1 && !links(p, 'Tasks').includes(id))!;
  const personName = name.get(person.id)!;
  const teamName = name.get(links(person, 'Team')[0]!)!;

  const picker = await startEditing(app, 1, 'Assignee');
  for (const remove of await picker.getByRole('button', { name: /^Remove / }).all()) await remove.click();
  await expect(picker.getByRole('button', { name: /^Remove / })).toHaveCount(0);
  await picker.getByRole('searchbox', { name: 'Find a record' }).fill(personName.slice(0, -1));
  await picker
    .getByRole('list', { name: 'Records' })
    .getByRole('button', { name: personName, exact: true })
    .click();
  await expect(picker.getByRole('group', { name: 'Linked' })).toHaveText(`${personName}×`);
  await app.screenshot(info, 'links-02-picker');
  await picker.getByRole('button', { name: 'Done' }).click();

  await expect
    .poll(async () =>
      links(
        (await door.records('Tasks')).find((r) => r.id === id),
        'Assignee',
      ),
    )
    .toEqual([person.id]);
  await expect.poll(() => chipTexts(app, 1, 'Assignee')).toEqual([personName]);
  // The lookup through the new link: the person's team, by name.
  await showCell(app, 1, 'Team');
  await expect.poll(() => chipTexts(app, 1, 'Team')).toEqual([teamName]);

  const again = await startEditing(app, 1, 'Assignee');
  await again.getByRole('button', { name: `Remove ${personName}` }).click();
  await again.getByRole('button', { name: 'Done' }).click();
  await expect
    .poll(async () =>
      links(
        (await door.records('Tasks')).find((r) => r.id === id),
        'Assignee',
      ),
    )
    .toEqual([]);
  await expect.poll(() => chipTexts(app, 1, 'Team')).toEqual([]);
});

test('names pasted into a link cell link those records; an unknown name is skipped with the reason', async ({
  app,
  door,
}) => {
  await app.openTable('Tasks');
  const { people, name } = await tables(door);
  const id = (await app.rowId(2))!;
  const two = people.slice(0, 2);
  await focusCell(app, 2, 'Assignee');
  await pasteText(app, two.map((p) => name.get(p.id)).join(', '));
  await expect
    .poll(async () =>
      links(
        (await door.records('Tasks')).find((r) => r.id === id),
        'Assignee',
      ),
    )
    .toEqual(two.map((p) => p.id));

  await focusCell(app, 2, 'Assignee');
  await pasteText(app, `${name.get(two[0]!.id)}, Nobody Bythat-Name`);
  await expect(app.page.getByText('no linked record named "Nobody Bythat-Name"')).toBeVisible();
  expect(
    links(
      (await door.records('Tasks')).find((r) => r.id === id),
      'Assignee',
    ),
  ).toEqual(two.map((p) => p.id));
});

test('a record renamed in its own tab is renamed in the link cells of another', async ({ app, door }) => {
  await app.openTable('People');
  const person = (await app.rowId(0))!;
  await app.page.getByRole('tab', { name: 'Tables' }).click();
  await app.openTable('Tasks');
  const id = (await app.rowId(3))!;
  await focusCell(app, 3, 'Assignee');
  await pasteText(app, person);
  await expect
    .poll(async () =>
      links(
        (await door.records('Tasks')).find((r) => r.id === id),
        'Assignee',
      ),
    )
    .toEqual([person]);

  await app.page.getByRole('tab', { name: 'People' }).click();
  await typeInto(app, 0, 'Name', 'Renamed In Place');
  await expect
    .poll(async () => (await door.records('People')).find((r) => r.id === person)?.fields['Name'])
    .toBe('Renamed In Place');
  await app.page.getByRole('tab', { name: 'Tasks' }).click();
  await expect.poll(() => chipTexts(app, 3, 'Assignee')).toEqual(['Renamed In Place']);
});
