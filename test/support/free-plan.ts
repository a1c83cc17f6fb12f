/**
 * The app against a hosted service on the Free plan (1,000 calls a month): a local server playing the hosted
 * service (extensions off, so the app counts and maps views by walks as it does on Airtable) behind the fault
 * proxy, whose log is what the service saw, and an app connected to it with its workspace on the Free plan.
 */
import { startHostedApp } from '../integration/app/harness';
import type { Harness } from '../integration/app/harness';
import { startFaultProxy } from './fault-proxy';
import type { FaultProxy } from './fault-proxy';
import { startLocalServer } from './local-server';
import type { LocalServer } from './local-server';

/** The workspace the local server names for its bases (GET /v0/meta/bases/{id}): the plan's scope. */
export const WORKSPACE = 'wspLocalTableDesk';

/** The hosted service with `tasks` records in its demo Tasks table, behind the fault proxy. */
export async function startFreePlanService(
  tasks: number,
): Promise<{ hosted: LocalServer; proxy: FaultProxy }> {
  const hosted = await startLocalServer({
    demo: { largeTableRecords: tasks, outsidePhotos: false },
    extensions: false,
  });
  return { hosted, proxy: await startFaultProxy(hosted.url) };
}

/**
 * A fresh app with the service saved as its "Hosted" connection, on the Free plan. The plan is the user's
 * word for the workspace, given before the app has learnt which workspace the base is in.
 */
export async function startFreePlanHostedApp(
  hosted: LocalServer,
  proxy: FaultProxy,
): Promise<{ h: Harness; connectionId: string }> {
  const app = await startHostedApp(hosted, proxy);
  await app.h.call('budget.setPlan', { scope: WORKSPACE, plan: 'free' });
  return app;
}
