/**
 * The parts both select editors are made of: a search box (a combobox) over a listbox of the field's choices,
 * each drawn as the cells draw it. `id` is the editor's own, from which the list's and options' ids are made.
 */
import type { Column } from '../../../core/contract';
import { pillClass } from '../grid/cells';

/** The search box, holding the key that opened the editor (a printable one) as its first letter. */
export function setUpSearchBox(
  box: HTMLInputElement,
  id: string,
  field: Column,
  eventKey: string | null,
): void {
  box.setAttribute('role', 'combobox');
  box.setAttribute('aria-label', `Find an option of ${field.name}`);
  box.setAttribute('aria-expanded', 'true');
  box.setAttribute('aria-controls', `${id}-list`);
  box.setAttribute('aria-autocomplete', 'list');
  box.placeholder = 'Find an option';
  box.value = eventKey?.length === 1 ? eventKey : '';
}

/** The listbox; `onPick` is given the place, in the list shown, of the option clicked. */
export function setUpListbox(
  list: HTMLUListElement,
  id: string,
  field: Column,
  onPick: (index: number) => void,
): void {
  list.id = `${id}-list`;
  list.setAttribute('role', 'listbox');
  list.setAttribute('aria-label', `Options of ${field.name}`);
  // The box keeps the focus, so typing goes on where it was.
  list.addEventListener('mousedown', (e) => e.preventDefault());
  list.addEventListener('click', (e) => {
    const option = (e.target as Element).closest('[role="option"]');
    if (option) onPick(Number(option.getAttribute('data-index')));
  });
}

/** One choice of the list, at `index` in the list shown. */
export function choiceOption(field: Column, id: string, index: number, name: string): HTMLLIElement {
  const option = document.createElement('li');
  option.id = `${id}-option-${index}`;
  option.dataset['index'] = String(index);
  option.setAttribute('role', 'option');
  const label = document.createElement('span');
  label.className = pillClass(field, name);
  label.textContent = name;
  option.append(label);
  return option;
}

/** Tells assistive tech which option is highlighted (none where `at` is -1) and scrolls it into view. */
export function showActive(box: HTMLInputElement, list: HTMLUListElement, id: string, at: number): void {
  if (at < 0) {
    box.removeAttribute('aria-activedescendant');
    return;
  }
  box.setAttribute('aria-activedescendant', `${id}-option-${at}`);
  list.children[at]?.scrollIntoView({ block: 'nearest' });
}

/** Focuses the box with the caret after what it holds, so the typing goes on. */
export function focusAtEnd(box: HTMLInputElement): void {
  const end = box.value.length;
  box.focus();
  box.setSelectionRange(end, end);
}
