/**
 * One history of the sync fuzzer: a base of its own on the service, made available offline, then edited on both
 * sides and synced as the commands say. The model is the merge base as of the last sync (a Side); every sync
 * is checked against what the two sides held before it:
 * - a cell or link changed on one side only reaches the other; changed on both to the same value is no
 *   conflict; changed on both differently is a conflict whose two sides stay as they were;
 * - a record deleted on one side and changed on the other (a cell, or a link added) is a conflict that changes
 *   neither side; deleted over no change, it is deleted on both;
 * - a record, cell or edge held in a conflict changes on neither side, except that an edge goes with a record
 *   that is rightly gone (deleted on the service with no change here: a held link needs both its records);
 * - a one-way link cell (People.Manager, a self-link) is merged as a cell, each side's as if the records that
 *   side deleted were still in it; a link to a record gone from a side is gone from that side's cells (from
 *   every cell, the copy's and the base's, once it is gone from both); a cell naming a record the service
 *   deleted and a conflict holds waits, unsent, for the user; "keep mine" on that record makes it again with
 *   the links others had to it;
 *   a resolution gives both sides the side it chose;
 * - a sync stopped midway changes the service only to the copy's values and the copy only to the service's;
 *   it may also have moved the merge base of what it finished (a page pulled, a batch sent) to what the two
 *   sides now agree on, so until a later sync settles it the model keeps both bases as candidates, and each
 *   cell, record and edge of the next sync must be merged right over one of them.
 * After the last sync, with every conflict resolved, the copy equals the service (cells, both cells of the
 * pair, their order) and an idle sync sends and receives nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordTableClient } from '../../../core/api';
import { createMirrors } from '../../../services/mirror/index';
import type { MirrorConflict, MirrorResolution, Mirrors, SyncResult } from '../../../services/mirror/index';
import { CELLS, ONE_WAY, ends, linksOn, putBack, readSide, sameValue, tagsOf } from './state';
import type { Pair, Rec, Side, TableName } from './state';
import type { World } from './world';

export type Where = 'copy' | 'service';
/** How the person the service deletes (Doom) was changed first: edited in the copy, or linked one way. */
export type Doomed = 'edited' | 'linked here' | 'linked there';

/** A resolution the fuzzer chose: 0 leaves the conflict open, 1 mine, 2 theirs, 3 a value typed. */
export type Choice = 0 | 1 | 2 | 3;
const TYPED = 'typed';

class Failure extends Error {}

function fail(message: string): never {
  throw new Failure(message);
}

interface Held {
  /** Tags of records held whole, with the kind of their conflict. */
  records: Map<string, MirrorConflict['kind']>;
  /** `tag.field` of cells in conflict. */
  cells: Set<string>;
}

export class History {
  readonly log: string[] = [];
  private baseId = '';
  private pair: Pair = { people: 'Company', companies: '' };
  /** Field ids by table and name (a conflict over a whole record lists its cells by id). */
  private fieldIds: Record<TableName, Map<string, string>> = { People: new Map(), Companies: new Map() };
  private mirrorId = '';
  private mirrors!: Mirrors;
  private readonly dataDir = mkdtempSync(join(tmpdir(), 'tabledesk-sync-fuzz-'));
  /**
   * The merge base as the model has it (what both sides agreed on at the last sync, conflicts aside): one, or
   * after syncs stopped midway the bases the engine may hold (see moved). The engine moves a record's base
   * whole when it merges a page, yet a PATCH whose answer a stop cut off leaves its cells at the old base while
   * the pull moved the record's other cells: so a cell may take its base from any candidate.
   */
  private bases!: Side[];
  private made = 0;

  private constructor(
    private readonly world: World,
    readonly n: number,
  ) {}

  static async start(world: World, n: number): Promise<History> {
    const h = new History(world, n);
    await h.setUp();
    return h;
  }

  private engine(): Mirrors {
    return createMirrors({
      dataDir: this.dataDir,
      clientFor: () => this.world.remote,
      local: { connectionId: 'demo', url: this.world.local.url, apiKey: this.world.local.apiKey },
      refreshOverlapMs: 2000,
    });
  }

