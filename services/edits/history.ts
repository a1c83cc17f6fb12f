/**
 * Undo and redo, kept by the app per table (the grid's own undo is wiped by sorting and knows nothing of
 * creates or deletes). Stacks hold operations in the direction the user made them; undo performs the
 * inverse. Only what succeeded is pushed: a failed operation never enters a stack, and an edit the service
 * later rejects is taken back out.
 */
import type { EditEventPayload } from '../../core/contract/edits';
import { plural } from '../../core/records/format';
import type { EditQueue, Emit } from './queue';
import type { RecordWriter } from './records';
import { targetKey } from './types';
import type { EditTarget, FieldValues } from './types';

export interface EditStep {
  recordId: string;
  before: FieldValues;
  after: FieldValues;
  /** Whether writing `after` needs typecast (text the user typed); `before` came from the service as is. */
  typecast: boolean;
  beforeTypecast?: boolean;
  editId?: string;
}

export type Operation =
  | { kind: 'edit'; changes: EditStep[] }
  | { kind: 'create'; records: { id: string; fields: FieldValues }[] }
  | { kind: 'delete'; records: { id: string; fields: FieldValues }[] };

export interface HistoryResult {
  done: boolean;
  idChanges: { from: string; to: string }[];
  message?: string;
}

interface Outcome {
  done?: Operation;
  left?: Operation;
  idChanges: { from: string; to: string }[];
  message?: string;
}

const LIMIT = 200;

function inverse(op: Operation): Operation {
  switch (op.kind) {
    case 'edit':
      return {
        kind: 'edit',
        changes: op.changes.map((c) => ({
          recordId: c.recordId,
          before: c.after,
          after: c.before,
          typecast: false,
        })),
      };
    case 'create':
      return { kind: 'delete', records: op.records };
    case 'delete':
      return { kind: 'create', records: op.records };
  }
}

export const sizeOf = (op: Operation): number => (op.kind === 'edit' ? op.changes.length : op.records.length);

function describe(op: Operation): string {
  const n = sizeOf(op);
  if (op.kind === 'edit') return `edit of ${n} ${n === 1 ? 'record' : 'records'}`;
  return `${op.kind === 'create' ? 'adding' : 'deleting'} ${n} ${n === 1 ? 'record' : 'records'}`;
}

/** Two parts of one call as one step; undefined when they are not of one kind. */
function joined(a: Operation, b: Operation): Operation | undefined {
  if (a.kind === 'edit' && b.kind === 'edit') return { kind: 'edit', changes: [...a.changes, ...b.changes] };
  if (a.kind === 'create' && b.kind === 'create')
    return { kind: 'create', records: [...a.records, ...b.records] };
  if (a.kind === 'delete' && b.kind === 'delete')
    return { kind: 'delete', records: [...a.records, ...b.records] };
  return undefined;
}

interface Stacks {
  target: EditTarget;
  undo: Operation[];
  redo: Operation[];
  /** The newest undo step and the split call it came from, while more parts of that call may join it. */
  joining?: { of: string; step: Operation };
}

export class History {
  private readonly stacks = new Map<string, Stacks>();

  constructor(
    private readonly queue: EditQueue,
    private readonly records: RecordWriter,
    private readonly emit: Emit,
    /**
     * Whether a step may spend its calls (the request budget: undoing a whole view's delete re-creates every
     * record, 10 a call); without it, always.
     */
    private readonly agreed?: (target: EditTarget, op: Operation, subject: string) => Promise<boolean>,
  ) {}

