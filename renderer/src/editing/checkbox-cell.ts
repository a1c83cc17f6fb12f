/**
 * A checkbox cell drawn as a box, empty or ticked (an unchecked box is absent from the record, and must
 * not look like an empty or unknown value). Toggling is the table's job (one click or Space), not an editor's.
 */
import type { CellDraw, CellView } from '../grid/parts';

export class CheckboxCell implements CellView {
  private readonly box = document.createElement('span');

  init(params: CellDraw): void {
    this.box.setAttribute('role', 'checkbox');
    this.render(params);
  }

  getGui(): HTMLElement {
    return this.box;
  }

  refresh(params: CellDraw): boolean {
    this.render(params);
    return true;
  }

  private render(params: CellDraw): void {
    const checked = params.value === true;
    this.box.className = checked ? 'td-checkbox is-checked' : 'td-checkbox';
    this.box.setAttribute('aria-checked', String(checked));
    this.box.textContent = checked ? '✓' : '';
    // A row still loading has no value to show yet.
    this.box.hidden = params.data === undefined;
  }
}