  private async setUp(): Promise<void> {
    const { service } = this.world;
    const made = await service.meta.createBase({
      name: `Sync fuzz ${this.n}`,
      tables: [
        {
          name: 'Companies',
          fields: [
            { name: 'Name', type: 'singleLineText' },
            { name: 'Notes', type: 'singleLineText' },
          ],
        },
        {
          name: 'People',
          fields: [
            { name: 'Name', type: 'singleLineText' },
            { name: 'Notes', type: 'singleLineText' },
            { name: 'Age', type: 'number', options: { precision: 0 } },
          ],
        },
      ],
    });
    this.baseId = made.id;
    const people = made.tables.find((t) => t.name === 'People')!;
    const link = await service.meta.createField(made.id, people.id, {
      name: 'Company',
      type: 'multipleRecordLinks',
      options: { linkedTableId: made.tables.find((t) => t.name === 'Companies')!.id },
    });
    // A link with no field back, to its own table: one-way cells, a record linking itself among them.
    await service.meta.createField(made.id, people.id, {
      name: ONE_WAY,
      type: 'multipleRecordLinks',
      options: { linkedTableId: people.id },
    });
    const inverseId = String(link.options?.['inverseLinkFieldId']);
    const schema = await service.meta.baseSchema(made.id);
    this.pair = {
      people: 'Company',
      companies: schema.flatMap((t) => t.fields).find((f) => f.id === inverseId)!.name,
    };
    for (const t of schema)
      if (t.name === 'People' || t.name === 'Companies')
        this.fieldIds[t.name] = new Map(t.fields.map((f) => [f.name, f.id]));
    const companies = await service
      .table(made.id, 'Companies')
      .createMany([0, 1, 2].map((i) => ({ Name: `C${i}`, Notes: 'a' })));
    const persons = await service.table(made.id, 'People').createMany(
      [0, 1, 2, 3, 4].map((i) => ({
        Name: `P${i}`,
        Notes: 'a',
        Age: i,
        Company: [companies[i % 3]!.id, ...(i % 2 ? [companies[(i + 1) % 3]!.id] : [])],
      })),
    );
    // P0 manages P1 and P2, P3 manages itself and P4 (after P1).
    const managers = [[], [0], [0], [3], [1, 3]];
    await service
      .table(made.id, 'People')
      .updateMany(
        persons.flatMap((p, i) =>
          managers[i]!.length > 0
            ? [{ id: p.id, fields: { [ONE_WAY]: managers[i]!.map((j) => persons[j]!.id) } }]
            : [],
        ),
      );
    this.mirrors = this.engine();
    this.mirrorId = (
      await this.mirrors.makeAvailableOffline({ connectionId: 'conHosted', baseId: made.id })
    ).id;
    this.bases = [await this.side('service')];
    this.note(`base ${made.id}: 5 people, 3 companies, pulled`);
  }

  note(line: string): void {
    this.log.push(line);
  }

  private client(where: Where): RecordTableClient {
    return where === 'copy' ? this.world.copy : this.world.service;
  }

  /** A side as it is; `strict` after a sync that ended (see readSide). */
  side(where: Where, strict = false): Promise<Side> {
    return readSide(this.client(where), this.baseId, this.pair, strict);
  }

  /**
   * The records of a table on a side, in their names' order (not their ids', which differ from one run to the
   * next: a seed replays exactly), for commands that pick one by a number.
   */
  private async pick(where: Where, table: TableName, k: number): Promise<Rec | undefined> {
    const list = [...(await this.side(where)).recs.values()].filter((r) => r.table === table);
    list.sort((a, b) => (a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0));
    return list.length === 0 ? undefined : list[k % list.length];
  }

  private async linkIds(where: Where, other: TableName, picks: number[]): Promise<string[]> {
    const ids: string[] = [];
    for (const k of picks) {
      const r = await this.pick(where, other, k);
      if (r && !ids.includes(r.id)) ids.push(r.id);
    }
    return ids;
  }

  private linkField(table: TableName): string {
    return table === 'People' ? this.pair.people : this.pair.companies;
  }

  async edit(where: Where, table: TableName, k: number, field: string, value: unknown): Promise<void> {
    const r = await this.pick(where, table, k);
    if (!r) return;
    await this.client(where)
      .table(this.baseId, table)
      .update(r.id, { [field]: value });
    this.note(`${where}: ${r.tag}.${field} = ${JSON.stringify(value)}`);
  }

  async setLinks(where: Where, table: TableName, k: number, picks: number[]): Promise<void> {
    const r = await this.pick(where, table, k);
    if (!r) return;
    const ids = await this.linkIds(where, otherTable(table), picks);
    await this.client(where)
      .table(this.baseId, table)
      .update(r.id, { [this.linkField(table)]: ids });
    this.note(`${where}: ${r.tag} links ${ids.length} (${picks.join(',')})`);
  }

