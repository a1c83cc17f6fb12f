/** What the two users and the sync do in a history of the sync fuzzer: fast-check commands over one History. */
import fc from 'fast-check';
import type { Choice, Doomed, History, Where } from './history';
import { PLAIN, TABLES } from './state';
import type { TableName } from './state';

type Model = Record<string, never>;
type Command = fc.AsyncCommand<Model, History>;

const whereArb = fc.constantFrom<Where>('copy', 'service');
const tableArb = fc.constantFrom<TableName>(...TABLES);
/** Few values, so that both sides often set a cell to the same one. */
const notesArb = fc.constantFrom('a', 'b', 'c', '');
const ageArb = fc.constantFrom(1, 2, 3, null);
const picksArb = fc.array(fc.nat(9), { maxLength: 3 });
const choicesArb = fc.array(fc.constantFrom<Choice>(0, 1, 2, 3), { minLength: 1, maxLength: 4 });

class Edit implements Command {
  constructor(
    readonly where: Where,
    readonly table: TableName,
    readonly k: number,
    readonly field: string,
    readonly value: unknown,
  ) {}
  check = () => true;
  run = (_m: Model, h: History) => h.edit(this.where, this.table, this.k, this.field, this.value);
  toString = () => `edit(${this.where} ${this.table}#${this.k}.${this.field}=${JSON.stringify(this.value)})`;
}

/** Both users edit the same cell before the next sync: a conflict unless they agree. */
class Clash implements Command {
  constructor(
    readonly table: TableName,
    readonly k: number,
    readonly field: string,
    readonly values: [unknown, unknown],
  ) {}
  check = () => true;
  async run(_m: Model, h: History): Promise<void> {
    await h.edit('copy', this.table, this.k, this.field, this.values[0]);
    await h.edit('service', this.table, this.k, this.field, this.values[1]);
  }
  toString = () =>
    `clash(${this.table}#${this.k}.${this.field}: ${this.values.map((v) => JSON.stringify(v)).join(' / ')})`;
}

class Link implements Command {
  constructor(
    readonly where: Where,
    readonly table: TableName,
    readonly k: number,
    readonly picks: number[],
  ) {}
  check = () => true;
  run = (_m: Model, h: History) => h.setLinks(this.where, this.table, this.k, this.picks);
  toString = () => `link(${this.where} ${this.table}#${this.k} -> ${this.picks.join(',')})`;
}

/** A person's one-way link cell (People.Manager) set to the people picked, itself among them maybe. */
class Manage implements Command {
  constructor(
    readonly where: Where,
    readonly k: number,
    readonly picks: number[],
  ) {}
  check = () => true;
  run = (_m: Model, h: History) => h.setOneWay(this.where, this.k, this.picks);
  toString = () => `manage(${this.where} People#${this.k} -> ${this.picks.join(',')})`;
}

/**
 * The service deletes a person the copy edited, or one another person links one way (that link made here or
 * there first): a conflict to hold, or a link to take out of every cell.
 */
class Doom implements Command {
  constructor(
    readonly k: number,
    readonly how: Doomed,
    readonly j: number,
  ) {}
  check = () => true;
  run = (_m: Model, h: History) => h.doom(this.k, this.how, this.j);
  toString = () => `doom(People#${this.k}, ${this.how} by People#${this.j})`;
}

class Create implements Command {
  constructor(
    readonly where: Where,
    readonly table: TableName,
    readonly notes: string,
    readonly picks: number[],
  ) {}
  check = () => true;
  run = (_m: Model, h: History) => h.create(this.where, this.table, this.notes, this.picks);
  toString = () => `create(${this.where} ${this.table} ${this.notes} -> ${this.picks.join(',')})`;
}

class Delete implements Command {
  constructor(
    readonly where: Where,
    readonly table: TableName,
    readonly k: number,
  ) {}
  check = () => true;
  run = (_m: Model, h: History) => h.remove(this.where, this.table, this.k);
  toString = () => `delete(${this.where} ${this.table}#${this.k})`;
}

class Sync implements Command {
  constructor(readonly stopAt: number | undefined) {}
  check = () => true;
  run = (_m: Model, h: History) => h.sync(this.stopAt);
  toString = () => (this.stopAt === undefined ? 'sync' : `sync(stopped at request ${this.stopAt})`);
}

class Resolve implements Command {
  constructor(readonly choices: Choice[]) {}
  check = () => true;
  run = (_m: Model, h: History) => h.resolve(this.choices);
  toString = () => `resolve(${this.choices.join(',')})`;
}

export function commandsArb(maxCommands: number, replayPath?: string) {
  const edit = fc
    .tuple(whereArb, tableArb, fc.nat(9), fc.nat(1), notesArb, ageArb)
    .map(([where, table, k, f, notes, age]) => {
      const field = PLAIN[table][f % PLAIN[table].length]!;
      return new Edit(where, table, k, field, field === 'Age' ? age : notes);
    });
  const clash = fc
    .tuple(tableArb, fc.nat(9), fc.nat(1), fc.tuple(notesArb, notesArb), fc.tuple(ageArb, ageArb))
    .map(([table, k, f, notes, ages]) => {
      const field = PLAIN[table][f % PLAIN[table].length]!;
      return new Clash(table, k, field, field === 'Age' ? ages : notes);
    });
  const any = fc.oneof(
    ...[
      { arbitrary: edit, weight: 5 },
      { arbitrary: clash, weight: 2 },
      {
        arbitrary: fc.tuple(whereArb, tableArb, fc.nat(9), picksArb).map((a) => new Link(...a)),
        weight: 3,
      },
      {
        arbitrary: fc.tuple(whereArb, fc.nat(9), picksArb).map((a) => new Manage(...a)),
        weight: 3,
      },
      {
        arbitrary: fc
          .tuple(fc.nat(9), fc.constantFrom<Doomed>('edited', 'linked here', 'linked there'), fc.nat(9))
          .map((a) => new Doom(...a)),
        weight: 2,
      },
      {
        arbitrary: fc.tuple(whereArb, tableArb, notesArb, picksArb).map((a) => new Create(...a)),
        weight: 2,
      },
      { arbitrary: fc.tuple(whereArb, tableArb, fc.nat(9)).map((a) => new Delete(...a)), weight: 2 },
      {
        arbitrary: fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }).map((n) => new Sync(n)),
        weight: 3,
      },
      { arbitrary: choicesArb.map((c) => new Resolve(c)), weight: 1 },
    ].map(({ arbitrary, weight }) => ({ arbitrary: arbitrary as fc.Arbitrary<Command>, weight })),
  );
  return fc.commands([any], { maxCommands, ...(replayPath === undefined ? {} : { replayPath }) });
}

export { choicesArb };
