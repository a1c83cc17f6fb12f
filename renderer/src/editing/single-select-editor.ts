/**
 * The single-select cell editor: a box that narrows the field's choices as you type (the key that opened the
 * editor is the first letter typed), each choice in its colour, the one to take marked. ↑ and ↓ move the mark,
 * Enter or a click takes it, Esc leaves the cell as it was; a text that matches nothing keeps the cell's value.
 * A plain DOM editor, not a React one: the grid makes it and focuses its box in the key's own event, so the
 * letters a fast typist sends next are never lost (a React editor mounts a moment later, and they were).
 */
import type { Column } from '../../../core/contract';
import { listStep } from '../commands/match';
import { MAC } from '../commands/shown';
import type { CellEditorView, EditorStart } from '../grid/parts';
import { filterChoices } from './choice-filter';
import { choiceOption, focusAtEnd, setUpListbox, setUpSearchBox, showActive } from './choice-list';
import { choiceNames } from './parse';

type Params = EditorStart & { field: Column };

/** The option that empties the cell, offered while nothing is typed. */
const NONE = '';

function noneLabel(): HTMLElement {
  const label = document.createElement('span');
  label.className = 'td-muted';
  label.textContent = '(none)';
  return label;
}

let editors = 0;

export class SingleSelectEditor implements CellEditorView<Params> {
  private readonly gui = document.createElement('div');
  private readonly box = document.createElement('input');
  private readonly list = document.createElement('ul');
  private readonly none = document.createElement('p');
  private readonly id = `td-select-editor-${++editors}`;
  private field!: Column;
  private initial = NONE;
  private names: string[] = [];
  private shown: string[] = [];
  private marked: string | undefined;

  init(params: Params): void {
    this.field = params.field;
    this.initial = typeof params.value === 'string' ? params.value : NONE;
    const choices = choiceNames(params.field);
    // A name the field no longer lists stays offered, so opening the editor never drops it silently.
    this.names =
      this.initial !== NONE && !choices.includes(this.initial) ? [...choices, this.initial] : choices;

    this.gui.className = 'td-select-editor';
    const box = this.box;
    setUpSearchBox(box, this.id, params.field, params.eventKey);
    box.addEventListener('input', () => this.narrow());
    box.addEventListener('keydown', (e) => {
      const step = listStep(e, MAC);
      if (step !== 'next' && step !== 'previous') return;
      e.preventDefault();
      this.move(step === 'next' ? 1 : -1);
    });
    setUpListbox(this.list, this.id, params.field, (index) => {
      const name = this.shown[index];
      if (name === undefined) return;
      this.marked = name;
      params.stopEditing();
    });
    this.none.className = 'td-muted';
    this.none.setAttribute('role', 'status');
    this.gui.append(box, this.list, this.none);
    this.narrow();
  }

  getGui(): HTMLElement {
    return this.gui;
  }

  /** The marked choice, or the cell's value where nothing is marked. */
  getValue(): string | null {
    const name = this.marked ?? this.initial;
    return name === NONE ? null : name;
  }

  afterGuiAttached(): void {
    focusAtEnd(this.box);
  }

  private narrow(): void {
    const typed = this.box.value;
    const empty = typed.trim() === '';
    this.shown = empty ? [NONE, ...this.names] : filterChoices(this.names, typed);
    this.marked = empty ? this.initial : this.shown[0];
    this.list.replaceChildren(
      ...this.shown.map((name, i) => {
        const option = choiceOption(this.field, this.id, i, name);
        if (name === NONE) option.replaceChildren(noneLabel());
        return option;
      }),
    );
    this.none.textContent = this.shown.length === 0 ? `No option matches “${typed.trim()}”` : '';
    this.mark();
  }

  private move(by: number): void {
    if (this.shown.length === 0) return;
    const at = this.marked === undefined ? -1 : this.shown.indexOf(this.marked);
    this.marked = this.shown[Math.min(this.shown.length - 1, Math.max(0, at + by))];
    this.mark();
  }

  private mark(): void {
    const at = this.marked === undefined ? -1 : this.shown.indexOf(this.marked);
    for (const [i, option] of [...this.list.children].entries())
      option.setAttribute('aria-selected', String(i === at));
    showActive(this.box, this.list, this.id, at);
  }
}
