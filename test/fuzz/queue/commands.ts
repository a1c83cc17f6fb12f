/** What the queue fuzzer's user (and bad day) does: fast-check commands over one History. */
import fc from 'fast-check';
import type { Fault } from '../../support/fault-proxy';
import { Dead, EDITED, MARK } from './history';
import type { Damage, History } from './history';

type Model = Record<string, never>;
type Command = fc.AsyncCommand<Model, History>;

const plain = (x: unknown) => JSON.stringify(x);

/** Values of a few kinds, few enough that cells are set to the same value again; 'x' is refused as a number. */
const nameArb = fc.constantFrom('a', 'b', 'c', '', null, 'a b', 'é');
const pointsArb = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(1, 2, 3, 0, null) },
  { weight: 1, arbitrary: fc.constant('x') },
);
const changeArb = fc
  .tuple(fc.nat(20), fc.constantFrom(...EDITED), nameArb, pointsArb)
  .map(([rec, field, name, points]) => ({ rec, field, value: field === 'Name' ? name : points }));

class Edit implements Command {
  constructor(
    readonly changes: { rec: number; field: string; value: unknown }[],
    readonly wait: boolean,
  ) {}
  check = () => true;
  async run(_m: Model, h: History): Promise<void> {
    const byRec = new Map<
      string,
      { recordId: string; fields: Record<string, unknown>; previous: Record<string, unknown> }
    >();
    const seen: {
      rec: NonNullable<ReturnType<History['pick']>>;
      field: string;
      before: unknown;
      mark: unknown;
    }[] = [];
    for (const c of this.changes) {
      const rec = h.pick(c.rec);
      if (rec?.id === undefined) continue;
      const change = byRec.get(rec.id) ?? { recordId: rec.id, fields: {}, previous: {} };
      if (!(c.field in change.fields)) {
        change.previous[c.field] = h.shown(rec, c.field);
        seen.push({ rec, field: c.field, before: h.shown(rec, c.field), mark: h.marked(rec, c.field) });
      }
      change.fields[c.field] = c.value;
      byRec.set(rec.id, change);
    }
    const changes = [...byRec.values()].map((c) => ({ ...c, typecast: false }));
    if (changes.length === 0) return;
    const app = await h.app();
    const settle = h.typing(changes);
    const call = h.until((p) =>
      p.services.handlers['edits.edit']({ target: h.targetOf(), changes, undoable: true }),
    );
    const done = call.then(
      () => settle(),
      (e: unknown) => {
        settle();
        if (!app.alive) return;
        h.note(`  refused: ${String(e)}`);
        // A cell nothing else was on its way to must be as it was: its old value, no mark.
        if (this.wait)
          for (const s of seen) if (s.mark === undefined) h.checkRefused(s.rec, s.field, s.before, s.mark);
      },
    );
    if (this.wait) await done;
  }
  toString = () => `Edit(${plain(this.changes)}${this.wait ? '' : ', no wait'})`;
}

class Discard implements Command {
  constructor(
    readonly rec: number,
    readonly waiting: boolean,
  ) {}
  check = () => true;
  async run(_m: Model, h: History): Promise<void> {
    const rec = h.pick(this.rec);
    if (rec?.id === undefined) return;
    const fields = EDITED.filter((f) => h.marked(rec, f) !== undefined);
    if (fields.length === 0) return;
    h.discarded(rec, fields);
    const request = { target: h.targetOf(), recordId: rec.id, waiting: this.waiting };
    const r = await h.until((p) => p.services.handlers['edits.discardAll'](request)).catch((e: unknown) => e);
    if (r instanceof Dead || r instanceof Error) return;
    await h.checkDiscarded(rec, fields);
  }
  toString = () => `Discard(${this.rec}${this.waiting ? ', waiting too' : ''})`;
}

class Retry implements Command {
  constructor(readonly rec: number) {}
  check = () => true;
  async run(_m: Model, h: History): Promise<void> {
    const rec = h.pick(this.rec);
    if (rec?.id === undefined) return;
    await h
      .until((p) => p.services.handlers['edits.retry']({ target: h.targetOf(), recordId: rec.id! }))
      .catch(() => undefined);
  }
  toString = () => `Retry(${this.rec})`;
}

class Create implements Command {
  constructor(
    readonly count: number,
    readonly name: unknown,
    readonly wait: boolean,
  ) {}
  check = () => true;
  async run(_m: Model, h: History): Promise<void> {
    const records = Array.from({ length: this.count }, (_, i) => ({
      fields: { Name: this.name, Points: i, [MARK]: h.mark() },
    }));
    const call = h
      .until((p) =>
        p.services.handlers['records.create']({
          target: h.targetOf(),
          records,
          typecast: false,
          undoable: true,
        }),
      )
      .catch(() => undefined);
    if (this.wait) await call;
  }
  toString = () => `Create(${this.count}, ${plain(this.name)}${this.wait ? '' : ', no wait'})`;
}

class Delete implements Command {
  constructor(
    readonly recs: number[],
    readonly wait: boolean,
  ) {}
  check = () => true;
  async run(_m: Model, h: History): Promise<void> {
    const picked = [...new Set(this.recs.map((n) => h.pick(n)).filter((r) => r?.id !== undefined))];
    if (picked.length === 0) return;
    const records = picked.map((r) => ({ id: r!.id!, fields: h.rowFields(r!) }));
    const call = h
      .until((p) =>
        p.services.handlers['records.delete']({
          target: h.targetOf(),
          records,
          readOnlyFields: [],
          undoable: true,
        }),
      )
      .catch(() => undefined);
    if (this.wait) await call;
  }
  toString = () => `Delete(${plain(this.recs)}${this.wait ? '' : ', no wait'})`;
}

