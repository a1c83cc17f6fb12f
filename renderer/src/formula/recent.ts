/**
 * Recently applied formulas, per table, in the renderer's localStorage (formulas are not secrets; keys never
 * reach the renderer). Newest first, without duplicates.
 */
const LIMIT = 10;

function storageKey(tableKey: string): string {
  return `tabledesk.recentFormulas.${tableKey}`;
}

export function recentFormulas(tableKey: string): string[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(storageKey(tableKey)) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((f): f is string => typeof f === 'string') : [];
  } catch {
    // A corrupt entry only loses the history, never the app.
    return [];
  }
}

export function rememberFormula(tableKey: string, formula: string): string[] {
  const list = [formula, ...recentFormulas(tableKey).filter((f) => f !== formula)].slice(0, LIMIT);
  localStorage.setItem(storageKey(tableKey), JSON.stringify(list));
  return list;
}
