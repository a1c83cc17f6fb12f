/** One choice of a select editor's list: an option holding the choice's pill, as the cells draw it. */
import type { Column } from '../../../core/contract';
import { pillClass } from '../grid/cells';

/** `index` is the choice's place in the list shown, read back when it is clicked. */
export function choiceOption(field: Column, id: string, index: number, name: string): HTMLLIElement {
  const option = document.createElement('li');
  option.id = id;
  option.dataset['index'] = String(index);
  option.setAttribute('role', 'option');
  const label = document.createElement('span');
  label.className = pillClass(field, name);
  label.textContent = name;
  option.append(label);
  return option;
}
