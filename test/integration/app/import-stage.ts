/** A create import of `rows` names into the Name field, staged through the services' handlers (not run yet). */
import type { BrowserApp } from '../../../host/launch';

export async function stageNames(
  app: BrowserApp,
  target: { connectionId: string; baseId: string; table: string },
  rows: number,
  name: (i: number) => string,
): Promise<string> {
  const h = app.services.handlers;
  const { importId } = await h['import.stage']({
    target,
    mode: 'create',
    fields: ['Name'],
    mergeOn: [],
    total: rows,
  });
  const staged = Array.from({ length: rows }, (_, i) => ({
    line: i + 2,
    values: [name(i)],
    typecast: false,
  }));
  await h['import.rows']({ importId, rows: staged });
  return importId;
}
