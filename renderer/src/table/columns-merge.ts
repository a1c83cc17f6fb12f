import type { Column } from '../../../core/contract';

/**
 * Columns as they become known: a restricted `fields` query or inferred columns (schema refused) only ever add
 * to what the tab knows, in first-seen order, so the field chooser keeps offering every field.
 */
export function mergeColumns(known: readonly Column[], incoming: readonly Column[]): readonly Column[] {
  const byName = new Map(known.map((c) => [c.name, c]));
  let changed = false;
  for (const c of incoming) {
    const old = byName.get(c.name);
    if (!old || old.type !== c.type || old.primary !== c.primary) {
      byName.set(c.name, c);
      changed = true;
    }
  }
  return changed ? [...byName.values()] : known;
}
