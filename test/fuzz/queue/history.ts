/**
 * One history of the queue fuzzer: the edit services as an app process on a user-data folder of its own, which
 * the fuzzer kills (dropped without its shutdown: its network and its files go dead at once, as a SIGKILL's
 * would) and starts again on the same folder; the screen as the renderer keeps it (its EditStore over the rows
 * it was given); and the model of what the user was told, checked against the service when the queue drains.
 *
 * What is checked:
 * - the app always starts, whatever the disk and the journal hold, and reports each damaged line it set aside;
 * - every cell holds the last value the user was told was saved (or, for a call the kill cut short, maybe the
 *   value it carried); cells where the service refused a value, or the user discarded one, hold what the
 *   screen shows;
 * - no record is created twice (each carries a marker of its own); a create told done is there, one refused
 *   is not, one of unknown outcome is there at most once and, if there, was found and not left for the user;
 * - a delete told done leaves nothing; one interrupted is resumed;
 * - a refused write leaves the cell as it was, unmarked, and a discarded one shows what the service holds;
 * - after the queue drains, what the screen shows is what the service holds.
 */
import { mkdtemp, readFile, rm, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordTableClient } from '../../../core/api';
import type { EditEventName, EditEventPayload } from '../../../core/contract/edits';
import type { RecordData } from '../../../core/records/types';
import { withCells } from '../../../core/records/with-cells';
import { EditStore } from '../../../renderer/src/editing/edit-store';
import { createEditServices, journalDir } from '../../../services/edits';
import type { EditServices, Parts } from '../../../services/edits';
import type { CellChange } from '../../../services/edits/queue';
import type { EditTarget, FieldValues } from '../../../services/edits/types';
import { LOCK_FILE } from '../../../services/storage/folder-lock';
import { FuzzDisk } from './disk';
import { TABLE } from './world';
import type { World } from './world';

/** The fields the user edits; each record's marker field (never edited) tells records apart. */
export const EDITED = ['Name', 'Points'] as const;
export const MARK = 'Notes';

type Field = (typeof EDITED)[number];
type Outcome = 'calling' | 'saved' | 'refused' | 'unknown';

interface Attempt {
  value: unknown;
  outcome: Outcome;
}

interface Cell {
  attempts: Attempt[];
  /** Why the cell is only checked against the screen (a refusal by the service, a discard, damage). */
  loose?: string;
}

/**
 * live: on the service; absent: never created, or deleted; maybe: created or not, at most once (a lost
 * answer, a kill); listed: a delete left it, and lists it.
 */
type RecState = 'live' | 'absent' | 'maybe' | 'listed';

interface Rec {
  mark: string;
  id?: string;
  state: RecState;
  cells: Map<Field, Cell>;
}

class Dead extends Error {}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const never = <T>() => new Promise<T>(() => undefined);
/** The service keeps an empty text as no value, as Airtable does. */
const cellValue = (v: unknown) => (v === '' || v === undefined ? null : v);
const same = (a: unknown, b: unknown) => JSON.stringify(cellValue(a)) === JSON.stringify(cellValue(b));

/** One app process: its services, its network and its files, all dead once killed. */
interface Proc {
  alive: boolean;
  dead: Promise<never>;
  die: () => void;
  services: EditServices;
  parts: Parts;
  /** Real fetches under way: a kill waits for them (their requests are already on the wire). */
  fetching: Set<Promise<unknown>>;
}

export class History {
  readonly log: string[] = [];
  readonly disk = new FuzzDisk();
  readonly recs: Rec[] = [];
  private proc: Proc | undefined;
  private store: EditStore;
  private rows = new Map<string, RecordData['fields']>();
  /**
   * The fields each row showed when it left the screen: a delete of a record already gone (another user's
   * delete, a stale screen) sends what the screen showed, and undoing it makes that record again.
   */
  private left = new Map<string, RecordData['fields']>();
  private kills = new Set<NodeJS.Timeout>();
  private nextMark = 0;
  /** Damaged pieces written into the journal (each one line the next start must set aside and report). */
  damages = 0;
  private failures: string[] = [];

  private constructor(
    readonly world: World,
    readonly dir: string,
    readonly id: number,
  ) {
    this.store = new EditStore(this.targetOf());
  }

