/**
 * A React cell editor in ag-grid's plain grid, which asks for a class with a DOM element: this one mounts the
 * editor in a React root of its own and keeps the value the editor reports. One editor is open at a time, so
 * React costs nothing per cell while scrolling.
 */
import type { ComponentType } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import type { Root } from 'react-dom/client';
import type { ICellEditorComp, ICellEditorParams } from 'ag-grid-community';
import type { RecordData } from '../../../core/records/types';

export interface EditorProps<TValue> {
  initialValue: TValue | null | undefined;
  value: TValue | null | undefined;
  /** `undefined` keeps the editor open with an invalid entry. */
  onValueChange: (value: TValue | null | undefined) => void;
  stopEditing: (suppressNavigateAfterEdit?: boolean) => void;
}

type Params<TValue, TExtra> = ICellEditorParams<RecordData, TValue> & TExtra;

export function reactEditor<TValue, TExtra extends object = object>(
  Editor: ComponentType<EditorProps<TValue> & TExtra>,
): new () => ICellEditorComp<RecordData, TValue> {
  return class implements ICellEditorComp<RecordData, TValue> {
    private readonly gui = document.createElement('div');
    private root: Root | undefined;
    private params: Params<TValue, TExtra> | undefined;
    private value: TValue | null | undefined;

    init(params: Params<TValue, TExtra>): void {
      this.params = params;
      this.value = params.value;
      this.root = createRoot(this.gui);
      this.render();
    }

    getGui(): HTMLElement {
      return this.gui;
    }

    afterGuiAttached(): void {
      this.gui.querySelector<HTMLElement>('input, button')?.focus();
    }

    getValue(): TValue | null | undefined {
      return this.value;
    }

    destroy(): void {
      const root = this.root;
      // The grid may close the editor from inside one of its own React events: unmount once that is done.
      queueMicrotask(() => root?.unmount());
    }

    private render(): void {
      const params = this.params;
      if (!params || !this.root) return;
      const root = this.root;
      // Synchronously, so the editor's elements exist when the grid attaches and focuses them.
      flushSync(() =>
        root.render(
          <Editor
            {...params}
            initialValue={params.value}
            value={this.value}
            onValueChange={(value) => {
              this.value = value;
              this.render();
            }}
            stopEditing={(suppress) => params.stopEditing(suppress)}
          />,
        ),
      );
    }
  };
}
