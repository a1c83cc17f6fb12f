/**
 * Cell renderers for select pills, chips (a link cell's, links/link-cell.ts, among them), and attachment thumbnails and chips. They are plain DOM components rather than
 * React ones: many cells render per frame while scrolling, and ag-grid mounts plain components far more
 * cheaply. Text goes in through textContent only, never as HTML. Other types use a value formatter.
 */
import type { ICellRendererComp, ICellRendererParams } from 'ag-grid-community';
import type { Column } from '../../../core/contract';
import type { RecordData } from '../../../core/records/types';
import { genericText } from './format';

type Params = ICellRendererParams<RecordData, unknown> & { field: Column };

export interface Chip {
  text: string;
  className: string;
  title?: string;
  /** A linked record's chip names it, so a click can open it. */
  link?: { recordId: string; tableId: string };
}

const COLOR_FAMILIES = ['blue', 'cyan', 'teal', 'green', 'yellow', 'orange', 'red', 'pink', 'purple', 'gray'];

/** Select colours are names like "redLight2" or "yellowBright": the family picks the pill's palette. */
function colorFamily(color: unknown): string {
  if (typeof color !== 'string') return 'gray';
  return COLOR_FAMILIES.find((f) => color.startsWith(f)) ?? 'gray';
}

/** Choices without a colour take one by position, so neighbouring choices still look different. */
function choiceColors(field: Column): Map<string, string> {
  const map = new Map<string, string>();
  const choices = field.options?.['choices'];
  if (Array.isArray(choices)) {
    (choices as { name?: unknown; color?: unknown }[]).forEach((c, i) => {
      const color = c.color === undefined ? COLOR_FAMILIES[i % COLOR_FAMILIES.length] : colorFamily(c.color);
      if (typeof c.name === 'string') map.set(c.name, color ?? 'gray');
    });
  }
  return map;
}

const colorCache = new WeakMap<Column, Map<string, string>>();
function colorOf(field: Column, name: string): string {
  let colors = colorCache.get(field);
  if (!colors) {
    colors = choiceColors(field);
    colorCache.set(field, colors);
  }
  return colors.get(name) ?? 'gray';
}

/** The classes of a choice's pill, in its colour: the cells and the select editors draw choices alike. */
export function pillClass(field: Column, name: string): string {
  return `td-pill td-pill-${colorOf(field, name)}`;
}

function asList(value: unknown): unknown[] {
  if (value === null || value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** Chips in a cell: a feature's cell (links/link-cell.ts) says which, this draws them. */
export abstract class ChipsCell implements ICellRendererComp<RecordData> {
  private readonly gui = document.createElement('span');

  init(params: Params): void {
    this.gui.className = 'td-chips';
    this.render(params);
  }

  getGui(): HTMLElement {
    return this.gui;
  }

  refresh(params: Params): boolean {
    this.render(params);
    return true;
  }

  protected abstract chips(value: unknown, field: Column): Chip[];

  private render(params: Params): void {
    this.gui.replaceChildren(
      ...this.chips(params.value, params.field).map((c) => {
        const span = document.createElement('span');
        span.className = c.className;
        span.textContent = c.text;
        if (c.title !== undefined) span.title = c.title;
        if (c.link) {
          span.dataset['recordId'] = c.link.recordId;
          span.dataset['tableId'] = c.link.tableId;
        }
        return span;
      }),
    );
  }
}

export class SelectCell extends ChipsCell {
  protected chips(value: unknown, field: Column): Chip[] {
    return asList(value).map((v) => {
      const text = genericText(v);
      return { text, className: pillClass(field, text) };
    });
  }
}

/** Thumbnails drawn per cell at most; more files show as "+N". */
const MAX_THUMBNAILS = 4;

/**
 * Images as their small thumbnail (36 px high, loaded lazily, decoded off the main thread), other files as
 * chips with their name. Refreshing with the same value (the grid re-renders rows often) touches no DOM.
 */
export class AttachmentCell implements ICellRendererComp<RecordData> {
  private readonly gui = document.createElement('span');
  private value: unknown;

  init(params: Params): void {
    this.gui.className = 'td-chips td-attachment-cell';
    this.render(params.value);
  }

  getGui(): HTMLElement {
    return this.gui;
  }

  refresh(params: Params): boolean {
    if (params.value !== this.value) this.render(params.value);
    return true;
  }

  private render(value: unknown): void {
    this.value = value;
    const list = asList(value);
    const parts = list.slice(0, MAX_THUMBNAILS).map((v) => {
      const a = (v ?? {}) as { filename?: unknown; type?: unknown; thumbnails?: { small?: Partial<Thumb> } };
      const name = typeof a.filename === 'string' ? a.filename : genericText(v);
      const small = a.thumbnails?.small;
      if (small && typeof small.url === 'string') {
        const img = document.createElement('img');
        img.className = 'td-thumb';
        img.loading = 'lazy';
        img.decoding = 'async';
        img.alt = name;
        img.title = name;
        if (typeof small.width === 'number' && typeof small.height === 'number') {
          img.width = small.width;
          img.height = small.height;
        }
        img.src = small.url;
        return img;
      }
      const chip = document.createElement('span');
      chip.className = 'td-chip td-chip-file';
      chip.textContent = `📎 ${name}`;
      if (typeof a.type === 'string') chip.title = a.type;
      return chip;
    });
    if (list.length > MAX_THUMBNAILS) {
      const more = document.createElement('span');
      more.className = 'td-chip';
      more.textContent = `+${list.length - MAX_THUMBNAILS}`;
      parts.push(more);
    }
    this.gui.replaceChildren(...parts);
  }
}

interface Thumb {
  url: string;
  width: number;
  height: number;
}