  /**
   * Records a new operation the user made; it clears what could be redone. `partOf` names the call it is a part
   * of (the door split one user action to fit its frames): the parts of one call are one step.
   */
  push(target: EditTarget, op: Operation, partOf?: string): void {
    if (sizeOf(op) === 0) return;
    const s = this.of(target);
    const last = s.undo.at(-1);
    const whole =
      partOf !== undefined && s.joining?.of === partOf && last === s.joining.step
        ? joined(last, op)
        : undefined;
    if (whole !== undefined && partOf !== undefined) {
      s.undo[s.undo.length - 1] = whole;
      s.joining = { of: partOf, step: whole };
    } else {
      s.undo.push(op);
      if (s.undo.length > LIMIT) s.undo.shift();
      if (partOf === undefined) delete s.joining;
      else s.joining = { of: partOf, step: op };
    }
    s.redo = [];
    this.changed(s);
  }

  /**
   * Adds edits to `step` while it is still the newest undo step (a bulk change sent in parts, such as a stopped
   * and resumed replace, stays one step); else they become a step of their own. Returns the step as stored.
   */
  extend(target: EditTarget, step: Operation | undefined, added: EditStep[]): Operation {
    const s = this.of(target);
    if (step?.kind !== 'edit' || s.undo.at(-1) !== step) {
      const own: Operation = { kind: 'edit', changes: added };
      this.push(target, own);
      return own;
    }
    const grown: Operation = { kind: 'edit', changes: [...step.changes, ...added] };
    s.undo[s.undo.length - 1] = grown;
    s.redo = [];
    this.changed(s);
    return grown;
  }

  /** Takes edits the service rejected out of both stacks. */
  forgetEdits(editIds: readonly string[]): void {
    const ids = new Set(editIds);
    for (const s of this.stacks.values()) {
      const keep = (op: Operation): Operation => {
        if (op.kind !== 'edit') return op;
        const changes = op.changes.filter((c) => c.editId === undefined || !ids.has(c.editId));
        return changes.length === op.changes.length ? op : { kind: 'edit', changes };
      };
      s.undo = s.undo.map(keep).filter((op) => sizeOf(op) > 0);
      s.redo = s.redo.map(keep).filter((op) => sizeOf(op) > 0);
      this.changed(s);
    }
  }

  state(target: EditTarget): EditEventPayload<'history.changed'> {
    const s = this.of(target);
    const undo = s.undo.at(-1);
    const redo = s.redo.at(-1);
    return {
      target,
      canUndo: undo !== undefined,
      canRedo: redo !== undefined,
      ...(undo === undefined ? {} : { undoLabel: `Undo ${describe(undo)}` }),
      ...(redo === undefined ? {} : { redoLabel: `Redo ${describe(redo)}` }),
    };
  }

  undo(target: EditTarget): Promise<HistoryResult> {
    return this.step(target, 'undo');
  }

  redo(target: EditTarget): Promise<HistoryResult> {
    return this.step(target, 'redo');
  }

  private async step(target: EditTarget, direction: 'undo' | 'redo'): Promise<HistoryResult> {
    const s = this.of(target);
    const other = direction === 'undo' ? 'redo' : 'undo';
    const asked = s[direction].at(-1);
    if (asked === undefined) return { done: false, idChanges: [], message: `Nothing to ${direction}.` };
    const said = `${direction === 'undo' ? 'Undo' : 'Redo'} ${describe(asked)} of ${target.table}`;
    if (this.agreed !== undefined && !(await this.agreed(target, asked, said)))
      return { done: false, idChanges: [], message: `${said}: not sent, its API calls were not agreed to.` };
    // Another step made while the question was open is not the one agreed to.
    if (s[direction].at(-1) !== asked)
      return { done: false, idChanges: [], message: `The edits changed meanwhile: ${direction} again.` };
    const op = s[direction].pop();
    if (op === undefined) return { done: false, idChanges: [], message: `Nothing to ${direction}.` };
    let outcome: Outcome;
    try {
      outcome = await this.perform(target, direction === 'undo' ? inverse(op) : op);
    } catch (e) {
      s[direction].push(op);
      this.changed(s);
      throw e;
    }
    // Stacks store operations as the user made them: an undo's result goes on redo in its forward form.
    const forward = (o: Operation) => (direction === 'undo' ? inverse(o) : o);
    if (outcome.left !== undefined) s[direction].push(forward(outcome.left));
    if (outcome.done !== undefined) s[other].push(forward(outcome.done));
    for (const { from: oldId, to: newId } of outcome.idChanges) this.remap(s, oldId, newId);
    this.changed(s);
    return {
      done: outcome.done !== undefined,
      idChanges: outcome.idChanges,
      ...(outcome.message === undefined ? {} : { message: outcome.message }),
    };
  }

