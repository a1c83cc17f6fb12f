/**
 * services/secrets.ts, the last step before anything reaches a door: every key it was told of is hidden in
 * every string and every property name, at any depth, and a value it cannot walk goes out as nothing of it.
 */
import { describe, expect, it } from 'vitest';
import { REDACTED, Secrets } from '../../../services/secrets';

const KEY = 'patKEY123.secret';

function secretsOf(...keys: (string | undefined)[]): Secrets {
  const secrets = new Secrets();
  for (const key of keys) secrets.add(key);
  return secrets;
}

describe('redacting the keys this process handled', () => {
  it('hides a key in a property name, at the top and nested in arrays and objects', () => {
    const { redact } = secretsOf(KEY);
    const out = redact({
      [KEY]: 1,
      list: [{ [`by ${KEY}`]: { [KEY]: 'x' } }],
      deep: { a: { b: { [`${KEY}${KEY}`]: true } } },
    });
    expect(out).toEqual({
      [REDACTED]: 1,
      list: [{ [`by ${REDACTED}`]: { [REDACTED]: 'x' } }],
      deep: { a: { b: { [`${REDACTED}${REDACTED}`]: true } } },
    });
    expect(JSON.stringify(out)).not.toContain(KEY);
  });

  it('hides a key in every string, every occurrence, whichever key it is', () => {
    const other = 'keyTwo-0000000';
    const { redact } = secretsOf(KEY, other);
    expect(redact(`Bearer ${KEY} and again ${KEY}`)).toBe(`Bearer ${REDACTED} and again ${REDACTED}`);
    expect(redact({ message: `${other}/${KEY}`, n: 3, none: null, flag: false })).toEqual({
      message: `${REDACTED}/${REDACTED}`,
      n: 3,
      none: null,
      flag: false,
    });
    expect(redact([['deep', [KEY]]])).toEqual([['deep', [REDACTED]]]);
  });

  it('finds a key that JSON escapes (a quote or a backslash in it) wherever it is', () => {
    const odd = 'key"with\\quote';
    const { redact } = secretsOf(odd);
    expect(redact({ [odd]: [`said ${odd}`] })).toEqual({ [REDACTED]: [`said ${REDACTED}`] });
  });

  it('passes a value holding no key as the same object, and hides nothing before a key is known', () => {
    const value = { a: [1, 'plain'], b: { c: 'text' } };
    expect(secretsOf(KEY).redact(value)).toBe(value);
    const none = { [KEY]: KEY };
    expect(secretsOf().redact(none)).toBe(none);
    expect(secretsOf(undefined).redact(none)).toBe(none);
  });

  it('hides keys of 8 characters or more; a shorter one would mangle ordinary text and is no secret', () => {
    expect(secretsOf('1234567').redact('a 1234567 b')).toBe('a 1234567 b');
    expect(secretsOf('12345678').redact('a 12345678 b')).toBe(`a ${REDACTED} b`);
  });

  it('keeps a name such as __proto__ a plain property, and walks a value that is not JSON', () => {
    const { redact } = secretsOf(KEY);
    const hostile = JSON.parse(`{"__proto__": {"${KEY}": 1}}`) as Record<string, unknown>;
    const out = redact(hostile) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).not.toContain(KEY);

    const cyclic: Record<string, unknown> = { [KEY]: KEY };
    cyclic.self = cyclic;
    const walked = redact(cyclic) as Record<string, unknown>;
    expect(walked[REDACTED]).toBe(REDACTED);
    expect(Object.keys(walked)).not.toContain(KEY);
    expect(redact({ big: 10n, note: KEY })).toEqual({ big: 10n, note: REDACTED });
  });

  it('withholds a value too deep to walk instead of sending any of it', () => {
    const { redact } = secretsOf(KEY);
    let deep: unknown = [KEY];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const out = redact(deep);
    expect(typeof out).toBe('string');
    expect(out).not.toContain(KEY);
  });
});