  static async start(world: World, id: number): Promise<History> {
    const dir = await mkdtemp(join(tmpdir(), 'tabledesk-fuzz-queue-'));
    const h = new History(world, dir, id);
    world.proxy.reset();
    const made = await world.reader.createMany(
      [0, 1, 2].map((i) => ({ Name: `r${i}`, Points: i, [MARK]: h.mark() })),
    );
    for (const r of made)
      h.recs.push({ mark: String(r.fields[MARK]), id: r.id, state: 'live', cells: new Map() });
    await h.launch();
    return h;
  }

  targetOf(): EditTarget {
    return { connectionId: 'fuzz', baseId: this.world.server.baseId, table: TABLE };
  }

  mark(): string {
    return `h${this.id}-${this.nextMark++}`;
  }

  note(line: string): void {
    this.log.push(line);
  }

  /** A failed check: collected, and thrown at the end with the history's log. */
  fail(message: string): void {
    this.failures.push(message);
  }

  private cell(rec: Rec, field: Field): Cell {
    let c = rec.cells.get(field);
    if (c === undefined) {
      c = { attempts: [] };
      rec.cells.set(field, c);
    }
    return c;
  }

  private recById(id: string): Rec | undefined {
    return this.recs.find((r) => r.id === id);
  }

  /** The records edits and deletes can aim at: those with an id (deleted ones too: the service refuses). */
  pick(n: number): Rec | undefined {
    const known = this.recs.filter((r) => r.id !== undefined);
    return known.length === 0 ? undefined : known[n % known.length];
  }

  /** The records of this history on the service (each carries its marker). */
  private mine(): Promise<RecordData[]> {
    return this.world.reader.all({ formula: `FIND('h${this.id}-', {${MARK}})` });
  }

  // ---- the screen ----

  shown(rec: Rec, field: string): unknown {
    if (rec.id === undefined) return undefined;
    return (
      this.store.value({ id: rec.id, createdTime: '', fields: this.rows.get(rec.id) ?? {} }, field) ?? null
    );
  }

  marked(rec: Rec, field: string) {
    return rec.id === undefined ? undefined : this.store.mark(rec.id, field);
  }

  private observe<E extends EditEventName>(event: E, payload: EditEventPayload<E>): void {
    if (event === 'edits.state') {
      const s = payload as EditEventPayload<'edits.state'>;
      this.store.apply(s);
      const rec = this.recById(s.recordId);
      if (rec !== undefined && s.rejected !== undefined)
        for (const f of Object.keys(s.rejected.fields))
          if ((EDITED as readonly string[]).includes(f))
            this.cell(rec, f as Field).loose ??= 'refused by the service';
    } else if (event === 'edits.saved') {
      const s = payload as EditEventPayload<'edits.saved'>;
      this.rows.set(s.recordId, s.record.fields);
    } else if (event === 'edits.reverted') {
      // As the grid's row: an earlier save may have shown the discarded values.
      const s = payload as EditEventPayload<'edits.reverted'>;
      const fields = this.rows.get(s.recordId);
      if (fields !== undefined)
        this.rows.set(s.recordId, withCells({ id: s.recordId, createdTime: '', fields }, s.fields).fields);
    } else if (event === 'records.created') {
      for (const r of (payload as EditEventPayload<'records.created'>).records) {
        this.rows.set(r.id, r.fields);
        const rec = this.recs.find((x) => x.mark === r.fields[MARK]);
        // A create of unknown outcome found on the service (adopted).
        if (rec !== undefined && rec.id === undefined) rec.id = r.id;
      }
    } else if (event === 'records.deleted') {
      for (const id of (payload as EditEventPayload<'records.deleted'>).ids) {
        const fields = this.rows.get(id);
        if (fields !== undefined) this.left.set(id, fields);
        this.rows.delete(id);
      }
    }
  }

  // ---- processes ----

  /** The running app, started again (on the same folder) if it was killed. */
  async app(): Promise<Proc> {
    while (this.proc === undefined) {
      // A kill finishes (the OS lets go of the lock) before the next start; two callers share one start.
      await this.dying;
      this.launching ??= this.launch().finally(() => (this.launching = undefined));
      await this.launching;
    }
    return this.proc;
  }

  private launching: Promise<void> | undefined;

  get running(): boolean {
    return this.proc !== undefined;
  }

