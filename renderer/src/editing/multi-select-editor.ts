/**
 * The multiple-selects cell editor: a box that narrows the field's choices as you type (the key that opened the
 * editor is the first letter typed) over a list of them in their colours, each ticked or not. ↑ and ↓ move the
 * highlight (↑ from the first leaves the list), Enter or a click ticks or unticks the highlighted choice (the
 * first match while text is typed, after which the box empties for the next name); Enter with nothing typed or
 * highlighted, Tab or Done saves the ticks, Esc leaves the cell as it was (as the single-select editor does).
 * A plain DOM editor, for the single-select editor's reason: a fast typist's next letters are never lost.
 */
import type { Column } from '../../../core/contract';
import { isCommand, listStep } from '../commands/match';
import { MAC } from '../commands/shown';
import type { CellEditorView, EditorStart } from '../grid/parts';
import { filterChoices } from './choice-filter';
import { choiceOption, focusAtEnd, setUpListbox, setUpSearchBox, showActive } from './choice-list';
import { choiceNames } from './parse';

type Params = EditorStart & { field: Column };

let editors = 0;

export class MultiSelectEditor implements CellEditorView<Params> {
  private readonly gui = document.createElement('div');
  private readonly box = document.createElement('input');
  private readonly list = document.createElement('ul');
  private readonly none = document.createElement('p');
  private readonly id = `td-multiselect-editor-${++editors}`;
  private field!: Column;
  private initial: string[] = [];
  private ticked: string[] = [];
  private names: string[] = [];
  private shown: string[] = [];
  private active: string | undefined;

  init(params: Params): void {
    this.field = params.field;
    this.initial = Array.isArray(params.value)
      ? params.value.filter((v): v is string => typeof v === 'string')
      : [];
    this.ticked = [...this.initial];
    const choices = choiceNames(params.field);
    // Names the field no longer lists stay offered and ticked, so an edit never drops them silently.
    this.names = [...choices, ...this.initial.filter((name) => !choices.includes(name))];

    this.gui.className = 'td-select-editor';
    setUpSearchBox(this.box, this.id, params.field, params.eventKey);
    this.box.addEventListener('input', () => this.narrow());
    this.box.addEventListener('keydown', (e) => this.onKey(e));
    setUpListbox(this.list, this.id, params.field, (index) => {
      const name = this.shown[index];
      if (name === undefined) return;
      this.active = name;
      this.toggle(name);
    });
    this.list.setAttribute('aria-multiselectable', 'true');
    this.none.className = 'td-muted';
    this.none.setAttribute('role', 'status');
    const done = document.createElement('button');
    done.type = 'button';
    done.textContent = 'Done';
    done.addEventListener('click', () => params.stopEditing());
    this.gui.append(this.box, this.list, this.none, done);
    this.narrow();
  }

  getGui(): HTMLElement {
    return this.gui;
  }

  /** The ticked names, those of the cell first in their order, then those ticked here in turn. */
  getValue(): string[] {
    return this.ticked;
  }

  afterGuiAttached(): void {
    focusAtEnd(this.box);
  }

  /**
   * ↑ ↓ and Enter are the list's; any other key (Enter on an empty box, Tab, Esc) is the grid's to end the edit.
   * Tab takes a completion elsewhere, but here it saves the ticks, as in every editor.
   */
  private onKey(e: KeyboardEvent): void {
    const step = listStep(e, MAC);
    if (step === 'next' || step === 'previous') {
      e.preventDefault();
      e.stopPropagation();
      this.move(step === 'next' ? 1 : -1);
      return;
    }
    if (!isCommand('list.take', e, MAC) || e.key === 'Tab') return;
    const typed = this.box.value.trim() !== '';
    if (!typed && this.active === undefined) return;
    e.preventDefault();
    e.stopPropagation();
    if (this.active === undefined) return;
    this.toggle(this.active);
    if (!typed) return;
    this.box.value = '';
    this.narrow();
  }

  private toggle(name: string): void {
    this.ticked = this.ticked.includes(name) ? this.ticked.filter((t) => t !== name) : [...this.ticked, name];
    this.mark();
  }

  private narrow(): void {
    const typed = this.box.value;
    this.shown = filterChoices(this.names, typed);
    this.active = typed.trim() === '' ? undefined : this.shown[0];
    this.list.replaceChildren(
      ...this.shown.map((name, i) => {
        const option = choiceOption(this.field, this.id, i, name);
        const tick = document.createElement('span');
        tick.className = 'td-tick';
        tick.setAttribute('aria-hidden', 'true');
        option.prepend(tick);
        return option;
      }),
    );
    this.none.textContent = this.shown.length === 0 ? `No option matches “${typed.trim()}”` : '';
    this.mark();
  }

  private move(by: number): void {
    if (this.shown.length === 0) return;
    const at = this.active === undefined ? -1 : this.shown.indexOf(this.active);
    const next = Math.min(this.shown.length - 1, at + by);
    this.active = next < 0 ? undefined : this.shown[next];
    this.mark();
  }

  /** Ticks are the options' selection; the highlight is the box's active descendant. */
  private mark(): void {
    const at = this.active === undefined ? -1 : this.shown.indexOf(this.active);
    for (const [i, option] of [...this.list.children].entries()) {
      const name = this.shown[i] ?? '';
      option.setAttribute('aria-selected', String(this.ticked.includes(name)));
      option.classList.toggle('td-active', i === at);
    }
    showActive(this.box, this.list, this.id, at);
  }
}
