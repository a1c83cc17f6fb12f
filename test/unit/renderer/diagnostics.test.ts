import { describe, expect, it } from 'vitest';
import { formulaDiagnostics } from '../../../renderer/src/formula/diagnostics';

const fields = [
  { name: 'Name', type: 'singleLineText' },
  { name: 'Points', type: 'number' },
];

describe('formula bar diagnostics', () => {
  it('reports an unknown field as an error while the schema is known', () => {
    const [d] = formulaDiagnostics('{Pionts} > 1', fields, true);
    expect(d).toMatchObject({ severity: 'error', code: 'unknown-field', start: 0, end: 8 });
    expect(d?.message).toBe('Unknown field {Pionts}. Did you mean {Points}?');
  });

  it('only warns about a field not seen yet while the fields are inferred, and keeps other errors', () => {
    const diagnostics = formulaDiagnostics("AND({Owner} = 'Ann', ROUND({Name}, 'x'))", fields, false);
    const unknown = diagnostics.find((d) => d.code === 'unknown-field');
    expect(unknown).toMatchObject({ severity: 'warning', subject: 'Owner' });
    expect(unknown?.message).toBe(
      'Unknown field {Owner}. It is not among the fields loaded so far; the service will check it.',
    );
    expect(diagnostics.some((d) => d.severity === 'error')).toBe(true);
  });

  it('has nothing to say about an empty bar', () => {
    expect(formulaDiagnostics('  ', fields, true)).toEqual([]);
  });
});
