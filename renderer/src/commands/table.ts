/**
 * Every command of the app, once: its id, its default keys, where it applies and its label. Key handlers,
 * button titles, the shortcut sheet and the context menus all read this table (Grist's commandList is the
 * model), so a key is written in one place and the sheet cannot drift from what the keys do.
 *
 * Scopes, most specific first: `list` (a menu, a select editor's choices or the formula bar's completions),
 * `dialog` (a modal dialog or form holds the keyboard), `groupRow` (a group's header row of the grid), `grid`
 * (the focused grid, no cell being edited), `formula`, `find` and `goto` (typing in the formula bar, Find's
 * field or Go to row's), `tabBar` (a tab of the tab bar has the focus), `tab` (the table tab in front) and `app`
 * (anywhere). The page's listener asks
 * `tab` and `app` (dispatch.ts) and the grid's asks `grid` (rows/grid-keys.ts); a field or a bar asks its own
 * command with `isCommand` (match.ts), so its keys are written here and shown in titles and the sheet too.
 */
export type Scope =
  'list' | 'dialog' | 'groupRow' | 'grid' | 'formula' | 'find' | 'goto' | 'tabBar' | 'tab' | 'app';

export interface Command {
  scope: Scope;
  label: string;
  /** Chords as keys.ts reads them; the first is the one titles and menus show. Empty: a menu item only. */
  keys: readonly string[];
}

