/**
 * The native menu with the usual shortcuts. A menu accelerator gets only the keys the page leaves unhandled
 * (Electron passes a key to the menu after the page, unless the page calls preventDefault): the grid keeps
 * Cmd/Ctrl+Z for the app's own undo, and on macOS the Edit menu's undo and redo serve text fields (the formula
 * bar, dialogs), which get Cmd+Z and Cmd+Shift+Z only through the menu there. Ctrl/Cmd+W and Ctrl+Tab are the
 * page's (tabs): no item takes them.
 */
import { app, Menu, shell } from 'electron';
import type { MenuItemConstructorOptions } from 'electron';

const HELP_URL = 'https://airtable.com/developers/web/api/introduction';

export function installMenu(): void {
  const mac = process.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [
    ...(mac ? [{ role: 'appMenu' as const }] : []),
    {
      label: '&File',
      submenu: [
        mac ? { role: 'close', accelerator: 'Cmd+Shift+W' } : { role: 'quit', accelerator: 'Ctrl+Q' },
      ],
    },
    {
      label: '&Edit',
      submenu: [
        ...(mac
          ? [{ role: 'undo' as const }, { role: 'redo' as const }, { type: 'separator' as const }]
          : []),
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { type: 'separator' },
        { role: 'selectAll' },
      ],
    },
    {
      label: '&View',
      submenu: [
        { role: 'reload' },
        ...(app.isPackaged ? [] : [{ role: 'toggleDevTools' as const }]),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    // Electron's windowMenu role adds Close (Ctrl+W) on Windows and Linux, which would take Ctrl+W from the
    // page and, on the home page, close the last window and so quit.
    mac ? { role: 'windowMenu' } : { label: '&Window', submenu: [{ role: 'minimize' }] },
    {
      role: 'help',
      submenu: [
        {
          label: 'Record Table Service API (Airtable Web API)',
          click: () => void shell.openExternal(HELP_URL),
        },
        ...(mac ? [] : [{ role: 'about' as const }]),
      ],
    },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
