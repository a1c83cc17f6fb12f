/**
 * Calls a hosted workspace spends on what a person does most (issue 26): open the 50,000-record Tasks view in
 * the app (Chromium, browser door) and scroll 1,000 rows, on a Team plan, through a proxy that takes the local
 * server's extensions away (so it plays the hosted service: the count is a walk of the view's ids, 100 a call).
 * The count's question is answered "Not now" (goal: the pages shown plus at most 2) or "Go ahead" (goal: those
 * and the walk's pages plus at most 2), from the click on Tasks until no request has gone out for 3 s. Calls
 * are counted at the proxy, every one that reached it, and beside them as the app's own budget counted them
 * (its report before the click and after: the workspace's calls and the account's), with the names of linked
 * records apart; the calls of opening the connection before the click are shown too.
 */
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../playwright.config';
import type { Response } from '../core/contract';
import { launchTestDoor } from '../test/e2e/door';
import { startFaultProxy } from '../test/support/fault-proxy';
import { activeTable, rowPainted, untilQuiet } from './app-screen';
import type { BenchResult } from './result';

const ROWS = 50_000;
const PAGE = 100;
const SCROLLED_ROWS = 1000;
const ROW_PX = 32;
/** Ten rows a frame, a brisk scroll of a wheel: every block passed is on screen for a few frames. */
const STEP_ROWS = 10;
const HOSTED = 'Hosted';
/** Calls beyond the pages a person sees that the goal allows (the schema, the base's workspace). */
const SLACK = 2;
/** No request reached the proxy for this long: what the open and the scroll set going has ended. */
const QUIET_MS = 3000;
const WALK_TIMEOUT_MS = 600_000;
/** A step that never ends (a grid that stops growing, requests that never stop) fails the run instead. */
const GIVE_UP_MS = 120_000;

const firstRowPainted = `${activeTable} .ag-row[row-index="0"][row-id] .ag-cell[col-id="Name"]:not(:empty)`;

/**
 * In the page: scrolls the grid from the top by STEP_ROWS a frame until row SCROLLED_ROWS is at the top, and
 * returns the rows the viewport holds (so the last row shown is known). A string keeps DOM types out.
 */
const scrollThousandRows = `(async () => {
  const table = document.querySelector('${activeTable}');
  const scroller = [...table.querySelectorAll('.ag-root *')].find(
    (e) => e.scrollHeight > e.clientHeight + 1000 && getComputedStyle(e).overflowY !== 'hidden');
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  // The grid grows as its blocks arrive; a grid that stops growing ends the loop, and the run fails below.
  const until = performance.now() + ${GIVE_UP_MS};
  while (scroller.scrollTop < ${SCROLLED_ROWS * ROW_PX} && performance.now() < until) {
    scroller.scrollTop = Math.min(scroller.scrollTop + ${STEP_ROWS * ROW_PX}, ${SCROLLED_ROWS * ROW_PX});
    await frame();
  }
  return Math.ceil(scroller.clientHeight / ${ROW_PX});
})()`;

interface Spent {
  /** Requests that reached the proxy (the hosted service's count) from the click on Tasks. */
  proxy: number;
  /** The same span as the app's budget counted it this month. */
  budget: number;
  /** Of the budget's, the names of linked records shown in the rows. */
  names: number;
  /** Requests that reached the proxy before the click: the connection's bases, the base's schema, and so on. */
  before: number;
  /** The 100-row pages that had a row on screen. */
  pagesShown: number;
  /** The count's walk, in pages of 100 ids (0 when declined). */
  walkPages: number;
}

/** The month's calls of a budget report: every scope's and the account's; and those spent on names. */
const totals = (r: Response<'budget.report'>): { calls: number; names: number } => ({
  calls: r.scopes.reduce((n, s) => n + s.calls, 0) + r.account,
  names: r.scopes.reduce((n, s) => n + (s.purposes.names ?? 0), 0),
});

/** Waits for QUIET_MS without a request at the proxy; requests that never stop fail the run. */
async function untilProxyQuiet(page: Page, log: readonly unknown[]): Promise<void> {
  if (!(await untilQuiet(page, log, QUIET_MS, GIVE_UP_MS)))
    throw new Error(`Requests never stopped: ${log.length} in all, still going after ${GIVE_UP_MS} ms.`);
}