  private async launch(): Promise<void> {
    let die!: () => void;
    const dead = new Promise<never>((_, reject) => (die = () => reject(new Dead())));
    dead.catch(() => undefined);
    const fetching = new Set<Promise<unknown>>();
    const proc = { alive: true, dead, fetching } as Proc;
    proc.die = () => {
      proc.alive = false;
      die();
    };
    const gated: typeof fetch = (input, init) => {
      if (!proc.alive) return never();
      const real = fetch(input, init);
      fetching.add(real);
      void real.finally(() => fetching.delete(real)).catch(() => undefined);
      return real.then((r) => (proc.alive ? r : never<Response>()));
    };
    const client = new RecordTableClient({
      baseUrl: this.world.proxy.url,
      apiKey: this.world.server.apiKey,
      requestsPerSecond: 50,
      backoffBaseMs: 10,
      backoffMaxMs: 80,
      maxRetries: 2,
      rateLimitPauseMs: 50,
      timeoutMs: 3000,
      fetch: gated,
    });
    this.store = new EditStore(this.targetOf());
    proc.services = createEditServices({
      userDataDir: this.dir,
      tableFor: (t) => client.table(t.baseId, t.table),
      emit: (event, payload) => {
        if (proc.alive) this.observe(event as EditEventName, payload as never);
      },
      queue: { settleMs: 15, maxHoldMs: 60, retryBaseMs: 20, retryMaxMs: 150 },
      journalFiles: this.disk.files(),
    });
    try {
      proc.parts = await proc.services.ready;
    } catch (e) {
      this.fail(`the app did not start: ${String(e)}`);
      throw e;
    }
    this.spy(proc);
    this.proc = proc;
    // The page opens again: its rows from the service, the queue's state read once.
    const all = await this.mine();
    const rows = new Map(all.map((r) => [r.id, r.fields]));
    for (const [id, fields] of this.rows) if (!rows.has(id)) this.left.set(id, fields);
    this.rows = rows;
    const status = await proc.services.handlers['edits.status']({});
    this.store.load(status.records);
    // Each damaged line is reported; a kill in the middle of a write may add its torn piece.
    if ((status.journalDamage?.lines ?? 0) < this.damages)
      this.fail(
        `${this.damages} damaged journal lines written, ${status.journalDamage?.lines ?? 0} reported at start`,
      );
    this.note(`started (${status.records.length} records owed, ${status.uncertainCreates.length} uncertain)`);
  }

  /**
   * Watches what the queue and the record writer are asked by anyone (the user, undo), and what they answer:
   * the model of what the user was told.
   */
  private spy(proc: Proc): void {
    const { queue, records } = proc.parts;
    const edit = queue.edit.bind(queue);
    queue.edit = async (target: EditTarget, changes: readonly CellChange[]) => {
      const attempts = changes.flatMap((c) => {
        const rec = this.recById(c.recordId);
        return rec === undefined
          ? []
          : Object.entries(c.fields)
              .filter(([f]) => (EDITED as readonly string[]).includes(f))
              .map(([f, value]) => {
                const a: Attempt = { value: value ?? null, outcome: 'calling' };
                this.cell(rec, f as Field).attempts.push(a);
                return a;
              });
      });
      try {
        const ids = await edit(target, changes);
        for (const a of attempts) a.outcome = proc.alive ? 'saved' : 'unknown';
        return ids;
      } catch (e) {
        for (const a of attempts) a.outcome = proc.alive ? 'refused' : 'unknown';
        throw e;
      }
    };
    const create = records.create.bind(records);
    records.create = async (target, fieldsList, typecast) => {
      const made = fieldsList.map((fields) => {
        let rec = this.recs.find((r) => r.mark === fields[MARK]);
        if (rec === undefined) {
          rec = { mark: String(fields[MARK]), state: 'maybe', cells: new Map() };
          this.recs.push(rec);
        }
        // Undoing a delete makes the record again: a new id, and the values it had.
        rec.state = 'maybe';
        rec.id = undefined;
        // Its own attempts, settled by its outcome: an edit of the record made once its batch was announced
        // (records.created, before the whole call is answered) comes after them and keeps its own.
        const attempts = EDITED.map((f) => {
          const a: Attempt = { value: fields[f] ?? null, outcome: 'calling' };
          this.cell(rec, f).attempts.push(a);
          return a;
        });
        return { rec, attempts };
      });
      const settle = (m: (typeof made)[number], outcome: Outcome, state: RecState) => {
        m.rec.state = state;
        for (const a of m.attempts) a.outcome = outcome;
      };
      try {
        const result = await create(target, fieldsList, typecast);
        if (!proc.alive) for (const m of made) settle(m, 'unknown', 'maybe');
        else {
          result.created.forEach((r, i) => {
            const m = made[result.createdIndexes[i]!]!;
            m.rec.id = r.id;
            settle(m, 'saved', 'live');
          });
          for (const f of result.failed)
            settle(
              made[f.index]!,
              f.outcome === 'unknown' ? 'unknown' : 'refused',
              f.outcome === 'unknown' ? 'maybe' : 'absent',
            );
        }
        return result;
      } catch (e) {
        for (const m of made) settle(m, proc.alive ? 'refused' : 'unknown', proc.alive ? 'absent' : 'maybe');
        throw e;
      }
    };
    const del = records.delete.bind(records);
    records.delete = async (target, ids, resume) => {
      const doomed = ids.flatMap((id) => this.recById(id) ?? []);
      const before = new Map(doomed.map((r) => [r, r.state]));
      for (const r of doomed) if (r.state === 'live' || r.state === 'listed') r.state = 'maybe';
      try {
        const result = await del(target, ids, resume);
        if (proc.alive) {
          for (const id of result.deleted) {
            const rec = this.recById(id);
            if (rec !== undefined) rec.state = 'absent';
          }
          for (const { id } of result.remaining) {
            const rec = this.recById(id);
            if (rec !== undefined) rec.state = before.get(rec) === 'absent' ? 'absent' : 'listed';
          }
        }
        return result;
      } catch (e) {
        // Refused by the journal's disk: nothing was sent.
        if (proc.alive) for (const [r, state] of before) r.state = state;
        throw e;
      }
    };
  }

