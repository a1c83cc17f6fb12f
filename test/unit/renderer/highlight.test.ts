import { describe, expect, it } from 'vitest';
import { highlight } from '../../../renderer/src/formula/highlight';

describe('formula highlighting', () => {
  it('classes every token and keeps the text intact', () => {
    const text = "AND({Status} = 'Done', {Budget} > 10)";
    const segments = highlight(text, []);
    expect(segments.map((s) => s.text).join('')).toBe(text);
    const classOf = (t: string) => segments.find((s) => s.text === t)?.token;
    expect(classOf('AND')).toBe('ident');
    expect(classOf('{Status}')).toBe('field');
    expect(classOf("'Done'")).toBe('string');
    expect(classOf('10')).toBe('number');
    expect(classOf('>')).toBe('op');
  });

  it('underlines a diagnostic at its span, and one at the very end on an added space', () => {
    const text = '{A} + {B}';
    const segments = highlight(text, [
      { message: 'unknown field', start: 6, end: 9, severity: 'error' },
      { message: 'missing )', start: 9, end: 9, severity: 'error' },
    ]);
    expect(segments.filter((s) => s.severity === 'error').map((s) => s.text)).toEqual(['{B}', ' ']);
    expect(segments.find((s) => s.text === '{A}')?.severity).toBeUndefined();
  });
});