  async setOneWay(where: Where, k: number, picks: number[]): Promise<void> {
    const r = await this.pick(where, 'People', k);
    if (!r) return;
    const ids = await this.linkIds(where, 'People', picks);
    await this.client(where)
      .table(this.baseId, 'People')
      .update(r.id, { [ONE_WAY]: ids });
    this.note(`${where}: ${r.tag}.${ONE_WAY} = ${JSON.stringify(await this.tagsOn(where, ids))}`);
  }

  /** The service deletes person `k` of the copy, edited there first, or linked one way by person `j`. */
  async doom(k: number, how: Doomed, j: number): Promise<void> {
    const r = await this.pick('copy', 'People', k);
    if (!r) return;
    const there = (await this.side('service')).recs.get(r.tag);
    if (!there) return;
    if (how === 'edited') {
      await this.world.copy.table(this.baseId, 'People').update(r.id, { Notes: `edited ${this.made++}` });
      this.note(`copy: ${r.tag}.Notes edited`);
    } else {
      const where: Where = how === 'linked here' ? 'copy' : 'service';
      const linker = await this.pick(where, 'People', j);
      if (linker) {
        const to = where === 'copy' ? r.id : there.id;
        const ids = (await this.client(where).table(this.baseId, 'People').get(linker.id)).fields[ONE_WAY];
        const next = [...((ids as string[] | undefined) ?? []).filter((id) => id !== to), to];
        await this.client(where)
          .table(this.baseId, 'People')
          .update(linker.id, { [ONE_WAY]: next });
        this.note(`${where}: ${linker.tag}.${ONE_WAY} = ${JSON.stringify(await this.tagsOn(where, next))}`);
      }
    }
    await this.world.service.table(this.baseId, 'People').delete(there.id);
    this.note(`service: deleted ${r.tag}`);
  }

  private async tagsOn(where: Where, ids: string[]): Promise<string[]> {
    const byId = new Map([...(await this.side(where)).recs.values()].map((x) => [x.id, x.tag]));
    return ids.map((id) => byId.get(id) ?? id);
  }

  async create(where: Where, table: TableName, notes: string, picks: number[]): Promise<void> {
    const tag = `${where === 'copy' ? 'L' : 'R'}${table[0]}${this.made++}`;
    const ids = await this.linkIds(where, otherTable(table), picks);
    await this.client(where)
      .table(this.baseId, table)
      .create({ Name: tag, Notes: notes, ...(ids.length > 0 ? { [this.linkField(table)]: ids } : {}) });
    this.note(`${where}: made ${tag} linking ${ids.length}`);
  }

  async remove(where: Where, table: TableName, k: number): Promise<void> {
    const r = await this.pick(where, table, k);
    if (!r) return;
    await this.client(where).table(this.baseId, table).delete(r.id);
    this.note(`${where}: deleted ${r.tag}`);
  }

  /** The open conflicts, each with what it holds (`tag` or `tag.field`). */
  private async held(): Promise<{
    held: Held;
    conflicts: { c: MirrorConflict; key: string }[];
    tags: Map<string, string>;
  }> {
    const list = await this.mirrors.conflicts(this.mirrorId);
    const [copy, service] = await Promise.all([this.side('copy'), this.side('service')]);
    const tags = new Map<string, string>();
    for (const s of [...this.bases, copy, service]) for (const [tag, r] of s.recs) tags.set(r.id, tag);
    const held: Held = { records: new Map(), cells: new Set() };
    const conflicts = list.map((c) => {
      const tag = tags.get(c.recordId) ?? fail(`a conflict names ${c.recordId}, a record on neither side`);
      const key = c.kind === 'cell' ? `${tag}.${c.fieldName}` : tag;
      if (c.kind === 'cell') held.cells.add(key);
      else held.records.set(tag, c.kind);
      return { c, key };
    });
    return { held, conflicts, tags };
  }

