/**
 * A user's big uploads take turns (server/http/upload-turns.ts): at most two are read at a time,
 * the next waits until one leaves, a small one never waits, and another user's uploads are not held.
 */
import { describe, expect, it } from 'vitest';
import { SMALL_UPLOAD_BODY, UploadTurns } from '../../../server/http/upload-turns';

const BIG = SMALL_UPLOAD_BODY + 1;
/** The bound the server keeps: two big uploads of one user read at a time. */
const UPLOADS_AT_ONCE = 2;

/** Whether a turn has come, after the promises already settled have run. */
async function started(turn: Promise<void>): Promise<boolean> {
  let come = false;
  void turn.then(() => (come = true));
  await new Promise((r) => setImmediate(r));
  return come;
}

describe('UploadTurns', () => {
  it('reads two big uploads of a user at once; the next waits for one to leave', async () => {
    const turns = new UploadTurns();
    const running = Array.from({ length: UPLOADS_AT_ONCE }, () => turns.enter('usr1', BIG));
    for (const r of running) expect(await started(r.turn)).toBe(true);
    const next = turns.enter('usr1', BIG);
    const unknownSize = turns.enter('usr1', NaN);
    expect(await started(next.turn)).toBe(false);
    running[0]!.leave();
    expect(await started(next.turn)).toBe(true);
    // A body of unknown size counts as big: it waits too, until another leaves.
    expect(await started(unknownSize.turn)).toBe(false);
    running[1]!.leave();
    expect(await started(unknownSize.turn)).toBe(true);
  });

  it('never holds a small upload, nor another user’s', async () => {
    const turns = new UploadTurns();
    for (let i = 0; i < UPLOADS_AT_ONCE; i++) turns.enter('usr1', BIG);
    expect(await started(turns.enter('usr1', SMALL_UPLOAD_BODY).turn)).toBe(true);
    expect(await started(turns.enter('usr2', BIG).turn)).toBe(true);
  });

  it('gives the turn of an upload that left while waiting to the one after it', async () => {
    const turns = new UploadTurns();
    const running = Array.from({ length: UPLOADS_AT_ONCE }, () => turns.enter('usr1', BIG));
    const gone = turns.enter('usr1', BIG);
    const after = turns.enter('usr1', BIG);
    gone.leave();
    running[0]!.leave();
    expect(await started(gone.turn)).toBe(false);
    expect(await started(after.turn)).toBe(true);
  });
});