  /** Calls not waited for: the end waits for them. */
  private calls = new Set<Promise<unknown>>();

  /** Races an operation of the app against its death. */
  until<T>(work: (proc: Proc) => Promise<T>): Promise<T | Dead> {
    const call = (async () => {
      const proc = await this.app();
      try {
        return await Promise.race([work(proc), proc.dead]);
      } catch (e) {
        if (e instanceof Dead || !proc.alive) return new Dead();
        throw e;
      }
    })();
    this.calls.add(call);
    void call.finally(() => this.calls.delete(call)).catch(() => undefined);
    return call;
  }

  /** Kills the app now (or after `ms`, while the next commands run), optionally damaging its journal. */
  async kill(ms: number, damage?: Damage): Promise<void> {
    if (ms > 0) {
      const proc = this.proc;
      const timer = setTimeout(() => {
        this.kills.delete(timer);
        if (this.proc === proc && proc !== undefined) void this.killNow(damage);
      }, ms);
      this.kills.add(timer);
      return;
    }
    await this.killNow(damage);
  }

  private dying: Promise<void> | undefined;

  private async killNow(damage?: Damage): Promise<void> {
    const proc = this.proc;
    if (proc === undefined) return;
    this.proc = undefined;
    proc.die();
    this.disk.kill();
    this.dying = (async () => {
      // Requests already on the wire reach the server: wait for them, as the next start would.
      const deadline = Date.now() + 5000;
      while (proc.fetching.size > 0 && Date.now() < deadline) await sleep(10);
      // The OS lets go of a dead process's lock.
      await rm(join(journalDir(this.dir), LOCK_FILE), { force: true });
      for (const r of this.recs)
        for (const c of r.cells.values())
          for (const a of c.attempts) if (a.outcome === 'calling') a.outcome = 'unknown';
      if (damage !== undefined) await this.damage(damage);
    })();
    await this.dying;
    this.note(`killed${damage ? ` (journal damaged: ${damage.kind})` : ''}`);
  }

  /** Damages the journal file, as a crash, a bad sector or a hand edit would. */
  private async damage(damage: Damage): Promise<void> {
    const path = join(journalDir(this.dir), 'journal.jsonl');
    const text = await readFile(path, 'utf8').catch(() => '');
    const lines = text.split('\n').filter((l) => l !== '');
    const ending = text === '' || text.endsWith('\n') ? '' : '\n';
    if (damage.kind === 'line' && lines.length > 0) {
      const at = damage.at % lines.length;
      this.loosen(lines[at]!, 'its journal line was damaged');
      lines[at] = damage.text;
      await writeFile(path, lines.map((l) => l + '\n').join(''));
    } else if (damage.kind === 'torn') {
      // A write cut short by the crash: no newline, and the next start appends after it.
      await appendFile(path, ending + damage.text.slice(0, Math.max(1, damage.at % damage.text.length)));
    } else {
      await appendFile(path, ending + damage.text + '\n');
    }
    this.damages++;
  }

