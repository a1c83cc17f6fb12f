import { describe, expect, it } from 'vitest';
import type { Comment } from '../../../core/contract';
import {
  isOwn,
  withAdded,
  withEarlierPage,
  withRemoved,
  withReplaced,
} from '../../../renderer/src/rows/comments/thread';

const comment = (n: number, author = 'usrMe'): Comment => ({
  id: `com${n}`,
  author: { id: author },
  text: `c${n}`,
  createdTime: `2030-01-01T00:00:0${n}.000Z`,
  lastUpdatedTime: null,
});
const texts = (t: { comments: Comment[] }) => t.comments.map((c) => c.text);

describe('a record’s comment thread', () => {
  it('shows pages that come newest first with the newest last, earlier pages in front', () => {
    let t = withEarlierPage({ comments: [] }, { comments: [comment(5), comment(4)], offset: 'o1' });
    expect(texts(t)).toEqual(['c4', 'c5']);
    expect(t.earlier).toBe('o1');
    t = withEarlierPage(t, { comments: [comment(3), comment(2)] });
    expect(texts(t)).toEqual(['c2', 'c3', 'c4', 'c5']);
    expect(t.earlier).toBeUndefined();
  });

  it('shows a comment once when a page that moved along brings it back', () => {
    let t = withEarlierPage({ comments: [] }, { comments: [comment(3), comment(2)], offset: 'o1' });
    t = withAdded(t, comment(4));
    t = withEarlierPage(t, { comments: [comment(2), comment(1)] });
    expect(texts(t)).toEqual(['c1', 'c2', 'c3', 'c4']);
  });

  it('adds last, replaces in place, removes, and gives edit and delete to the author only', () => {
    let t = withAdded({ comments: [comment(1)] }, comment(2));
    t = withReplaced(t, { ...comment(1), text: 'edited' });
    expect(texts(t)).toEqual(['edited', 'c2']);
    expect(texts(withRemoved(t, 'com1'))).toEqual(['c2']);
    expect(isOwn(comment(1), 'usrMe')).toBe(true);
    expect(isOwn(comment(1, 'usrOther'), 'usrMe')).toBe(false);
    expect(isOwn(comment(1), undefined)).toBe(false);
  });
});
