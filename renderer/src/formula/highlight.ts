/**
 * Splits formula text into styled segments for the formula bar's backdrop: token classes from core/formula's
 * lexer, and diagnostics underlined at their spans. A zero-width diagnostic (something missing at the end)
 * gets one space so its underline can be seen.
 */
import type { Diagnostic } from '../../../core/formula';
import { tokenize } from '../../../core/formula/lexer';

export interface Segment {
  text: string;
  token?: string;
  severity?: Diagnostic['severity'];
}

function severityAt(diagnostics: readonly Diagnostic[], start: number, end: number): Segment['severity'] {
  let found: Segment['severity'];
  for (const d of diagnostics) {
    if (d.start < end && start < Math.max(d.end, d.start + 1)) {
      if (d.severity === 'error') return 'error';
      found = 'warning';
    }
  }
  return found;
}

export function highlight(text: string, diagnostics: readonly Diagnostic[]): Segment[] {
  const tokens = tokenize(text).filter((t) => t.kind !== 'eof' && t.kind !== 'error' && t.end > t.start);
  const cuts = new Set([0, text.length]);
  for (const t of tokens) cuts.add(t.start).add(t.end);
  for (const d of diagnostics) {
    cuts.add(Math.min(d.start, text.length)).add(Math.min(Math.max(d.end, d.start + 1), text.length));
  }
  const points = [...cuts].sort((a, b) => a - b);
  const segments: Segment[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const start = points[i] as number;
    const end = points[i + 1] as number;
    if (end <= start) continue;
    const token = tokens.find((t) => t.start <= start && end <= t.end);
    const segment: Segment = { text: text.slice(start, end) };
    if (token)
      segment.token = token.kind === 'ident' && !/^\s*\(/.test(text.slice(token.end)) ? 'field' : token.kind;
    const severity = severityAt(diagnostics, start, end);
    if (severity) segment.severity = severity;
    segments.push(segment);
  }
  const atEnd = diagnostics.find((d) => d.start >= text.length);
  if (atEnd) segments.push({ text: ' ', severity: atEnd.severity });
  return segments;
}