  /** The cells and records a damaged line spoke of are no longer known exactly. */
  private loosen(line: string, why: string): void {
    let value: {
      t?: string;
      recordId?: string;
      fields?: object;
      refs?: [string, string][];
      ids?: string[];
      records?: FieldValues[];
    };
    try {
      value = JSON.parse(line) as typeof value;
    } catch {
      return;
    }
    const all = this.recs;
    if (value.t === 'edit' || value.refs !== undefined) {
      // Which records the refs name is in the edit lines; the simplest sound choice: every cell.
      const rec = value.recordId === undefined ? undefined : this.recById(value.recordId);
      for (const r of rec === undefined ? all : [rec]) for (const f of EDITED) this.cell(r, f).loose ??= why;
    }
    if (value.t === 'delete')
      for (const id of value.ids ?? []) {
        const rec = this.recById(id);
        if (rec !== undefined && rec.state !== 'absent') rec.state = 'maybe';
      }
  }

  // ---- the end ----

  /** Lets everything settle with the faults gone and room on the disk, then checks the model. */
  async finish(): Promise<void> {
    for (const t of this.kills) clearTimeout(t);
    this.kills.clear();
    await this.dying;
    await Promise.allSettled([...this.calls]);
    this.disk.room = Infinity;
    this.disk.shortWrites = 0;
    this.world.proxy.reset();
    if (this.proc !== undefined) {
      await this.drain(this.proc);
      await this.compareScreen('after the queue drained');
    }
    // A start with nothing in the way: what an earlier run left is replayed, resumed and looked for.
    await this.killNow();
    const proc = await this.app();
    await this.drain(proc);
    await this.compareScreen('after a clean restart');
    await this.checkModel(proc);
    await proc.services.close();
    this.proc = undefined;
    if (this.failures.length > 0) throw new Error(this.failures.join('\n'));
  }

  async cleanup(): Promise<void> {
    for (const t of this.kills) clearTimeout(t);
    if (this.proc !== undefined) await this.killNow();
    await rm(this.dir, { recursive: true, force: true });
  }

  private async drain(proc: Proc): Promise<void> {
    const { parts, services } = proc;
    const deadline = Date.now() + 30_000;
    await parts.records.recover();
    for (;;) {
      parts.queue.sendNow({});
      await Promise.race([parts.queue.whenIdle(), sleep(1000)]);
      // Timers must run (the throttle's, the retries'): the loop never spins on answers alone.
      await sleep(10);
      const deletes = await services.handlers['records.pendingDeletes']({});
      if (!parts.queue.hasPending() && !deletes.deletes.some((d) => d.state === 'sending')) break;
      if (Date.now() > deadline) {
        this.fail(
          `the queue never drained: ${JSON.stringify(parts.queue.status())} ${JSON.stringify(deletes)} ${JSON.stringify(await services.handlers['edits.status']({}))}`,
        );
        return;
      }
    }
    // What the service refused is discarded: the cells show what the service holds.
    await services.handlers['edits.discardAll']({ waiting: false });
    await parts.journal.flushed();
  }

  /** After the queue drained, every cell shows what the service holds. */
  private async compareScreen(when: string): Promise<void> {
    const held = new Map((await this.mine()).map((r) => [r.id, r]));
    for (const rec of this.recs) {
      if (rec.id === undefined || !held.has(rec.id)) continue;
      for (const f of EDITED) {
        const service = held.get(rec.id)!.fields[f] ?? null;
        if (!same(this.shown(rec, f), service))
          this.fail(
            `${when}: ${rec.mark}.${f} shows ${JSON.stringify(this.shown(rec, f))}, the service holds ${JSON.stringify(service)}`,
          );
        if (this.marked(rec, f) !== undefined)
          this.fail(`${when}: ${rec.mark}.${f} is still marked ${this.marked(rec, f)}`);
      }
    }
  }

