/** The main window's size, position and maximized state, kept in userData between launches. */
import { join } from 'node:path';
import { screen } from 'electron';
import type { BrowserWindow, Rectangle } from 'electron';
import { z } from 'zod';
import { readJsonFile, serial, writeJsonFile } from '../services/storage/json-file';

const stateSchema = z.object({
  bounds: z.object({ x: z.number(), y: z.number(), width: z.number().min(200), height: z.number().min(150) }),
  maximized: z.boolean(),
});
type WindowState = z.infer<typeof stateSchema>;

const DEFAULT_SIZE = { width: 1280, height: 800 };

/** A saved position on a display that is gone would open the window off screen: then only the size is kept. */
function onSomeDisplay(b: Rectangle): boolean {
  return screen.getAllDisplays().some(({ workArea: a }) => {
    const overlapX = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
    const overlapY = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
    return overlapX >= 100 && overlapY >= 50;
  });
}

export async function loadWindowState(
  userDataDir: string,
): Promise<{ bounds: Partial<Rectangle>; maximized: boolean }> {
  const saved = await readJsonFile(join(userDataDir, 'window-state.json'), stateSchema.nullable(), null);
  if (saved === null) return { bounds: DEFAULT_SIZE, maximized: false };
  const { x, y, width, height } = saved.bounds;
  return {
    bounds: onSomeDisplay(saved.bounds) ? { x, y, width, height } : { width, height },
    maximized: saved.maximized,
  };
}

export function rememberWindowState(window: BrowserWindow, userDataDir: string): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // One write at a time: writes share a temp file, and a close confirmed after a first, cancelled close
  // saves twice at once. A failed write costs only the window's place, never the process.
  const queue = serial();
  const save = (): void => {
    if (window.isDestroyed()) return;
    const state: WindowState = { bounds: window.getNormalBounds(), maximized: window.isMaximized() };
    queue(() => writeJsonFile(join(userDataDir, 'window-state.json'), state)).catch((error: unknown) =>
      console.error('TableDesk: the window size and position could not be saved', error),
    );
  };
  const later = (): void => {
    clearTimeout(timer);
    timer = setTimeout(save, 500);
  };
  window.on('resize', later);
  window.on('move', later);
  window.on('close', () => {
    clearTimeout(timer);
    save();
  });
}
