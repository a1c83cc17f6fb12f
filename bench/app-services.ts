/**
 * The app's services for a benchmark, with the user-data folder of their own and the dispatcher the doors use:
 * a bench measures what a user's request costs through the same path, not a shortcut into a service.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChannelName, Request, Response } from '../core/contract';
import { createAppServices } from '../services/app';
import type { AppServices, AppServicesOptions } from '../services/app';
import { createFileVault } from '../services/keys/file-vault';

export type Call = <C extends ChannelName>(channel: C, request: Request<C>) => Promise<Response<C>>;

export interface BenchApp {
  services: AppServices;
  /** A channel's answer, or its error thrown with the service's message. */
  call: Call;
  close(): Promise<void>;
}

export async function startBenchApp(
  options: Pick<AppServicesOptions, 'embedded'> & Partial<AppServicesOptions>,
): Promise<BenchApp> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'tabledesk-bench-'));
  const services = createAppServices({
    userDataDir,
    vault: createFileVault(join(userDataDir, 'keys.json')),
    door: 'browser',
    version: 'bench',
    ...options,
  });
  const call: Call = async (channel, request) => {
    const result = await services.dispatch(channel, request);
    if (!result.ok) throw new Error(result.error.message);
    return result.response as Response<typeof channel>;
  };
  return {
    services,
    call,
    close: async () => {
      await services.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
