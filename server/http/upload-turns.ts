/**
 * A user's big uploads take turns: at most UPLOADS_AT_ONCE of them have their bodies read and parsed at a
 * time, and the others wait before a byte of theirs is read (their sockets hold them), so many uploads at once
 * cannot fill the thread every request waits for (twenty 3 MB uploads held it 1.9 s, mostly in reading and
 * parsing their bodies together). A turn ends once its body is parsed, not when the upload is answered: the
 * file's storing and an image's decode have lanes of their own (files/thumbnails.ts), and a photo waited for
 * the decodes of three heavy images sent before it. A small upload never waits: it costs little, and a
 * thumbnail-sized file should not wait behind photos.
 */
export const UPLOADS_AT_ONCE = 2;
/** A body of at most this many bytes is a small upload. */
export const SMALL_UPLOAD_BODY = 256 * 1024;

interface Lane {
  running: number;
  waiting: (() => void)[];
}

export class UploadTurns {
  private readonly lanes = new Map<string, Lane>();

  /**
   * An upload of `bodyBytes` (NaN when unknown: counted as big) by `userId`: `turn` resolves when it may be
   * read; `leave` must be called once it is answered or its client has gone, whether or not its turn came.
   */
  enter(userId: string, bodyBytes: number): { turn: Promise<void>; leave: () => void } {
    if (bodyBytes <= SMALL_UPLOAD_BODY) return { turn: Promise.resolve(), leave: () => undefined };
    let lane = this.lanes.get(userId);
    if (!lane) this.lanes.set(userId, (lane = { running: 0, waiting: [] }));
    const l = lane;
    let state: 'waiting' | 'running' | 'left' = 'waiting';
    let start = () => undefined as void;
    const turn = new Promise<void>((resolve) => {
      start = () => {
        state = 'running';
        l.running++;
        resolve();
      };
    });
    if (l.running < UPLOADS_AT_ONCE) start();
    else l.waiting.push(start);
    const leave = () => {
      // Called when the body is parsed and again when the client goes: the second call is nothing.
      if (state === 'left') return;
      if (state === 'waiting') l.waiting.splice(l.waiting.indexOf(start), 1);
      else if (state === 'running') {
        l.running--;
        l.waiting.shift()?.();
      }
      state = 'left';
      if (l.running === 0 && l.waiting.length === 0) this.lanes.delete(userId);
    };
    return { turn, leave };
  }
}
