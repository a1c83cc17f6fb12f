/**
 * Where each row of a grouped grid comes from. The view is sorted by the group fields first, so its records
 * come in group order, and the group sizes are known up front (the aggregate): display row i is then either a
 * group header or the record at one offset of the view. A collapsed group shows its header only; its records
 * (and its subgroups) are skipped.
 */
import type { GroupNode } from '../../../../core/records/aggregate';
import type { GroupHeader } from '../../grid/group-rows';

export type LayoutRow = { header: GroupHeader } | { offset: number };

/** A run of display rows: one header, or `count` records from `offset` on. */
type Segment = { start: number } & ({ header: GroupHeader } | { offset: number; count: number });

export class GroupLayout {
  private readonly segments: Segment[] = [];
  /** Display rows in all. */
  readonly rowCount: number;

  constructor(groups: readonly GroupNode[], fields: readonly string[], collapsed: ReadonlySet<string>) {
    let row = 0;
    let offset = 0;
    const walk = (nodes: readonly GroupNode[], level: number, parentKey: unknown[]) => {
      for (const node of nodes) {
        const path = [...parentKey, node.value];
        const key = JSON.stringify(path);
        const shut = collapsed.has(key);
        const header = { key, level, field: fields[level] ?? '', value: node.value, count: node.count };
        this.segments.push({ start: row++, header: { ...header, collapsed: shut } });
        if (!shut && node.groups && node.groups.length > 0) {
          walk(node.groups, level + 1, path);
          continue;
        }
        if (!shut && node.count > 0) {
          this.segments.push({ start: row, offset, count: node.count });
          row += node.count;
        }
        offset += node.count;
      }
    };
    walk(groups, 0, []);
    this.rowCount = row;
  }

  /** The segment holding display row `index` (binary search over segment starts). */
  private segmentAt(index: number): Segment | undefined {
    let lo = 0;
    let hi = this.segments.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.segments[mid]!.start <= index) lo = mid;
      else hi = mid - 1;
    }
    return this.segments[lo];
  }

  at(index: number): LayoutRow | undefined {
    if (index < 0 || index >= this.rowCount) return undefined;
    const s = this.segmentAt(index)!;
    return 'header' in s ? { header: s.header } : { offset: s.offset + index - s.start };
  }

  /** Rows [start, end), cut at the end of the layout. */
  rows(start: number, end: number): LayoutRow[] {
    const out: LayoutRow[] = [];
    for (let i = start; i < Math.min(end, this.rowCount); i++) out.push(this.at(i)!);
    return out;
  }

  /** The view offsets those rows need, as contiguous runs [from, to). */
  static recordRuns(rows: readonly LayoutRow[]): { from: number; to: number }[] {
    const runs: { from: number; to: number }[] = [];
    for (const r of rows) {
      if (!('offset' in r)) continue;
      const last = runs.at(-1);
      if (last && last.to === r.offset) last.to++;
      else runs.push({ from: r.offset, to: r.offset + 1 });
    }
    return runs;
  }

  /**
   * The view offsets of the records on display rows [start, end), as contiguous runs, each with the stretch of
   * offsets shown around it without a break (a collapsed group's records break it).
   */
  recordsOn(
    start: number,
    end: number,
  ): { from: number; to: number; within: { start: number; end: number } }[] {
    return GroupLayout.recordRuns(this.rows(start, end)).map((run) => ({
      ...run,
      within: this.stretchOf(run.from),
    }));
  }

  /** The offsets of the records shown without a break around the record at `offset` (which is shown). */
  private stretchOf(offset: number): { start: number; end: number } {
    const records = this.segments.filter((s): s is Extract<Segment, { count: number }> => 'count' in s);
    let at = records.findIndex((s) => offset >= s.offset && offset < s.offset + s.count);
    let first = at;
    while (first > 0 && records[first - 1]!.offset + records[first - 1]!.count === records[first]!.offset)
      first--;
    while (at + 1 < records.length && records[at]!.offset + records[at]!.count === records[at + 1]!.offset)
      at++;
    return { start: records[first]!.offset, end: records[at]!.offset + records[at]!.count };
  }

  /** The display row of a group's header, by key. */
  headerRow(key: string): number | undefined {
    return this.segments.find((s) => 'header' in s && s.header.key === key)?.start;
  }
}
