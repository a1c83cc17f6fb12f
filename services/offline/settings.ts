/** How often each mirror syncs by itself, kept in `mirrors.json` in the user-data folder (off by default). */
import { join } from 'node:path';
import { z } from 'zod';
import { MAX_AUTO_SYNC_MINUTES } from '../../core/contract';
import { readJsonFile, serial, writeJsonFile } from '../storage/json-file';

const fileSchema = z.object({
  autoSync: z.record(z.string(), z.number().int().min(0).max(MAX_AUTO_SYNC_MINUTES)),
});
type SettingsFile = z.infer<typeof fileSchema>;

export class MirrorSettings {
  private readonly path: string;
  private readonly queue = serial();

  constructor(userDataDir: string) {
    this.path = join(userDataDir, 'mirrors.json');
  }

  /** Minutes between automatic syncs, by mirror id. */
  autoSync(): Promise<Record<string, number>> {
    return this.queue(async () => (await this.read()).autoSync);
  }

  setAutoSync(mirrorId: string, minutes: number): Promise<void> {
    return this.queue(async () => {
      const file = await this.read();
      if (minutes === 0) delete file.autoSync[mirrorId];
      else file.autoSync[mirrorId] = minutes;
      await writeJsonFile(this.path, file);
    });
  }

  private read(): Promise<SettingsFile> {
    return readJsonFile(this.path, fileSchema, { autoSync: {} });
  }
}
