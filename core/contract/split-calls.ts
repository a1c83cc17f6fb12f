/**
 * Calls too large for one frame of the browser door (a paste of thousands of long records) are sent as
 * several calls of the same channel, each under the frame limit, and their answers merged into one. Only the
 * channels that carry a list of independent items can be split; the parts go one after another, in order, so
 * edits to one record keep their order. Each part says which call it belongs to (`part`, edits.ts's
 * callPartSchema): the services make the parts one undo step and ask one API calls question for the whole.
 */
import type { ChannelName } from './registry';

type Part = Record<string, unknown>;

interface Splittable {
  /** The request's list that is cut into parts. */
  list: string;
  merge(answers: Part[], sizes: number[]): Part;
}

/** Calls split so far by this page. */
let splitCalls = 0;

const concat = (answers: Part[], key: string): unknown[] => answers.flatMap((a) => a[key] as unknown[]);

const SPLITTABLE: Partial<Record<ChannelName, Splittable>> = {
  'edits.edit': { list: 'changes', merge: (answers) => ({ editIds: concat(answers, 'editIds') }) },
  'records.create': {
    list: 'records',
    merge: (answers, sizes) => {
      let offset = 0;
      const failed: unknown[] = [];
      answers.forEach((a, i) => {
        for (const f of a.failed as { index: number }[]) failed.push({ ...f, index: f.index + offset });
        offset += sizes[i]!;
      });
      return { created: concat(answers, 'created'), failed };
    },
  },
  'records.delete': {
    list: 'records',
    merge: (answers) => ({ deleted: concat(answers, 'deleted'), remaining: concat(answers, 'remaining') }),
  },
};

// One encoder for every measure: splitting a large paste measures each of its items.
const encoder = new TextEncoder();

/** The text's size in UTF-8 bytes, as a frame of it is sent. */
export const utf8Length = (text: string): number => encoder.encode(text).length;

export interface SplitCall {
  requests: Part[];
  merge(answers: unknown[]): unknown;
}

/**
 * The call as parts whose frames (`frameOf`) fit in `maxBytes`, or undefined when it cannot be split (its
 * channel has no list, or one item alone is too large).
 */
export function splitCall(
  channel: ChannelName,
  request: unknown,
  frameOf: (request: unknown) => string,
  maxBytes: number,
): SplitCall | undefined {
  const how = SPLITTABLE[channel];
  if (how === undefined || typeof request !== 'object' || request === null) return undefined;
  const items = (request as Part)[how.list];
  if (!Array.isArray(items)) return undefined;
  // Unique among the calls of this page and the door's other pages (it is keyed with the call's table).
  const of = `${++splitCalls}.${Math.random().toString(36).slice(2, 12)}`;
  // The part's own field with its largest numbers, so every part's frame fits whatever its index.
  const widest = { of, index: items.length, count: items.length, total: items.length };
  const budget = maxBytes - utf8Length(frameOf({ ...request, [how.list]: [], part: widest }));
  const parts: unknown[][] = [];
  let current: unknown[] = [];
  let used = 0;
  for (const item of items) {
    // +1 for the comma between items.
    const size = utf8Length(JSON.stringify(item) ?? 'null') + 1;
    if (size > budget) return undefined;
    if (used + size > budget) {
      parts.push(current);
      current = [];
      used = 0;
    }
    current.push(item);
    used += size;
  }
  parts.push(current);
  return {
    requests: parts.map((p, index) => ({
      ...request,
      [how.list]: p,
      ...(parts.length > 1 ? { part: { of, index, count: parts.length, total: items.length } } : {}),
    })),
    merge: (answers) =>
      how.merge(
        answers as Part[],
        parts.map((p) => p.length),
      ),
  };
}
