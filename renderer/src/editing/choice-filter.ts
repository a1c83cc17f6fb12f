/**
 * The choices a select editor offers for what has been typed: those whose name starts with it first, then
 * those with a word starting with it, then the rest containing it, each in the field's order; case is
 * ignored. So "do" offers Done before Todo, and Enter takes the one a person meant.
 */
export function filterChoices(names: readonly string[], typed: string): string[] {
  const text = typed.trim().toLowerCase();
  if (text === '') return [...names];
  const rank = (name: string): number => {
    const lower = name.toLowerCase();
    if (lower.startsWith(text)) return 0;
    if (lower.split(/\s+/).some((word) => word.startsWith(text))) return 1;
    return lower.includes(text) ? 2 : 3;
  };
  return names
    .map((name, i) => ({ name, i, rank: rank(name) }))
    .filter((c) => c.rank < 3)
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map((c) => c.name);
}