  /** Makes `op` happen on the service; reports the part done and the part left to try again. */
  private async perform(target: EditTarget, op: Operation): Promise<Outcome> {
    if (op.kind === 'edit') {
      const ids = await this.queue.edit(
        target,
        op.changes.map((c) => ({
          recordId: c.recordId,
          fields: c.after,
          previous: c.before,
          typecast: c.typecast,
        })),
      );
      return {
        done: { kind: 'edit', changes: op.changes.map((c, i) => ({ ...c, editId: ids[i] })) },
        idChanges: [],
      };
    }
    if (op.kind === 'delete') {
      const result = await this.records.delete(
        target,
        op.records.map((r) => r.id),
      );
      const deleted = new Set(result.deleted);
      const left = op.records.filter((r) => !deleted.has(r.id));
      return {
        ...(deleted.size === 0
          ? {}
          : { done: { kind: 'delete', records: op.records.filter((r) => deleted.has(r.id)) } }),
        ...(left.length === 0 ? {} : { left: { kind: 'delete', records: left } }),
        idChanges: [],
        ...(left.length === 0
          ? {}
          : {
              message: `${left.length} of ${plural(op.records.length, 'record')} could not be deleted: ${result.remaining[0]?.error.message ?? ''}`,
            }),
      };
    }
    const result = await this.records.create(
      target,
      op.records.map((r) => r.fields),
    );
    const idChanges = result.created.map((rec, i) => ({
      from: op.records[result.createdIndexes[i]!]!.id,
      to: rec.id,
    }));
    const created = result.created.map((rec, i) => ({
      id: rec.id,
      fields: op.records[result.createdIndexes[i]!]!.fields,
    }));
    // A record whose create outcome is unknown may exist: trying again could make a duplicate, so it leaves the stack.
    const rejected = result.failed.filter((f) => f.outcome === 'rejected').map((f) => op.records[f.index]!);
    const unknown = result.failed.filter((f) => f.outcome === 'unknown').length;
    const notes = [
      ...(created.length > 0 ? [`Re-created records get new ids.`] : []),
      ...(rejected.length > 0
        ? [`${plural(rejected.length, 'record')} could not be created: ${result.failed[0]!.error.message}`]
        : []),
      ...(unknown > 0
        ? [
            `${plural(unknown, 'record')} may or may not have been created (the reply was lost); check the table.`,
          ]
        : []),
    ];
    return {
      ...(created.length === 0 ? {} : { done: { kind: 'create', records: created } }),
      ...(rejected.length === 0 ? {} : { left: { kind: 'create', records: rejected } }),
      idChanges,
      message: notes.join(' '),
    };
  }

  /** A re-created record has a new id: later steps that name the old one must follow it. */
  private remap(s: Stacks, oldId: string, newId: string): void {
    const fix = (op: Operation): Operation =>
      op.kind === 'edit'
        ? { ...op, changes: op.changes.map((c) => (c.recordId === oldId ? { ...c, recordId: newId } : c)) }
        : { ...op, records: op.records.map((r) => (r.id === oldId ? { ...r, id: newId } : r)) };
    s.undo = s.undo.map(fix);
    s.redo = s.redo.map(fix);
  }

  private of(target: EditTarget): Stacks {
    const key = targetKey(target);
    let s = this.stacks.get(key);
    if (s === undefined) {
      s = { target, undo: [], redo: [] };
      this.stacks.set(key, s);
    }
    return s;
  }

  private changed(s: Stacks): void {
    this.emit('history.changed', this.state(s.target));
  }
}
