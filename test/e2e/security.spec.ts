/**
 * After browsing, the local server's API key appears nowhere in the renderer: not in the DOM (nor any input's
 * value), window globals, localStorage, sessionStorage, cookies, IndexedDB, nor any WebSocket frame in
 * either direction. And another server on 127.0.0.1 (another port, so another origin) gets no token and can
 * neither open the door's socket nor read its page.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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

test('another local origin gets no token and can neither open the door nor read it', async ({
  app,
  door,
}) => {
  // A web server on another port of 127.0.0.1 (a dev server, another local app) that the user visits.
  const seen: string[] = [];
  const other = createServer((req, res) => {
    seen.push(JSON.stringify(req.headers));
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Other</title>');
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  const otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  const token = new URL(door.url).searchParams.get('token')!;
  try {
    await app.openTable('Tasks');
    const page = await app.page.context().newPage();
    await page.goto(`${otherOrigin}/`);
    // The browser sent the other server nothing of the door's (cookies ignore ports; the door sets none).
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.join('\n')).not.toContain(token);

    const doorOrigin = new URL(door.url).origin;
    const attempt = `(async ({ doorOrigin, token }) => {
      const socket = (protocols) => new Promise((resolve) => {
        const ws = new WebSocket(doorOrigin.replace('http', 'ws') + '/tabledesk-socket', protocols);
        ws.onopen = () => { ws.close(); resolve('open'); };
        ws.onerror = () => resolve('refused');
      });
      let read = 'unreadable';
      try {
        const r = await fetch(doorOrigin + '/?token=' + token);
        read = await r.text();
      } catch { read = 'unreadable'; }
      return {
        guessed: await socket(['tabledesk.v1']),
        // Even with the token (say it leaked some other way), the Origin is not the door's.
        withToken: await socket(['tabledesk.v1', 'tabledesk.token.' + token]),
        read,
      };
    })`;
    const result = await page.evaluate(`${attempt}(${JSON.stringify({ doorOrigin, token })})`);
    expect(result).toEqual({ guessed: 'refused', withToken: 'refused', read: 'unreadable' });
    await page.close();
  } finally {
    other.close();
  }
});
