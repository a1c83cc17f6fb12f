/**
 * The formula bar: a highlighted input that checks the formula against the table's fields as you type
 * (core/formula's checker, errors underlined at their spans), offers fields and functions with their
 * signatures, and applies on Enter only a formula that checks. Nothing is sent while it does not. The filter
 * builder (./builder) opens beside it and writes its formula into the bar, which stays the one source of truth.
 */
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { complete } from '../../../core/formula';
import type { FormulaField } from '../../../core/formula';
import { formulaDiagnostics } from './diagnostics';
import { usePopover } from '../ui/useDismiss';
import { highlight } from './highlight';
import { FilterBuilder } from './builder/FilterBuilder';
import type { BuilderFieldInfo } from './builder/drafts';
import { isCommand, listStep } from '../commands/match';
import { MAC, shortcutProps } from '../commands/shown';

interface Props {
  fields: readonly FormulaField[];
  /** False while the fields are inferred from loaded records (schema refused): unknown fields then only warn. */
  fieldsComplete?: boolean;
  /** The formula the view is filtered by ('' for none). */
  applied: string;
  /**
   * The service's refusal of a formula the local check let through (a 422), shown while that formula is in
   * the bar; the view meanwhile shows the last query that loaded.
   */
  serviceError?: { formula: string; message: string } | undefined;
  recent: readonly string[];
  onApply: (formula: string) => void;
  /** The fields as the filter builder offers them, with select choices (default: `fields`). */
  builderFields?: readonly BuilderFieldInfo[];
}

/** The signature's parameter list split at top-level commas, to bold the argument being typed. */
function signatureParts(label: string, activeArg: number) {
  const open = label.indexOf('(');
  const close = label.lastIndexOf(')');
  if (open < 0 || close < open) return [{ text: label, active: false }];
  const params = label.slice(open + 1, close).split(/,\s*/);
  const parts = [{ text: label.slice(0, open + 1), active: false }];
  params.forEach((p, i) => {
    const last = i === params.length - 1;
    const active = i === Math.min(activeArg, params.length - 1);
    parts.push({ text: p, active }, { text: last ? '' : ', ', active: false });
  });
  parts.push({ text: label.slice(close), active: false });
  return parts;
}

const NUMERIC = new Set(['number', 'currency', 'percent', 'rating']);

/** An example made of the open table's own fields: its first single select (else its first field) and number. */
function placeholderFor(fields: readonly FormulaField[]): string {
  const usable = fields.filter((f) => !f.name.includes('}'));
  const choice = usable.find((f) => f.type === 'singleSelect') ?? usable[0];
  const number = usable.find((f) => NUMERIC.has(f.type));
  const parts = [
    ...(choice && choice !== number ? [`{${choice.name}} = '…'`] : []),
    ...(number ? [`{${number.name}} > 100`] : []),
  ];
  if (parts.length === 0) return 'Filter by formula';
  return `Filter by formula, e.g. ${parts.length > 1 ? `AND(${parts.join(', ')})` : parts[0]}`;
}