/** One fresh app and proxy: open Tasks, answer the count's question, scroll 1,000 rows, count the calls. */
async function openAndScroll(browser: Browser, consent: boolean): Promise<Spent> {
  const { app, ...door } = await launchTestDoor({ embedded: { rateLimit: 5, memory: true } });
  const proxy = await startFaultProxy(door.server.url);
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  try {
    proxy.inject(
      { type: 'status', status: 404, body: '{"error":"NOT_FOUND"}' },
      { match: (r) => r.path.startsWith('/_tabledesk/'), times: Infinity },
    );
    const { connection } = await app.services.handlers['connections.save']({
      name: HOSTED,
      baseUrl: proxy.url,
      apiKey: door.server.apiKey,
      remember: true,
    });
    const baseId = door.server.baseId;
    // Said before the base's workspace is known: the choice becomes the workspace's when it is (budget.ts).
    await app.services.handlers['budget.setPlan']({ scope: `base:${baseId}`, plan: 'team' });
    await page.addInitScript(
      `if (localStorage.getItem('tabledesk.session') === null) localStorage.setItem('tabledesk.session', '{"tabs":[]}')`,
    );
    await page.goto(door.url);
    await page.getByRole('navigation', { name: 'Connections' }).getByRole('button', { name: HOSTED }).click();
    const tasks = page.getByRole('region', { name: 'Tables' }).getByRole('button', { name: 'Tasks' });
    await tasks.waitFor();
    await untilProxyQuiet(page, proxy.log);
    const before = proxy.log.length;
    const budgetBefore = totals(await app.services.handlers['budget.report']({}));
    await tasks.click();
    await page.locator(firstRowPainted).waitFor({ timeout: 120_000 });
    const question = page.getByRole('region', { name: 'API calls question' });
    await question.getByText('Count the records of Tasks').waitFor({ timeout: 120_000 });
    await question.getByRole('button', { name: consent ? 'Go ahead' : 'Not now' }).click();
    const screenRows = (await page.evaluate(scrollThousandRows)) as number;
    await page.locator(rowPainted(SCROLLED_ROWS)).waitFor({ timeout: GIVE_UP_MS });
    if (consent)
      await page
        .locator(`${activeTable} footer.td-status [data-testid="row-count"]`)
        .getByText(`${ROWS.toLocaleString('en-US')} records`, { exact: true })
        .waitFor({ timeout: WALK_TIMEOUT_MS });
    await untilProxyQuiet(page, proxy.log);

    const status = await app.services.handlers['budget.status']({ connectionId: connection.id, baseId });
    if (status.plan !== 'team' || !status.metered)
      throw new Error(`The hosted base was not on a metered Team plan (${status.plan}).`);
    const budgetAfter = totals(await app.services.handlers['budget.report']({}));
    const lastShown = SCROLLED_ROWS + screenRows - 1;
    return {
      proxy: proxy.log.length - before,
      budget: budgetAfter.calls - budgetBefore.calls,
      names: budgetAfter.names - budgetBefore.names,
      before,
      pagesShown: Math.floor(lastShown / PAGE) + 1,
      walkPages: consent ? Math.ceil(ROWS / PAGE) : 0,
    };
  } finally {
    await page.close();
    await proxy.close();
    await door.close();
  }
}

function figures(spent: Spent, label: string, goalName: string): BenchResult[] {
  const goal = spent.pagesShown + spent.walkPages + SLACK;
  return [
    {
      name: `hosted calls: click on the 50,000-row Tasks, scroll 1,000 rows, Team plan, ${label}; counted at the service (ratio to ${goalName} + ${SLACK} = ${goal})`,
      value: spent.proxy,
      unit: 'calls',
      ratio: spent.proxy / goal,
    },
    {
      name: `hosted calls: the same as the app's budget counted them, ${label} (ratio to the service's count)`,
      value: spent.budget,
      unit: 'calls',
      ratio: spent.budget / spent.proxy,
    },
    {
      name: `hosted calls: of those, the names of the rows' linked records, ${label}`,
      value: spent.names,
      unit: 'calls',
    },
    {
      name: `hosted calls: before the click (the connection's bases, the base's schema and workspace), ${label}`,
      value: spent.before,
      unit: 'calls',
    },
  ];
}

export async function hostedCalls(): Promise<BenchResult[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const declined = await openAndScroll(browser, false);
    const agreed = await openAndScroll(browser, true);
    return [
      ...figures(declined, 'count declined', `the ${declined.pagesShown} pages shown`),
      ...figures(
        agreed,
        'count agreed to',
        `the ${agreed.pagesShown} pages shown and the walk's ${agreed.walkPages}`,
      ),
    ];
  } finally {
    await browser.close();
  }
}
