/** Connection profiles (name and base URL, never a key) in `connections.json` in the user-data folder. */
import { join } from 'node:path';
import { z } from 'zod';
import { readJsonFile, serial, writeJsonFile } from '../storage/json-file';

export const profileSchema = z.object({
  id: z.string(),
  name: z.string(),
  baseUrl: z.string(),
  remember: z.boolean(),
});
export type Profile = z.infer<typeof profileSchema>;

const fileSchema = z.object({ connections: z.array(profileSchema) });

export class ProfileStore {
  private readonly path: string;
  private readonly queue = serial();

  constructor(userDataDir: string) {
    this.path = join(userDataDir, 'connections.json');
  }

  list(): Promise<Profile[]> {
    return this.queue(
      async () => (await readJsonFile(this.path, fileSchema, { connections: [] })).connections,
    );
  }

  /** Applies `change` to the list and writes it back, one change at a time. */
  update<T>(change: (profiles: Profile[]) => T): Promise<T> {
    return this.queue(async () => {
      const file = await readJsonFile(this.path, fileSchema, { connections: [] });
      const result = change(file.connections);
      await writeJsonFile(this.path, file);
      return result;
    });
  }
}