export function FormulaBar({
  fields,
  fieldsComplete = true,
  applied,
  serviceError,
  recent,
  onApply,
  builderFields = fields,
}: Props) {
  const [text, setText] = useState(applied);
  const [cursor, setCursor] = useState(applied.length);
  const [menuOpen, setMenuOpen] = useState(false);
  const [active, setActive] = useState(0);
  const { open: recentOpen, setOpen: setRecentOpen, anchor: recentAnchor } = usePopover();
  const input = useRef<HTMLTextAreaElement>(null);
  const [builderOpen, setBuilderOpen] = useState(false);
  const builderButton = useRef<HTMLButtonElement>(null);
  const pendingCursor = useRef<number | null>(null);
  /** Set while the bar changes its own text: that is not typing, so it opens no completion list. */
  const quiet = useRef(false);

  const diagnostics = useMemo(
    () => formulaDiagnostics(text, fields, fieldsComplete),
    [text, fields, fieldsComplete],
  );
  const errors = diagnostics.filter((d) => d.severity === 'error');
  const completion = useMemo(() => complete(text, cursor, fields), [text, cursor, fields]);
  const items = menuOpen ? completion.items.slice(0, 50) : [];
  const segments = useMemo(() => highlight(text, diagnostics), [text, diagnostics]);

  useLayoutEffect(() => {
    const at = pendingCursor.current;
    if (at !== null && input.current) {
      input.current.setSelectionRange(at, at);
      pendingCursor.current = null;
    }
  });

  const edit = (next: string, at: number) => {
    setText(next);
    setCursor(at);
    setActive(0);
    pendingCursor.current = at;
  };

  /**
   * Replaces part of the text as typing would, so the textarea's own undo (Ctrl+Z) can take it back; a value
   * set from script would empty that undo history.
   */
  const replace = (from: number, to: number, insert: string) => {
    const el = input.current;
    quiet.current = true;
    el?.focus();
    el?.setSelectionRange(from, to);
    const done = el ? document.execCommand(insert === '' ? 'delete' : 'insertText', false, insert) : false;
    quiet.current = false;
    if (!done) edit(text.slice(0, from) + insert + text.slice(to), from + insert.length);
  };

  const accept = (index: number) => {
    const item = completion.items[index];
    if (!item) return;
    replace(completion.from, completion.to, item.insert);
    setMenuOpen(false);
  };

  const apply = (formula: string) => {
    const trimmed = formula.trim();
    if (formulaDiagnostics(trimmed, fields, fieldsComplete).some((d) => d.severity === 'error')) return;
    setMenuOpen(false);
    onApply(trimmed);
  };

  /** The builder writes into the bar as typing would (Ctrl+Z takes it back); applying is the bar's own. */
  const writeFromBuilder = (formula: string, andApply: boolean) => {
    setBuilderOpen(false);
    replace(0, text.length, formula);
    if (andApply) apply(formula);
  };

  const closeBuilder = () => {
    setBuilderOpen(false);
    builderButton.current?.focus();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (items.length > 0) {
      const step = listStep(e, MAC);
      if (step === 'next' || step === 'previous') {
        e.preventDefault();
        const by = step === 'next' ? 1 : -1;
        setActive((a) => (a + by + items.length) % items.length);
        return;
      }
      if (isCommand('list.take', e, MAC)) {
        e.preventDefault();
        accept(active);
        return;
      }
      if (isCommand('list.close', e, MAC)) {
        e.preventDefault();
        setMenuOpen(false);
        return;
      }
    }
    if (isCommand('formula.suggest', e, MAC)) {
      e.preventDefault();
      setMenuOpen(true);
    } else if (isCommand('formula.apply', e, MAC)) {
      e.preventDefault();
      apply(text);
    } else if (isCommand('formula.revert', e, MAC) && text !== applied) {
      // Back to the formula applied; Ctrl+Z brings the typing back.
      e.preventDefault();
      setMenuOpen(false);
      replace(0, text.length, applied);
    }
  };

  const firstError = errors[0];
  const refused = !firstError && serviceError !== undefined && text.trim() === serviceError.formula;
  // Every problem is listed, errors first. The service's refusal of a formula the local check let through
  // replaces the local warnings: they were about what only the service could tell.
  const messages = refused
    ? [serviceError.message]
    : [...errors, ...diagnostics.filter((d) => d.severity !== 'error')].map((d) => d.message);
  const signature = completion.signature;

  return (
    <div className="td-formula">
      <div className="td-formula-row">
        <span className="td-formula-label" aria-hidden>
          ƒ
        </span>
        <div className="td-formula-stack">
          <pre className="td-formula-backdrop" aria-hidden>
            {segments.map((s, i) => (
              <span
                key={i}
                className={[s.token ? `tok-${s.token}` : '', s.severity ? `td-diag-${s.severity}` : '']
                  .join(' ')
                  .trim()}
              >
                {s.text}
              </span>
            ))}
            {'\n'}
          </pre>
          <textarea
            ref={input}
            className="td-formula-input"
            aria-label="Filter formula"
            aria-invalid={errors.length > 0}
            placeholder={placeholderFor(fields)}
            spellCheck={false}
            rows={1}
            value={text}
            onChange={(e) => {
              edit(e.target.value, e.target.selectionStart);
              // An emptied bar means "no filter": no list to pick from, so Enter removes the filter.
              if (!quiet.current) setMenuOpen(e.target.value.trim() !== '');
            }}
            onSelect={(e) => setCursor(e.currentTarget.selectionStart)}
            onKeyDown={onKeyDown}
            onBlur={() => setMenuOpen(false)}
          />
          {signature && (
            <div className="td-signature" role="tooltip">
              <code>
                {signatureParts(signature.label, signature.activeArg).map((p, i) =>
                  p.active ? <b key={i}>{p.text}</b> : <span key={i}>{p.text}</span>,
                )}
              </code>
              {signature.doc && <span className="td-signature-doc">{signature.doc}</span>}
            </div>
          )}
          {messages.length > 0 && text.trim() !== '' && (
            // Inside the stack, above the completion list: the list opens below the messages, never over them.
            <div
              className={`td-formula-message ${firstError || refused ? 'is-error' : ''}`}
              role={firstError || refused ? 'alert' : 'status'}
            >
              {messages.map((m, i) => (
                <div key={i}>{m}</div>
              ))}
            </div>
          )}
          {items.length > 0 && (
            <ul className="td-completions" role="listbox" aria-label="Completions">
              {items.map((item, i) => (
                <li
                  key={`${item.kind}:${item.label}`}
                  role="option"
                  aria-selected={i === active}
                  className={`td-completion td-completion-${item.kind}`}
                  onMouseDown={(e) => {
                    e.preventDefault();
                    accept(i);
                  }}
                >
                  <span className="td-completion-label">{item.label}</span>
                  {item.detail && <span className="td-completion-detail">{item.detail}</span>}
                </li>
              ))}
            </ul>
          )}
        </div>
        <button
          type="button"
          onClick={() => apply(text)}
          disabled={errors.length > 0}
          {...shortcutProps('formula.apply', 'Apply')}
        >
          Apply
        </button>
        <button
          ref={builderButton}
          type="button"
          aria-expanded={builderOpen}
          onClick={() => (builderOpen ? closeBuilder() : setBuilderOpen(true))}
          title="Build the formula from conditions"
        >
          Filter builder
        </button>
        {applied !== '' && (
          <button
            type="button"
            onClick={() => {
              edit('', 0);
              onApply('');
            }}
            title="Remove the filter"
          >
            Clear
          </button>
        )}
        <div className="td-recent" ref={recentAnchor}>
          <button
            type="button"
            disabled={recent.length === 0}
            aria-expanded={recentOpen}
            onClick={() => setRecentOpen((o) => !o)}
            title="Recent formulas for this table"
          >
            Recent ▾
          </button>
          {recentOpen && (
            <ul className="td-recent-list" role="menu">
              {recent.map((f) => (
                <li key={f} role="menuitem">
                  <button
                    type="button"
                    onClick={() => {
                      setRecentOpen(false);
                      edit(f, f.length);
                      apply(f);
                    }}
                  >
                    {f}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
      {builderOpen && (
        <FilterBuilder
          fields={builderFields}
          formula={text}
          onWrite={writeFromBuilder}
          onClose={closeBuilder}
        />
      )}
    </div>
  );
}
