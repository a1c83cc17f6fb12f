/**
 * The app behind its browser door with a second local server playing the hosted service: its extensions off
 * (so the app counts by walks, as on Airtable), the service's rate limits, optionally a monthly allowance of
 * calls, and a second user (another key) who edits the same base. It is saved in the app as the "Hosted"
 * connection. The spec's own clients take the app's throttles (`door.schedulers`), as every spec's do.
 */
import { expect } from '@playwright/test';
import type { Locator } from '@playwright/test';
import { RecordTableClient } from '../../core/api';
import type { AppPage } from './app-page';
import { startServer } from '../../server/index';
import type { RunningServer, ServerOptions } from '../../server/index';
import { launchTestDoor } from './door';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy';
import type { TestDoor } from './door';

export const HOSTED_CONNECTION = 'Hosted';
const HOSTED_KEY = 'patHostedServiceKeyForTheBudgetSpec00';
const OTHER_KEY = 'patSecondUserOfTheHostedService00000';
export const OTHER_USER = { id: 'usrSecondUser00001', email: 'sam@example.com', name: 'Sam' };

export interface HostedDoor extends TestDoor {
  hosted: {
    server: RunningServer;
    baseId: string;
    /** The app's own user, for reads that check what reached the service. */
    client: RecordTableClient;
    /** Another person editing the same base. */
    other: RecordTableClient;
    /** The app looks for other people's changes now (what its interval does), and the look is answered. */
    lookNow(): Promise<void>;
    /** This month's calls the app's budget counted as looks for other people's changes, on every base. */
    liveCalls(): Promise<number>;
    /** With `proxy`: the fault proxy the app reaches the service through, which logs every request. */
    proxy?: FaultProxy;
  };
}

export async function openHostedDoor(
  options: Pick<ServerOptions, 'monthlyCalls'> & { records?: number; proxy?: boolean } = {},
): Promise<HostedDoor> {
  const server = await startServer({
    memory: true,
    apiKey: HOSTED_KEY,
    users: [{ apiKey: OTHER_KEY, user: OTHER_USER }],
    demo: { largeTableRecords: options.records ?? 2000, outsidePhotos: false },
    extensions: false,
    rateLimit: 5,
    // Airtable's penalty is 30 s; 2 s keeps a rare 429 of a busy machine from stalling a spec.
    penaltyMs: 2000,
    ...(options.monthlyCalls === undefined ? {} : { monthlyCalls: options.monthlyCalls }),
  });
  const proxy = options.proxy === true ? await startFaultProxy(server.url) : undefined;
  const { app, ...door } = await launchTestDoor({ embedded: { rateLimit: 5, memory: true } });
  const baseId = server.bases[0]!.id;
  const client = (apiKey: string) =>
    new RecordTableClient({ baseUrl: server.url, apiKey, schedulers: door.schedulers });
  try {
    await app.services.handlers['connections.save']({
      name: HOSTED_CONNECTION,
      baseUrl: proxy?.url ?? server.url,
      apiKey: HOSTED_KEY,
      remember: true,
    });
  } catch (error) {
    await door.close();
    await proxy?.close();
    await server.close();
    throw error;
  }
  return {
    ...door,
    hosted: {
      server,
      baseId,
      client: client(HOSTED_KEY),
      other: client(OTHER_KEY),
      lookNow: () => app.services.live.lookNow(),
      liveCalls: async () =>
        (await app.services.handlers['budget.report']({})).scopes.reduce(
          (n, s) => n + (s.purposes.live ?? 0),
          0,
        ),
      ...(proxy ? { proxy } : {}),
    },
    async close() {
      await door.close();
      await proxy?.close();
      await server.close();
    },
  };
}

/** Opens the hosted connection's Tasks, as a person does from the picker. */
export async function openHostedTasks(app: AppPage): Promise<void> {
  const { page } = app;
  await app.openConnection(HOSTED_CONNECTION);
  await page
    .getByRole('region', { name: 'Tables' })
    .getByRole('button', { name: /^Tasks/ })
    .first()
    .click();
  await expect(page.getByRole('tab', { name: 'Tasks', selected: true })).toBeVisible();
  await expect(app.row(0)).toBeVisible();
}

/**
 * Opens the API calls panel from the status bar's figure. A click is made again while the panel is not open:
 * once in CI the panel was not there after the click (the cause is not found; see the closing note of
 * 2026-11-29), and what these specs check is the panel's content.
 */
export async function openBudgetPanel(app: AppPage): Promise<Locator> {
  const figure = app.status.getByTestId('budget-figure');
  const panel = app.page.getByRole('dialog', { name: 'API calls this month' });
  await expect(async () => {
    if (!(await panel.isVisible())) await figure.click();
    await expect(panel).toBeVisible({ timeout: 2_000 });
  }).toPass();
  return panel;
}

/** Says the open base's workspace is on the Free plan, in the API calls panel, as a person does. */
export async function chooseFreePlan(app: AppPage): Promise<void> {
  const figure = app.status.getByTestId('budget-figure');
  const panel = await openBudgetPanel(app);
  await panel.getByLabel('Plan').selectOption({ label: 'Free (1,000 calls a month)' });
  await expect(figure).toContainText(/\d+ of 1,000 API calls this month/);
  await panel.getByRole('button', { name: 'Close API calls' }).click();
}