  /** A sync; with `stopAt`, stopped (cancelled) when the service has seen that many requests of it. */
  async sync(stopAt?: number): Promise<void> {
    const before = await this.held();
    const copy = await this.side('copy');
    const service = await this.side('service');
    let stopped = false;
    if (stopAt !== undefined) {
      let seen = 0;
      // The proxy sees each request of the sync: at the chosen one the user cancels (the run stops where it is).
      this.world.proxy.inject(
        { type: 'delay', ms: 0 },
        {
          match: () => {
            if (++seen === stopAt) this.mirrors.cancel(this.mirrorId);
            return false;
          },
          times: Infinity,
        },
      );
    }
    let result: SyncResult | undefined;
    try {
      result = await this.mirrors.sync(this.mirrorId);
    } catch (e) {
      if (stopAt === undefined) throw e;
      stopped = true;
    } finally {
      this.world.proxy.reset();
    }
    this.note(stopped ? `sync stopped at request ${stopAt}` : `sync: ${JSON.stringify(result)}`);
    if (stopped) {
      const [Lp, Rp] = await this.expectOnlyCrossed(copy, service);
      this.bases = distinct([...this.bases, ...this.bases.map((B) => moved(B, Lp, Rp))]);
      // As after a kill: another engine on the same folder carries on.
      this.mirrors.close();
      this.mirrors = this.engine();
      return;
    }
    await this.expectMerged(copy, service, before.held, new Map());
  }

  /** Resolves the conflicts as `choices` says (in the order the engine lists them), then syncs. */
  async resolve(choices: Choice[]): Promise<void> {
    const { held, conflicts, tags } = await this.held();
    const copy = await this.side('copy');
    const service = await this.side('service');
    const resolutions: MirrorResolution[] = [];
    const chosen = new Map<string, Choice>();
    let refused = 0;
    conflicts.forEach(({ c, key }, i) => {
      let choice = choices[i % Math.max(1, choices.length)] ?? 0;
      // A value typed is for a plain cell; a one-way link cell's is mine.
      if (choice === 3 && (c.kind !== 'cell' || c.fieldName === ONE_WAY)) choice = 1;
      if (choice === 0) return;
      resolutions.push(
        choice === 3
          ? { conflictId: c.id, choice: 'edit', value: c.fieldName === 'Age' ? 7 : TYPED }
          : { conflictId: c.id, choice: choice === 1 ? 'mine' : 'theirs' },
      );
      // Theirs or a typed value over a cell typed again in the copy since the list, or theirs over a record the
      // service deleted that the copy edited since: refused, left open.
      const mine = copy.recs.get(key.split('.')[0]!);
      if (
        mine &&
        ((c.kind === 'cell' && choice !== 1 && !sameValue(mine.cells[c.fieldName!], this.listed(c, tags))) ||
          (c.kind === 'deleted-remote' && choice === 2 && this.listedOtherwise(mine, c.mine, tags)))
      ) {
        refused++;
        return;
      }
      chosen.set(key, choice);
    });
    if (resolutions.length === 0) return;
    const { changed } = await this.mirrors.resolve(this.mirrorId, resolutions);
    if (changed !== refused) fail(`${changed} resolutions were refused as edited since, not ${refused}`);
    const result = await this.mirrors.sync(this.mirrorId);
    this.note(`resolved ${JSON.stringify([...chosen])}, ${refused} refused; sync: ${JSON.stringify(result)}`);
    for (const key of chosen.keys()) {
      held.records.delete(key);
      held.cells.delete(key);
    }
    await this.expectMerged(copy, service, held, chosen);
  }

  /** A cell conflict's side of the copy as the model has it (a one-way cell's ids as tags). */
  private listed(c: MirrorConflict, tags: Map<string, string>): unknown {
    return c.fieldName === ONE_WAY ? tagsOf(c.mine).map((id) => tags.get(id) ?? id) : c.mine;
  }

  /** Whether a record in the copy differs from the copy's side of a conflict over it (fields by id). */
  private listedOtherwise(r: Rec, listed: unknown, tags: Map<string, string>): boolean {
    const fields = (listed ?? {}) as Record<string, unknown>;
    const ids = this.fieldIds[r.table];
    const cell = (f: string) => {
      const v = fields[ids.get(f)!];
      return f === ONE_WAY ? tagsOf(v).map((id) => tags.get(id) ?? id) : v;
    };
    if (CELLS[r.table].some((f) => !sameValue(r.cells[f], cell(f)))) return true;
    const links = (fields[ids.get(this.linkField(r.table))!] as string[] | undefined) ?? [];
    return links.map((id) => tags.get(id) ?? id).join() !== r.links.join();
  }

