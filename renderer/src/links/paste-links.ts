/**
 * Link cells of a paste, by name: the names are looked up in each linked table before the paste is planned
 * (one `links.resolve` per table), and each cell's text then becomes record ids. Record ids are taken as they
 * are. A cell naming a record its table does not have is left out, with the names it could not find.
 */
import type { Column, TableDeskApi } from '../../../core/contract';
import { errorMessage } from '../api/call-errors';
import type { Parsed } from '../grid/format';
import { RECORD_ID, linkTokens, linkedTableId } from './names';

/** At most this many names per lookup call (the channel's bound). */
const NAMES_PER_CALL = 1000;

type Resolver = (field: Column, text: string) => Parsed;

export async function pastedLinks(
  api: TableDeskApi,
  target: { connectionId: string; baseId: string },
  lines: readonly string[][],
  columns: readonly Column[],
): Promise<Resolver> {
  const wanted = new Map<string, Set<string>>();
  columns.forEach((field, j) => {
    const tableId = field.type === 'multipleRecordLinks' ? linkedTableId(field) : undefined;
    if (tableId === undefined) return;
    for (const line of lines)
      for (const token of linkTokens(line[j] ?? ''))
        if (!RECORD_ID.test(token)) {
          if (!wanted.has(tableId)) wanted.set(tableId, new Set());
          wanted.get(tableId)?.add(token);
        }
  });
  const found = new Map<string, Map<string, string>>();
  const failed = new Map<string, string>();
  await Promise.all(
    [...wanted].map(async ([tableId, names]) => {
      const ids = new Map<string, string>();
      found.set(tableId, ids);
      const list = [...names];
      try {
        for (let i = 0; i < list.length; i += NAMES_PER_CALL) {
          const answer = await api.call('links.resolve', {
            ...target,
            tableId,
            names: list.slice(i, i + NAMES_PER_CALL),
          });
          for (const [name, id] of Object.entries(answer.ids)) ids.set(name, id);
        }
      } catch (error) {
        failed.set(tableId, errorMessage(error));
      }
    }),
  );
  return (field, text) => {
    const tableId = linkedTableId(field);
    const tokens = linkTokens(text);
    if (tokens.length === 0) return { ok: true, value: null, typecast: false };
    if (tableId !== undefined && failed.has(tableId))
      return { ok: false, error: `names could not be looked up (${failed.get(tableId)})` };
    const ids = tokens.map((t) => (RECORD_ID.test(t) ? t : tableId && found.get(tableId)?.get(t)));
    const unknown = tokens.filter((_, i) => ids[i] === undefined);
    if (unknown.length > 0)
      return { ok: false, error: `no linked record named ${unknown.map((n) => `"${n}"`).join(', ')}` };
    return { ok: true, value: ids, typecast: false };
  };
}