  private async checkModel(proc: Proc): Promise<void> {
    const all = await this.mine();
    const status = await proc.services.handlers['edits.status']({});
    const uncertain = new Set(status.uncertainCreates.flatMap((c) => c.records.map((r) => String(r[MARK]))));
    const failedDeletes = (await proc.services.handlers['records.pendingDeletes']({})).deletes.filter(
      (d) => d.state === 'failed',
    );
    for (const rec of this.recs) {
      const copies = all.filter((r) => r.fields[MARK] === rec.mark);
      if (copies.length > 1) this.fail(`${rec.mark} was created ${copies.length} times`);
      const held = copies[0];
      if (rec.state === 'live' && held === undefined)
        this.fail(`${rec.mark} was told created (or kept) and is missing`);
      if (rec.state === 'absent' && held !== undefined)
        this.fail(`${rec.mark} was told deleted (or refused) and is there`);
      if (rec.state === 'listed' && held !== undefined && failedDeletes.length === 0)
        this.fail(`${rec.mark} was left by a failed delete that is not listed`);
      if (held !== undefined && uncertain.has(rec.mark))
        this.fail(`${rec.mark} is on the service and still listed as "may or may not have been created"`);
      if (held === undefined) continue;
      for (const f of EDITED) {
        const cell = rec.cells.get(f);
        if (cell === undefined || cell.loose !== undefined) continue;
        const told = cell.attempts.findLastIndex((a) => a.outcome === 'saved');
        const base = told === -1 ? [] : [cell.attempts[told]!.value];
        const maybe = cell.attempts
          .slice(told + 1)
          .filter((a) => a.outcome === 'unknown')
          .map((a) => a.value);
        if (told === -1) continue;
        const value = held.fields[f] ?? null;
        if (![...base, ...maybe].some((v) => same(v, value)))
          this.fail(
            `${rec.mark}.${f} holds ${JSON.stringify(value)}; the user was last told ${JSON.stringify(base[0])} was saved` +
              (maybe.length > 0 ? ` (then maybe ${JSON.stringify(maybe)})` : ''),
          );
      }
    }
    if (status.pending !== 0 || status.rejected !== 0)
      this.fail(`still owed at the end: ${status.pending} pending, ${status.rejected} rejected`);
  }

  /** A refused write leaves the cell as it showed before, unmarked if it was. */
  checkRefused(rec: Rec, field: string, before: unknown, markBefore: unknown): void {
    // A delete under way may have taken the row meanwhile.
    if (rec.id === undefined || !this.rows.has(rec.id)) return;
    if (!same(this.shown(rec, field), before) || this.marked(rec, field) !== markBefore)
      this.fail(
        `a refused write to ${rec.mark}.${field} left it showing ${JSON.stringify(this.shown(rec, field))} ` +
          `(${String(this.marked(rec, field))}), not ${JSON.stringify(before)} (${String(markBefore)})`,
      );
  }

  /** A discarded edit shows what the service holds (nothing for that cell is on its way any more). */
  async checkDiscarded(rec: Rec, fields: string[]): Promise<void> {
    if (rec.id === undefined) return;
    const held = await this.world.reader.get(rec.id).catch(() => undefined);
    if (held === undefined) return;
    for (const f of fields) {
      if (this.marked(rec, f) !== undefined) continue;
      if (!same(this.shown(rec, f), held.fields[f]))
        this.fail(
          `discarded ${rec.mark}.${f} shows ${JSON.stringify(this.shown(rec, f))}, the service holds ${JSON.stringify(held.fields[f] ?? null)}`,
        );
    }
  }

  /** A cell the user discarded: the value it ends with is the screen's to check, not the last one typed. */
  discarded(rec: Rec, fields: readonly string[]): void {
    for (const f of fields)
      if ((EDITED as readonly string[]).includes(f)) this.cell(rec, f as Field).loose ??= 'discarded';
  }

  /** The screen's part in an edit call: the typed values show at once, and go when the call is answered. */
  typing(changes: readonly { recordId: string; fields: FieldValues }[]): () => void {
    const call = this.store.local(changes);
    return () => this.store.settle(call);
  }

  rowFields(rec: Rec): FieldValues {
    const fields =
      (rec.id === undefined ? undefined : (this.rows.get(rec.id) ?? this.left.get(rec.id))) ?? {};
    return Object.fromEntries([...EDITED, MARK].map((f) => [f, fields[f] ?? null]));
  }
}

export type Damage =
  /** A line replaced by this text. */
  | { kind: 'line'; at: number; text: string }
  /** A piece of this text, without its newline, at the end. */
  | { kind: 'torn'; at: number; text: string }
  /** A line of this text added at the end. */
  | { kind: 'added'; text: string };

export { Dead };