export const COMMANDS = {
  'app.shortcuts': { scope: 'app', label: 'Show keyboard shortcuts', keys: ['?', 'F1'] },
  'app.closeTab': { scope: 'app', label: 'Close the tab', keys: ['Mod+W'] },
  'app.nextTab': { scope: 'app', label: 'Next tab', keys: ['Ctrl+Tab'] },
  'app.previousTab': { scope: 'app', label: 'Previous tab', keys: ['Ctrl+Shift+Tab'] },
  'app.home': { scope: 'app', label: 'Home: connections and tables', keys: ['Mod+T'] },

  'tabBar.close': { scope: 'tabBar', label: 'Close the focused tab', keys: ['Delete'] },

  'tab.find': { scope: 'tab', label: 'Find in view', keys: ['Mod+F'] },
  'tab.goto': { scope: 'tab', label: 'Go to row', keys: ['Mod+G'] },
  'tab.replace': { scope: 'tab', label: 'Find and replace', keys: ['Mod+H'] },

  'formula.apply': { scope: 'formula', label: 'Apply the formula', keys: ['Enter'] },
  'formula.revert': { scope: 'formula', label: 'Back to the formula applied', keys: ['Escape'] },
  'formula.suggest': { scope: 'formula', label: 'Suggest fields and functions', keys: ['Ctrl+Space'] },

  'find.next': { scope: 'find', label: 'Next match', keys: ['Enter'] },
  'find.previous': { scope: 'find', label: 'Previous match', keys: ['Shift+Enter'] },
  'find.close': { scope: 'find', label: 'Stop the search, or close Find', keys: ['Escape'] },

  'goto.stop': { scope: 'goto', label: 'Stop going to the row', keys: ['Escape'] },

  'grid.undo': { scope: 'grid', label: 'Undo', keys: ['Mod+Z'] },
  'grid.redo': { scope: 'grid', label: 'Redo', keys: ['Mod+Shift+Z', 'Mod+Y'] },
  'grid.open': { scope: 'grid', label: 'Expand record (a checkbox flips)', keys: ['Space', 'Shift+Space'] },
  'grid.selectRow': { scope: 'grid', label: 'Select or unselect the row', keys: ['Mod+Space'] },
  'grid.extend': {
    scope: 'grid',
    label: 'Select rows, or grow a range of cells (with no rows selected)',
    keys: [
      'Shift+ArrowDown',
      'Shift+ArrowUp',
      'Shift+ArrowLeft',
      'Shift+ArrowRight',
      'Mod+Shift+ArrowDown',
      'Mod+Shift+ArrowUp',
      'Mod+Shift+ArrowLeft',
      'Mod+Shift+ArrowRight',
    ],
  },
  'grid.fillDown': { scope: 'grid', label: 'Fill down', keys: ['Mod+D'] },
  'grid.delete': {
    scope: 'grid',
    label: 'Delete the selected rows, or clear the range of cells',
    keys: ['Delete', 'Backspace'],
  },
  'grid.clearRange': { scope: 'grid', label: 'Clear the range of cells', keys: ['Escape'] },
  // Grist's keys for inserting and duplicating records (the grids the app is read beside have none in common).
  'grid.insertAbove': {
    scope: 'grid',
    label: 'Insert records above (as many as the rows selected)',
    keys: ['Mod+Shift+Enter'],
  },
  'grid.insertBelow': {
    scope: 'grid',
    label: 'Insert records below (as many as the rows selected)',
    keys: ['Mod+Enter'],
  },
  'grid.duplicate': { scope: 'grid', label: 'Duplicate the selected records', keys: ['Mod+Shift+D'] },
  'grid.copy': { scope: 'grid', label: 'Copy', keys: ['Mod+C'] },
  'grid.paste': { scope: 'grid', label: 'Paste', keys: ['Mod+V'] },
  'grid.contextMenu': {
    scope: 'grid',
    label: "The focused cell's, row number's or column header's menu",
    keys: ['Shift+F10', 'Menu'],
  },
  'grid.columnMenu': { scope: 'grid', label: "The column's menu (on its header)", keys: ['Alt+ArrowDown'] },
  'column.sortAscending': { scope: 'grid', label: 'Sort ascending', keys: [] },
  'column.sortDescending': { scope: 'grid', label: 'Sort descending', keys: [] },
  'column.clearSort': { scope: 'grid', label: 'Clear sort', keys: [] },
  'column.filterByField': { scope: 'grid', label: 'Filter by this field', keys: [] },
  'column.filterByValue': { scope: 'grid', label: 'Filter by this value', keys: [] },
  'column.hide': { scope: 'grid', label: 'Hide field', keys: [] },
  'column.freeze': { scope: 'grid', label: 'Freeze column', keys: [] },
  'column.autosize': { scope: 'grid', label: 'Autosize column', keys: [] },

  'dialog.close': { scope: 'dialog', label: 'Close the dialog or menu', keys: ['Escape'] },
  'dialog.previousRecord': {
    scope: 'dialog',
    label: 'Previous record (expanded record)',
    keys: ['Alt+ArrowUp'],
  },
  'dialog.nextRecord': { scope: 'dialog', label: 'Next record (expanded record)', keys: ['Alt+ArrowDown'] },
  'dialog.sendComment': { scope: 'dialog', label: 'Send the comment', keys: ['Mod+Enter'] },
  'dialog.saveField': {
    scope: 'dialog',
    label: "Save the field typed in (an expanded record's text, the link picker)",
    keys: ['Enter'],
  },

  'groupRow.toggle': { scope: 'groupRow', label: 'Collapse or expand the group', keys: ['Enter', 'Space'] },

  'list.next': { scope: 'list', label: 'Next item', keys: ['ArrowDown'] },
  'list.previous': { scope: 'list', label: 'Previous item', keys: ['ArrowUp'] },
  'list.first': { scope: 'list', label: 'First item (menus)', keys: ['Home'] },
  'list.last': { scope: 'list', label: 'Last item (menus)', keys: ['End'] },
  'list.take': {
    scope: 'list',
    label: 'Take the highlighted completion (Enter or Tab), or tick the highlighted choice (Enter)',
    keys: ['Enter', 'Tab'],
  },
  'list.close': { scope: 'list', label: 'Close the completions, keeping the text', keys: ['Escape'] },
} as const satisfies Record<string, Command>;

export type CommandId = keyof typeof COMMANDS;

export const SCOPES: readonly Scope[] = [
  'list',
  'dialog',
  'groupRow',
  'grid',
  'formula',
  'find',
  'goto',
  'tabBar',
  'tab',
  'app',
];

export const SCOPE_NAMES: Record<Scope, string> = {
  list: 'Menus, choices and completions',
  dialog: 'Dialogs and forms',
  groupRow: "A group's header row",
  grid: 'Grid',
  formula: 'Formula bar',
  find: 'Find',
  goto: 'Go to row',
  tabBar: 'Tab bar',
  tab: 'Table tab',
  app: 'Anywhere',
};

export const commandIds = Object.keys(COMMANDS) as CommandId[];
