/**
 * After browsing, the local server's API key appears nowhere in the renderer: not in the DOM (nor any input's
 * value), window globals, localStorage, sessionStorage, cookies, IndexedDB, nor any WebSocket frame in
 * either direction.
 */
import { expect, test } from './fixtures';

test('the API key never reaches the renderer', async ({ app, door }, info) => {
  const key = door.server.apiKey;
  expect(key.length).toBeGreaterThan(10);

  await app.openTable('Tasks');
  await app.table.getByRole('spinbutton', { name: 'Go to row' }).fill('450');
  await app.table.getByRole('spinbutton', { name: 'Go to row' }).press('Enter');
  await expect(app.row(449)).toBeVisible();
  await app.formula.fill("{Status} = 'Todo'");
  await app.table.getByRole('button', { name: 'Apply' }).click();
  await expect(app.cell(0, 'Status')).toHaveText('Todo');
  await app.page.getByRole('tab', { name: 'Tables' }).click();
  await app.page.getByRole('button', { name: 'Test', exact: true }).first().click();
  await expect(app.page.getByRole('status').first()).toBeVisible();
  await app.openTable('People');
  await app.screenshot(info, 'after-browsing');

  // Runs in the page, where values live that neither the DOM text nor the storage state shows: input values
  // (a typed key would sit there), every global reachable by name, sessionStorage. A string keeps the Node
  // typecheck free of DOM types.
  const inPage = `(() => {
    const out = [];
    for (const e of document.querySelectorAll('input, textarea, select')) out.push(e.value);
    for (const name of Object.getOwnPropertyNames(window)) {
      try {
        const v = window[name];
        if (typeof v === 'string') out.push(v);
        else if (v && typeof v === 'object' && !(v instanceof Node) && v !== window) out.push(JSON.stringify(v) ?? '');
      } catch { out.push(name); }
    }
    out.push(JSON.stringify({ ...sessionStorage }), document.cookie);
    return out.join('\\n');
  })()`;
  const renderer: Record<string, string> = {
    dom: await app.page.content(),
    'inputs, globals, sessionStorage and cookies': String(await app.page.evaluate(inPage)),
    // localStorage and IndexedDB of every origin the page used, as Playwright reads them.
    'localStorage and IndexedDB': JSON.stringify(await app.page.context().storageState({ indexedDB: true })),
  };

  expect(renderer['dom']).toContain('Tasks');
  for (const [where, text] of Object.entries(renderer)) {
    expect(text.includes(key), `the API key is in the renderer's ${where}`).toBe(false);
  }
  const frames = app.frames.map((f) => f.payload);
  expect(frames.length).toBeGreaterThan(10);
  expect(frames.some((f) => f.includes('view.rows'))).toBe(true);
  expect(frames.filter((f) => f.includes(key))).toEqual([]);
});