  /**
   * Checks a sync that ended against the two sides before it (`held`: conflicts open before, `chosen`: those
   * resolved just before it), then moves the model's bases on.
   */
  private async expectMerged(L: Side, R: Side, heldBefore: Held, chosen: Map<string, Choice>): Promise<void> {
    const after = (await this.held()).held;
    const Lp = await this.side('copy', true);
    const Rp = await this.side('service', true);
    const present = new Map<string, boolean>();
    const tags = new Set([
      ...this.bases.flatMap((B) => [...B.recs.keys()]),
      ...L.recs.keys(),
      ...R.recs.keys(),
    ]);
    const expectRecord = (tag: string, want: { copy?: Rec; service?: Rec }, why: string) => {
      for (const [where, now, w] of [
        ['copy', Lp, want.copy],
        ['service', Rp, want.service],
      ] as const) {
        const got = now.recs.get(tag);
        if (!w) {
          if (got) fail(`${tag} should be gone from the ${where} (${why})`);
          continue;
        }
        if (!got) fail(`${tag} should be on the ${where} (${why})`);
        for (const f of CELLS[w.table]) {
          // A link to a record gone from this side is gone from its cells.
          const v = f === ONE_WAY ? linksOn(w.cells[f], (t) => now.recs.has(t)) : w.cells[f];
          if (!sameValue(got.cells[f], v))
            fail(
              `${tag}.${f} on the ${where} is ${JSON.stringify(got.cells[f])}, not ${JSON.stringify(v)} (${why})`,
            );
        }
      }
    };
    /** One cell merged over the base value `bv`: what each side should hold, or a conflict it needs. */
    const mergeCell = (key: string, bv: unknown, lv: unknown, rv: unknown) => {
      if (sameValue(lv, bv) || sameValue(lv, rv)) return { copy: rv, service: rv };
      if (sameValue(rv, bv)) return { copy: lv, service: lv };
      if (!after.cells.has(key) && !heldBefore.cells.has(key))
        return {
          copy: lv,
          service: rv,
          wrong: `${key} changed on both sides (${JSON.stringify(lv)}, ${JSON.stringify(rv)}) with no conflict`,
        };
      return { copy: lv, service: rv };
    };
    const expectTag = (tag: string, B: Side) => {
      const b = B.recs.get(tag);
      const l = L.recs.get(tag);
      const r = R.recs.get(tag);
      const choice = chosen.get(tag);
      const kind = heldBefore.records.get(tag);
      if (kind) {
        expectRecord(tag, { copy: l, service: r }, `held by a ${kind} conflict`);
        present.set(tag, false);
        return;
      }
      if (choice !== undefined) {
        const keep = choice === 1 ? l : r;
        expectRecord(tag, { copy: keep, service: keep }, `resolved ${choice === 1 ? 'mine' : 'theirs'}`);
        present.set(tag, keep !== undefined);
        return;
      }
      if (b && l && r) {
        const copyCells: Record<string, unknown> = {};
        const serviceCells: Record<string, unknown> = {};
        for (const f of CELLS[b.table]) {
          const key = `${tag}.${f}`;
          const [lv, rv] = [l.cells[f], r.cells[f]];
          const c = chosen.get(key);
          if (heldBefore.cells.has(key) && !sameValue(lv, rv)) {
            [copyCells[f], serviceCells[f]] = [lv, rv];
          } else if (c !== undefined) {
            const v = c === 1 ? lv : c === 2 ? rv : f === 'Age' ? 7 : TYPED;
            [copyCells[f], serviceCells[f]] = [v, v];
          } else {
            // Over each base the cell may have: the first merge that is what the two sides now hold.
            const options = this.bases.flatMap((S) => {
              const s = S.recs.get(tag);
              if (!s) return [];
              if (f !== ONE_WAY) return [mergeCell(key, s.cells[f], lv, rv)];
              // A one-way cell: each side's as if the records it deleted were there (their links go with them,
              // from every side that lost them: see expectRecord); or, where a side's deletion shows as a change
              // of the cell, a conflict; the base as the service has it, once a record it deleted is resolved.
              const bv = tagsOf(s.cells[f]);
              const back = (v: unknown, side: Side) =>
                putBack(
                  tagsOf(v),
                  bv.filter((t) => !side.recs.has(t) && !tagsOf(v).includes(t)),
                  bv,
                );
              const merged = mergeCell(key, bv, back(lv, L), back(rv, R));
              // A cell naming a record the service deleted and a conflict holds is not sent until the user
              // decides (sent without it, it would unlink it there for good): the service keeps its own.
              const waits = tagsOf(merged.copy).some((t) => after.records.get(t) === 'deleted-remote');
              return [
                merged,
                ...(waits ? [{ copy: merged.copy, service: rv }] : []),
                mergeCell(key, bv, lv, rv),
                mergeCell(
                  key,
                  linksOn(bv, (t) => R.recs.has(t)),
                  lv,
                  rv,
                ),
              ];
            });
            const has = (side: Side) => (v: unknown) =>
              f === ONE_WAY ? linksOn(v, (t) => side.recs.has(t)) : v;
            const [inCopy, onService] = [has(Lp), has(Rp)];
            const got = [Lp.recs.get(tag)?.cells[f], Rp.recs.get(tag)?.cells[f]];
            const fits = options.find(
              (o) => !o.wrong && sameValue(got[0], inCopy(o.copy)) && sameValue(got[1], onService(o.service)),
            );
            const want = fits ?? options.find((o) => o.wrong) ?? options[0]!;
            if (want.wrong) fail(want.wrong);
            [copyCells[f], serviceCells[f]] = [want.copy, want.service];
          }
        }
        expectRecord(
          tag,
          { copy: { ...b, cells: copyCells }, service: { ...b, cells: serviceCells } },
          'merged cell by cell',
        );
        present.set(tag, true);
      } else if (b && !l && r) {
        // A link the service lost with a record gone from both sides is no change: the pull takes it out of
        // the base before the push meets the deletion here.
        if (this.ownChange(b, r, R, B, (t) => R.recs.has(t) || Lp.recs.has(t))) {
          if (after.records.get(tag) !== 'deleted-local')
            fail(`${tag} was deleted in the copy and changed on the service, with no conflict`);
          expectRecord(tag, { service: r }, 'deleted here, changed there: held');
          present.set(tag, false);
        } else {
          expectRecord(tag, {}, 'deleted in the copy');
          present.set(tag, false);
        }
      } else if (b && l && !r) {
        if (this.ownChange(b, l, L, B)) {
          if (after.records.get(tag) !== 'deleted-remote')
            fail(`${tag} was deleted on the service and changed in the copy, with no conflict`);
          expectRecord(tag, { copy: l }, 'deleted there, changed here: held');
          present.set(tag, false);
        } else {
          expectRecord(tag, {}, 'deleted on the service');
          present.set(tag, false);
        }
      } else if (!l && !r) {
        expectRecord(tag, {}, 'deleted on both sides');
        present.set(tag, false);
      } else if (l && r) {
        // New to the model on both sides: sent or received by a sync that was stopped.
        const same = CELLS[l.table].every((f) => sameValue(l.cells[f], r.cells[f]));
        if (same) expectRecord(tag, { copy: l, service: l }, 'the same on both sides');
        else {
          const got = Lp.recs.get(tag);
          if (!got) fail(`${tag} is gone from the copy`);
          expectRecord(tag, { copy: got, service: got }, 'settled one way');
        }
        present.set(tag, true);
      } else {
        const made = (l ?? r)!;
        expectRecord(tag, { copy: made, service: made }, `made on the ${l ? 'copy' : 'service'}`);
        present.set(tag, true);
      }
    };
    for (const tag of tags) {
      // Right over one of the bases the engine may hold; else the failure over the first.
      let first: Failure | undefined;
      for (const B of this.bases) {
        try {
          expectTag(tag, B);
          first = undefined;
          break;
        } catch (e) {
          if (!(e instanceof Failure)) throw e;
          first ??= e;
        }
      }
      if (first) throw first;
    }
    this.expectEdges(L, R, Lp, Rp, heldBefore, after, chosen, present);
    this.bases = distinct(this.bases.map((B) => nextBase(B, Lp, after)));
  }

