/**
 * Find and replace against the real local server: the preview reads only the records that may match, apply
 * sends PATCH batches of 10 through the edit queue, undo takes it back in one step, and a stopped replace
 * resumes without sending a record twice.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { RecordData } from '../../../core/records/types';
import { startHarness } from './harness';
import type { Harness } from './harness';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const FIELDS = [
  { name: 'Name', type: 'singleLineText' },
  { name: 'Notes', type: 'multilineText' },
];

/** Gives `count` Tasks a Name holding "alpha" (the first `skipped` of them also "skip"), straight on the server. */
async function seedAlpha(harness: Harness, count: number, skipped = 0): Promise<RecordData[]> {
  const tasks = (await harness.reader('Tasks').all({ fields: ['Name'] })).slice(0, count);
  const named = tasks.map((t, i) => ({
    id: t.id,
    fields: { Name: `${i < skipped ? 'skip ' : ''}alpha ${i}`, Notes: `note alpha ${i}` },
  }));
  for (let i = 0; i < named.length; i += 10) await harness.reader('Tasks').updateMany(named.slice(i, i + 10));
  return tasks;
}

async function settled(harness: Harness): Promise<void> {
  await harness.parts.queue.whenIdle();
}

/** The PATCH requests the server answered since `mark` (the seeding's own writes come before it). */
const patchesSince = (harness: Harness, mark: number) =>
  harness.seen.slice(mark).filter((r) => r.method === 'PATCH');

