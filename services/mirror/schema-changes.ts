/** The schema changes between two pulls, as sentences for the sync report. */
import type { TableSchema } from '../../core/records/types';

export function schemaChanges(before: TableSchema[], after: TableSchema[]): string[] {
  const out: string[] = [];
  const old = new Map(before.map((t) => [t.id, t]));
  const now = new Set(after.map((t) => t.id));
  for (const t of before) if (!now.has(t.id)) out.push(`Table "${t.name}" was deleted`);
  for (const t of after) {
    const was = old.get(t.id);
    if (!was) {
      out.push(`Table "${t.name}" was added`);
      continue;
    }
    if (was.name !== t.name) out.push(`Table "${was.name}" was renamed "${t.name}"`);
    const fields = new Map(was.fields.map((f) => [f.id, f]));
    const kept = new Set(t.fields.map((f) => f.id));
    for (const f of was.fields) if (!kept.has(f.id)) out.push(`Field "${f.name}" of "${t.name}" was deleted`);
    for (const f of t.fields) {
      const prev = fields.get(f.id);
      if (!prev) out.push(`Field "${f.name}" (${f.type}) was added to "${t.name}"`);
      else if (prev.name !== f.name) out.push(`Field "${prev.name}" of "${t.name}" was renamed "${f.name}"`);
      else if (prev.type !== f.type) out.push(`Field "${f.name}" of "${t.name}" is now ${f.type}`);
    }
  }
  return out;
}