  /** A change of its own on a side over the base: a cell, or a link added to the record. */
  private ownChange(b: Rec, now: Rec, side: Side, base: Side, kept = (_tag: string) => true): boolean {
    const was = (f: string) => (f === ONE_WAY ? linksOn(b.cells[f], kept) : b.cells[f]);
    if (CELLS[b.table].some((f) => !sameValue(was(f), now.cells[f]))) return true;
    return [...side.edges].some((e) => ends(e).includes(now.tag) && !base.edges.has(e));
  }

  private expectEdges(
    L: Side,
    R: Side,
    Lp: Side,
    Rp: Side,
    heldBefore: Held,
    after: Held,
    chosen: Map<string, Choice>,
    present: Map<string, boolean>,
  ): void {
    const bases = this.bases.flatMap((B) => [...B.edges]);
    const all = new Set([...bases, ...L.edges, ...R.edges, ...Lp.edges, ...Rp.edges]);
    for (const e of all) {
      const [p, c] = ends(e);
      const heldBy = [p, c].find((t) => heldBefore.records.has(t) || after.records.has(t));
      let wantCopy: boolean;
      let wantService: boolean;
      if (heldBy) {
        // Held as each side had it, where both of its records are still there: the other end may be a record
        // deleted on that side with no change to hold it (deleted on the service, so on the copy too), and a link
        // to a record that is gone is gone with it. Whether each record should be there is checked by expectTag.
        const both = (side: Side) => side.recs.has(p) && side.recs.has(c);
        wantCopy = L.edges.has(e) && both(Lp);
        wantService = R.edges.has(e) && both(Rp);
      } else {
        const resolved = [p, c].find((t) => chosen.has(t));
        if (resolved) {
          const from = chosen.get(resolved) === 1 ? L : R;
          wantCopy = wantService = from.edges.has(e);
        } else {
          // Over each base the edge may have: the merge the two sides now hold, if one is.
          const [l, r] = [L.edges.has(e), R.edges.has(e)];
          const options = this.bases.map((B) => (l === B.edges.has(e) ? r : l));
          const now = Lp.edges.has(e);
          wantCopy = wantService = options.find((w) => w === now && w === Rp.edges.has(e)) ?? options[0]!;
        }
        if (!present.get(p) || !present.get(c)) wantCopy = wantService = false;
      }
      if (Lp.edges.has(e) !== wantCopy)
        fail(
          `the link ${e} should ${wantCopy ? '' : 'not '}be in the copy${heldBy ? ` (held by ${heldBy})` : ''}`,
        );
      if (Rp.edges.has(e) !== wantService)
        fail(
          `the link ${e} should ${wantService ? '' : 'not '}be on the service${heldBy ? ` (held by ${heldBy})` : ''}`,
        );
    }
  }