describe('find and replace through the edit queue', () => {
  it('previews only the matching records of the view, applies in PATCH batches of 10 and undoes in one step', async () => {
    h = await startHarness();
    const tasks = await seedAlpha(h, 120, 10);
    const target = h.target('Tasks');
    const mark = h.seen.length;
    const preview = await h.call('replace.preview', {
      replaceId: 'r1',
      target,
      query: { formula: "NOT(FIND('skip', {Name} & ''))" },
      fields: FIELDS,
      primaryField: 'Name',
      spec: { find: 'ALPHA (\\d+)', replacement: 'gamma-$1', regex: true },
    });
    // The service found the 110 matching records of the view: nothing else was read.
    expect(preview.read).toBe(110);
    expect(preview.recordCount).toBe(110);
    expect(preview.changeCount).toBe(220);
    expect(preview.requests).toBe(11);
    expect(preview.seconds).toBeCloseTo(11 / 5);
    expect(preview.refusedCount).toBe(0);
    expect(preview.changes[0]).toMatchObject({ field: 'Name', before: 'alpha 10', after: 'gamma-10' });
    expect(preview.changes[0]?.label).toBe('alpha 10');
    // The preview reads at background priority and writes nothing.
    expect(patchesSince(h, mark)).toHaveLength(0);
    const listed = h.seen.slice(mark).filter((r) => r.method === 'GET' || r.url.includes('listRecords'));
    expect(listed.length).toBeLessThanOrEqual(2);

    const applied = await h.call('replace.apply', { replaceId: 'r1' });
    expect(applied).toMatchObject({ state: 'done', sentCount: 110, left: 0 });
    await settled(h);
    expect(patchesSince(h, mark).length).toBeLessThanOrEqual(Math.ceil(110 / 10));
    const after = await h.snapshot('Tasks');
    tasks.forEach((t, i) => {
      const fields = after.get(t.id)!.fields;
      if (i < 10) expect(fields.Name).toBe(`skip alpha ${i}`);
      else expect([fields.Name, fields.Notes]).toEqual([`gamma-${i}`, `note gamma-${i}`]);
    });
    // Every change was journaled and marked pending in the grid before it was sent.
    const pendingMarked = new Set(
      h
        .eventsOf('edits.state')
        .filter((s) => s.pending.includes('Name'))
        .map((s) => s.recordId),
    );
    expect(pendingMarked.size).toBe(110);

    const state = await h.call('history.state', { target });
    expect(state.undoLabel).toBe('Undo edit of 110 records');
    const undone = await h.call('history.undo', { target });
    expect(undone).toMatchObject({ done: true, canUndo: false });
    await settled(h);
    const back = await h.snapshot('Tasks');
    tasks.forEach((t, i) => {
      if (i >= 10) expect(back.get(t.id)!.fields.Name).toBe(`alpha ${i}`);
    });
    // A finished replace is forgotten: applying it again is refused, not repeated.
    await expect(h.call('replace.apply', { replaceId: 'r1' })).rejects.toThrow(/preview it again/);
  });

  it('stops midway, lists what was sent, and a resume sends only the rest', async () => {
    h = await startHarness({ client: { requestsPerSecond: 5 } });
    const tasks = await seedAlpha(h, 100);
    const target = h.target('Tasks');
    const mark = h.seen.length;
    await h.call('replace.preview', {
      replaceId: 'r2',
      target,
      fields: [FIELDS[0]!],
      primaryField: 'Name',
      spec: { find: 'alpha', replacement: 'omega' },
    });
    const running = h.call('replace.apply', { replaceId: 'r2' });
    for (let i = 0; i < 200 && patchesSince(h, mark).length < 2; i++) await sleep(25);
    expect(await h.call('replace.stop', { replaceId: 'r2' })).toEqual({ stopped: true });
    const stopped = await running;
    expect(stopped.state).toBe('stopped');
    expect(stopped.sentCount).toBeGreaterThan(0);
    expect(stopped.left).toBe(100 - stopped.sentCount);
    expect(stopped.left).toBeGreaterThan(0);
    expect(stopped.sent).toHaveLength(stopped.sentCount);
    // What was handed to the queue is journaled and still goes; nothing more does.
    await settled(h);
    await sleep(300);
    const sentIds = new Set(stopped.sent.map((s) => s.recordId));
    const middle = await h.snapshot('Tasks');
    for (const t of tasks) {
      expect(middle.get(t.id)!.fields.Name).toMatch(sentIds.has(t.id) ? /^omega/ : /^alpha/);
    }
    const patchesBefore = patchesSince(h, mark).length;
    expect(patchesBefore).toBe(Math.ceil(stopped.sentCount / 10));

    const resumed = await h.call('replace.apply', { replaceId: 'r2' });
    expect(resumed).toMatchObject({ state: 'done', sentCount: 100, left: 0 });
    await settled(h);
    expect(patchesSince(h, mark).length).toBeLessThanOrEqual(10);
    const saved = h.eventsOf('edits.saved').map((e) => e.recordId);
    expect(saved).toHaveLength(100);
    expect(new Set(saved).size).toBe(100);
    const end = await h.snapshot('Tasks');
    tasks.forEach((t, i) => expect(end.get(t.id)!.fields.Name).toBe(`omega ${i}`));
    // Stopped and resumed, it is still one undo step.
    expect((await h.call('history.state', { target })).undoLabel).toBe('Undo edit of 100 records');
  });

  it('refuses in the preview what does not fit the field, and never sends it', async () => {
    h = await startHarness();
    const [task] = await seedAlpha(h, 1);
    await h.reader('Tasks').updateMany([{ id: task!.id, fields: { Points: 15, Status: 'Todo' } }]);
    const target = h.target('Tasks');
    const mark = h.seen.length;
    const preview = await h.call('replace.preview', {
      replaceId: 'r3',
      target,
      recordIds: [task!.id],
      fields: [
        { name: 'Points', type: 'number' },
        { name: 'Status', type: 'singleSelect', options: { choices: [{ name: 'Todo' }, { name: 'Done' }] } },
        { name: 'Label', type: 'formula' },
      ],
      spec: { find: '^(\\d+|Todo)$', replacement: 'x$1', regex: true },
    });
    expect(preview.read).toBe(1);
    expect(preview.recordCount).toBe(0);
    expect(preview.requests).toBe(0);
    expect(preview.refused.map((r) => [r.field, r.reason])).toEqual([
      ['Points', '"x15" is not a number (Points is a number field)'],
      ['Status', '"xTodo" is not a choice of Status'],
    ]);
    expect(preview.leftOut).toEqual([{ field: 'Label', reason: 'computed' }]);
    const applied = await h.call('replace.apply', { replaceId: 'r3' });
    expect(applied).toMatchObject({ state: 'done', sentCount: 0 });
    expect(patchesSince(h, mark)).toHaveLength(0);
    await expect(
      h.call('replace.preview', {
        replaceId: 'r4',
        target,
        fields: FIELDS,
        spec: { find: '(', replacement: '', regex: true },
      }),
    ).rejects.toThrow(/RE2 accepts/);
  });

  it('leaves computed fields out of the search: no refusals for them, and only they chosen reads nothing', async () => {
    h = await startHarness();
    await seedAlpha(h, 5);
    const target = h.target('Tasks');
    const fields = [
      { name: 'Name', type: 'singleLineText' },
      { name: 'Label', type: 'formula' },
    ];
    const spec = { find: 'alpha', replacement: 'omega' };
    // Label is "{Status}: {Name}", so it holds "alpha" wherever the Name does.
    const preview = await h.call('replace.preview', { replaceId: 'c1', target, fields, spec });
    expect(preview).toMatchObject({ changeCount: 5, recordCount: 5, refusedCount: 0, refused: [] });
    expect(preview.leftOut).toEqual([{ field: 'Label', reason: 'computed' }]);
    const mark = h.seen.length;
    const alone = await h.call('replace.preview', { replaceId: 'c2', target, fields: [fields[1]!], spec });
    expect(alone).toMatchObject({ read: 0, changeCount: 0, refusedCount: 0 });
    expect(alone.leftOut).toEqual([{ field: 'Label', reason: 'computed' }]);
    expect(h.seen.length - mark).toBe(0);
  });

  it('right after a cell is typed, replaces in the value typed, not the service’s older one', async () => {
    h = await startHarness();
    const [task] = await seedAlpha(h, 1);
    const target = h.target('Tasks');
    // Not awaited: the edit is being journaled, or waits for a pause in typing, when Replace all is clicked.
    const edit = h.call('edits.edit', {
      target,
      changes: [{ recordId: task!.id, fields: { Name: 'alpha typed' } }],
    });
    const preview = await h.call('replace.preview', {
      replaceId: 't1',
      target,
      recordIds: [task!.id],
      fields: [FIELDS[0]!],
      spec: { find: 'alpha', replacement: 'omega' },
    });
    await edit;
    expect(preview.changes).toMatchObject([{ before: 'alpha typed', after: 'omega typed' }]);
    await h.call('replace.apply', { replaceId: 't1' });
    await settled(h);
    expect((await h.snapshot('Tasks')).get(task!.id)!.fields.Name).toBe('omega typed');
  });
});