class Undo implements Command {
  check = () => true;
  async run(_m: Model, h: History): Promise<void> {
    await h
      .until((p) => p.services.handlers['history.undo']({ target: h.targetOf() }))
      .catch(() => undefined);
  }
  toString = () => 'Undo';
}

class Inject implements Command {
  constructor(
    readonly fault: Fault,
    readonly method: string,
    readonly times: number,
  ) {}
  check = () => true;
  async run(_m: Model, h: History): Promise<void> {
    h.world.proxy.inject(this.fault, {
      match: (r) => this.method === '*' || r.method === this.method,
      times: this.times,
    });
  }
  toString = () => `Inject(${plain(this.fault)}, ${this.method} x${this.times})`;
}

class Kill implements Command {
  constructor(
    readonly afterMs: number,
    readonly damage?: Damage,
  ) {}
  check = () => true;
  async run(_m: Model, h: History): Promise<void> {
    if (!h.running) return;
    await h.kill(this.afterMs, this.damage);
  }
  toString = () => `Kill(${this.afterMs} ms${this.damage ? `, ${plain(this.damage)}` : ''})`;
}

class Disk implements Command {
  constructor(
    readonly room: number,
    readonly shortWrites: number,
  ) {}
  check = () => true;
  async run(_m: Model, h: History): Promise<void> {
    h.disk.room = this.room;
    h.disk.shortWrites = this.shortWrites;
  }
  toString = () => `Disk(room ${this.room}, short writes ${this.shortWrites})`;
}

class Wait implements Command {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(): Promise<void> {
    await new Promise((r) => setTimeout(r, this.ms));
  }
  toString = () => `Wait(${this.ms})`;
}

const faultArb: fc.Arbitrary<Fault> = fc.oneof(
  fc.constant<Fault>({ type: 'status', status: 429, retryAfter: '0.05' }),
  fc.constant<Fault>({ type: 'status', status: 429 }),
  fc.constant<Fault>({ type: 'status', status: 503 }),
  fc.constant<Fault>({ type: 'status', status: 500, body: 'Internal error' }),
  fc.constant<Fault>({ type: 'drop-before' }),
  fc.constant<Fault>({ type: 'drop-after' }),
  fc.integer({ min: 20, max: 300 }).map((ms): Fault => ({ type: 'delay', ms, after: 'response' })),
);

/** Text a damaged journal line may hold: none of it is a line the journal accepts. */
const DAMAGED = [
  '{"t":"edit","id":"zz"}',
  '{"t":"ack"}',
  '{"t":"fail","refs":[["a","b"]],"error":"no"}',
  '{"t":"create","id":"c","at":"soon","target":{},"records":[]}',
  'null',
  '[1,2]',
  '\u0000\u0000\u0000\u0000',
  'garbage }{ "t":',
];
/** Whole lines a write cut short leaves a piece of. */
const TORN = [
  '{"t":"ack","refs":[["00000000-0000-0000-0000-000000000000","Name"]]}',
  '{"t":"edit","id":"torn","at":1,"target":{"connectionId":"fuzz","baseId":"app","table":"Tasks"},"recordId":"rec","fields":{"Name":"t"},"typecast":false}',
];
const damageArb: fc.Arbitrary<Damage> = fc.oneof(
  fc.record({ kind: fc.constant('line' as const), at: fc.nat(50), text: fc.constantFrom(...DAMAGED) }),
  fc.record({ kind: fc.constant('torn' as const), at: fc.nat(200), text: fc.constantFrom(...TORN) }),
  fc.record({ kind: fc.constant('added' as const), text: fc.constantFrom(...DAMAGED) }),
);

/** The command sequences; `replayPath` replays a shrunk one exactly. */
export const commandsArb = (replayPath?: string) =>
  fc.commands<Model, History, false>(
    [
      fc
        .tuple(fc.array(changeArb, { minLength: 1, maxLength: 4 }), fc.boolean())
        .map(([c, w]) => new Edit(c, w)),
      fc.tuple(changeArb, fc.boolean()).map(([c, w]) => new Edit([c], w)),
      fc.tuple(fc.nat(20), fc.boolean()).map(([r, w]) => new Discard(r, w)),
      fc.nat(20).map((r) => new Retry(r)),
      fc
        .tuple(fc.integer({ min: 1, max: 12 }), nameArb, fc.boolean())
        .map(([n, name, w]) => new Create(n, name, w)),
      fc
        .tuple(fc.array(fc.nat(20), { minLength: 1, maxLength: 12 }), fc.boolean())
        .map(([r, w]) => new Delete(r, w)),
      fc.constant(new Undo()),
      fc
        .tuple(
          faultArb,
          fc.constantFrom('*', 'PATCH', 'POST', 'DELETE', 'GET'),
          fc.integer({ min: 1, max: 3 }),
        )
        .map(([f, m, t]) => new Inject(f, m, t)),
      fc
        .tuple(fc.constantFrom(0, 0, 5, 20, 60, 150), fc.option(damageArb, { freq: 2 }))
        .map(([ms, d]) => new Kill(ms, d ?? undefined)),
      fc
        .tuple(fc.constantFrom(Infinity, Infinity, 0, 40, 200, 700), fc.constantFrom(0, 0, 1, 7, 64))
        .map(([room, short]) => new Disk(room, short)),
      fc.constantFrom(10, 50, 200).map((ms) => new Wait(ms)),
    ],
    { maxCommands: 25, ...(replayPath === undefined ? {} : { replayPath }) },
  );