  /** After a stopped sync: each side changed only to what the other side held. */
  private async expectOnlyCrossed(L: Side, R: Side): Promise<[Side, Side]> {
    const Lp = await this.side('copy');
    const Rp = await this.side('service');
    for (const [was, now, other, where] of [
      [R, Rp, L, 'service'],
      [L, Lp, R, 'copy'],
    ] as const) {
      for (const tag of new Set([...was.recs.keys(), ...now.recs.keys()])) {
        const [a, z, o] = [was.recs.get(tag), now.recs.get(tag), other.recs.get(tag)];
        if (!a && z && !o) fail(`${tag} appeared on the ${where} from nowhere`);
        if (a && !z && o) fail(`${tag} was deleted on the ${where}, though the other side had it`);
        if (a && z)
          for (const f of CELLS[a.table])
            if (
              !sameValue(a.cells[f], z.cells[f]) &&
              !(o && sameValue(z.cells[f], o.cells[f])) &&
              // A link to a record deleted on this side goes from its cells.
              !(
                f === ONE_WAY &&
                sameValue(
                  z.cells[f],
                  linksOn(a.cells[f], (t) => now.recs.has(t)),
                )
              )
            )
              fail(
                `${tag}.${f} on the ${where} became ${JSON.stringify(z.cells[f])}, which the other side did not hold`,
              );
      }
      for (const e of new Set([...was.edges, ...now.edges]))
        if (was.edges.has(e) !== now.edges.has(e) && now.edges.has(e) !== other.edges.has(e)) {
          const gone = ends(e).some((t) => !now.recs.has(t));
          if (!gone) fail(`the link ${e} changed on the ${where}, which the other side did not hold`);
        }
    }
    return [Lp, Rp];
  }

  /**
   * Resolves what is left (each conflict by the next choice of `choices`, never leaving one open), syncs, and
   * checks the copy equals the service, with nothing left to send and an idle sync moving nothing.
   */
  async finish(choices: Choice[]): Promise<void> {
    await this.sync();
    for (let round = 0; round < 4; round++) {
      if ((await this.mirrors.conflicts(this.mirrorId)).length === 0) break;
      await this.resolve(choices.map((c, i) => (c === 0 ? ((((i + round) % 2) + 1) as Choice) : c)));
    }
    const open = await this.mirrors.conflicts(this.mirrorId);
    if (open.length > 0) fail(`${open.length} conflicts are still open after resolving them all`);
    const [copy, service] = await Promise.all([this.side('copy', true), this.side('service', true)]);
    for (const tag of new Set([...copy.recs.keys(), ...service.recs.keys()])) {
      const [l, r] = [copy.recs.get(tag), service.recs.get(tag)];
      if (!l || !r) fail(`${tag} is only on the ${l ? 'copy' : 'service'} after the last sync`);
      if (l.id !== r.id) fail(`${tag} is ${l.id} in the copy and ${r.id} on the service`);
      if (JSON.stringify(l) !== JSON.stringify(r))
        fail(`${tag} differs after the last sync: copy ${JSON.stringify(l)}, service ${JSON.stringify(r)}`);
    }
    const [summary] = await this.mirrors.list();
    if (summary?.localChanges !== 0) fail(`${summary?.localChanges} local changes left after the last sync`);
    const idle = await this.mirrors.sync(this.mirrorId);
    if (idle.sent !== 0 || idle.received !== 0 || idle.deleted !== 0 || idle.conflicts !== 0)
      fail(`an idle sync moved something: ${JSON.stringify(idle)}`);
    this.note('settled: the copy is the service');
  }