describe('a cell edited between the preview and Apply', () => {
  it('is left as edited, and the apply names it as skipped', async () => {
    h = await startHarness();
    const [typed, kept, back] = await seedAlpha(h, 3);
    const target = h.target('Tasks');
    await h.call('replace.preview', {
      replaceId: 'e1',
      target,
      fields: FIELDS,
      primaryField: 'Name',
      recordIds: [typed!.id, kept!.id, back!.id],
      spec: { find: 'alpha', replacement: 'omega' },
    });
    // After the preview: one Name typed over (still waiting in the queue when Apply is clicked), one Name typed
    // and typed back to what the preview read.
    await h.call('edits.edit', {
      target,
      changes: [{ recordId: typed!.id, fields: { Name: 'typed by hand' } }],
    });
    await h.call('edits.edit', {
      target,
      changes: [{ recordId: back!.id, fields: { Name: 'for a moment' } }],
    });
    await h.call('edits.edit', { target, changes: [{ recordId: back!.id, fields: { Name: 'alpha 2' } }] });
    const applied = await h.call('replace.apply', { replaceId: 'e1' });
    await settled(h);
    const now = await h.snapshot('Tasks');
    expect(now.get(typed!.id)!.fields).toMatchObject({ Name: 'typed by hand', Notes: 'note omega 0' });
    expect(now.get(kept!.id)!.fields).toMatchObject({ Name: 'omega 1', Notes: 'note omega 1' });
    expect(now.get(back!.id)!.fields).toMatchObject({ Name: 'omega 2', Notes: 'note omega 2' });
    expect(applied).toMatchObject({
      state: 'done',
      sentCount: 3,
      skippedCount: 1,
      skipped: [{ recordId: typed!.id, label: 'alpha 0', field: 'Name' }],
    });
  });
});

describe('a replace of more than 500 changes', () => {
  it('lists the first 500 in the preview, counts them all, and applies every one of them', async () => {
    h = await startHarness();
    const tasks = await seedAlpha(h, 260);
    const target = h.target('Tasks');
    const preview = await h.call('replace.preview', {
      replaceId: 'big',
      target,
      query: {},
      fields: FIELDS,
      primaryField: 'Name',
      spec: { find: 'alpha', replacement: 'omega' },
    });
    // Two cells of each of 260 records: 520 changes, of which the preview lists exactly 500.
    expect(preview).toMatchObject({ recordCount: 260, changeCount: 520, refusedCount: 0, requests: 26 });
    expect(preview.changes).toHaveLength(500);
    expect(new Set(preview.changes.map((c) => `${c.recordId}/${c.field}`)).size).toBe(500);
    expect(preview.changes.at(-1)).toMatchObject({ before: 'note alpha 249', after: 'note omega 249' });

    const applied = await h.call('replace.apply', { replaceId: 'big' });
    expect(applied).toMatchObject({ state: 'done', sentCount: 260, skippedCount: 0, left: 0 });
    await settled(h);
    const after = await h.snapshot('Tasks');
    tasks.forEach((t, i) => {
      expect([after.get(t.id)!.fields.Name, after.get(t.id)!.fields.Notes]).toEqual([
        `omega ${i}`,
        `note omega ${i}`,
      ]);
    });
    expect((await h.call('history.state', { target })).undoLabel).toBe('Undo edit of 260 records');
  });

  it('lists the first 500 refusals and counts them all, and sends none of them', async () => {
    h = await startHarness();
    const tasks = (await h.reader('Tasks').all({ fields: ['Name'] })).slice(0, 260);
    for (let i = 0; i < tasks.length; i += 10)
      await h
        .reader('Tasks')
        .updateMany(tasks.slice(i, i + 10).map((t) => ({ id: t.id, fields: { Points: 17, Budget: 17 } })));
    const mark = h.seen.length;
    const preview = await h.call('replace.preview', {
      replaceId: 'refused',
      target: h.target('Tasks'),
      query: { formula: '{Points} = 17' },
      fields: [
        { name: 'Points', type: 'number' },
        { name: 'Budget', type: 'currency' },
      ],
      spec: { find: '17', replacement: 'seventeen' },
    });
    expect(preview).toMatchObject({ recordCount: 0, changeCount: 0, refusedCount: 520 });
    expect(preview.refused).toHaveLength(500);
    expect(preview.refused[0]).toMatchObject({ before: '17', after: 'seventeen' });
    await h.call('replace.apply', { replaceId: 'refused' });
    expect(patchesSince(h, mark)).toHaveLength(0);
  });
});
