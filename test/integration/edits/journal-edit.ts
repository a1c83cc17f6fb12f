/** An edit line of the journal as the journal writes it, for tests that write a journal file themselves. */
export const JOURNAL_TARGET = { connectionId: 'c', baseId: 'appX', table: 'Tasks' };

export const journalEdit = (id: string, recordId: string, fields: Record<string, unknown>) => ({
  t: 'edit' as const,
  id,
  at: 1,
  target: JOURNAL_TARGET,
  recordId,
  fields,
  typecast: false,
});