  async cleanup(): Promise<void> {
    try {
      await this.mirrors.remove(this.mirrorId, { force: true });
    } finally {
      this.mirrors.close();
      rmSync(this.dataDir, { recursive: true, force: true });
    }
  }
}

const otherTable = (table: TableName): TableName => (table === 'People' ? 'Companies' : 'People');

/** The merge base after a sync over base B: what both sides now agree on, and B's of what a conflict holds. */
function nextBase(B: Side, Lp: Side, after: Held): Side {
  const recs = new Map<string, Rec>();
  for (const [tag, r] of Lp.recs) if (!after.records.has(tag)) recs.set(tag, structuredClone(r));
  for (const tag of after.records.keys()) {
    const b = B.recs.get(tag);
    if (b) recs.set(tag, b);
    else recs.delete(tag);
  }
  for (const key of after.cells) {
    const [tag, f] = key.split('.') as [string, string];
    const r = recs.get(tag);
    const b = B.recs.get(tag);
    if (r && b) r.cells[f] = b.cells[f];
  }
  // A one-way cell naming a record a "deleted there" conflict holds waits for the user (see expectTag).
  for (const [tag, r] of recs) {
    const b = B.recs.get(tag);
    if (
      b &&
      !after.records.has(tag) &&
      tagsOf(r.cells[ONE_WAY]).some((t) => after.records.get(t) === 'deleted-remote')
    )
      r.cells[ONE_WAY] = b.cells[ONE_WAY];
  }
  const edges = new Set<string>();
  for (const e of Lp.edges) if (!ends(e).some((t) => after.records.has(t))) edges.add(e);
  for (const e of B.edges)
    if (ends(e).some((t) => after.records.has(t)) && ends(e).every((t) => recs.has(t))) edges.add(e);
  return { recs, edges };
}

/**
 * The base a sync stopped midway may have left over base B, where it finished: a record, cell or edge the two
 * sides now agree on (pulled, or sent and answered) at that; one they do not (a change still to send, a
 * conflict), or a record one side lacks (a deletion still to send), at B's.
 */
function moved(B: Side, Lp: Side, Rp: Side): Side {
  const recs = new Map<string, Rec>();
  for (const tag of new Set([...B.recs.keys(), ...Lp.recs.keys(), ...Rp.recs.keys()])) {
    const [b, l, r] = [B.recs.get(tag), Lp.recs.get(tag), Rp.recs.get(tag)];
    if (!l && !r) continue;
    if (!l || !r) {
      if (b) recs.set(tag, b);
      continue;
    }
    const agreed = CELLS[l.table].filter((f) => sameValue(l.cells[f], r.cells[f]));
    if (!b) {
      if (agreed.length === CELLS[l.table].length) recs.set(tag, structuredClone(l));
      continue;
    }
    const cells = { ...b.cells };
    for (const f of agreed) cells[f] = l.cells[f];
    recs.set(tag, { ...b, cells });
  }
  const edges = new Set<string>();
  for (const e of new Set([...B.edges, ...Lp.edges, ...Rp.edges]))
    if (Lp.edges.has(e) === Rp.edges.has(e) ? Lp.edges.has(e) : B.edges.has(e)) edges.add(e);
  return { recs, edges };
}

/** Bases without repeats: consecutive stopped syncs would otherwise double them. */
function distinct(bases: Side[]): Side[] {
  const seen = new Map<string, Side>();
  for (const B of bases) {
    const recs = [...B.recs.entries()].sort(([a], [b]) => a.localeCompare(b));
    const key = JSON.stringify([recs, [...B.edges].sort()]);
    if (!seen.has(key)) seen.set(key, B);
  }
  return [...seen.values()];
}
