/**
 * Exposes `window.tabledesk` and nothing else. The renderer never sees ipcRenderer or an IpcRendererEvent:
 * calls go through one invoke channel, events are unwrapped before the handler sees them.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { IpcRendererEvent } from 'electron';
import type { CallResult, TableDeskApi } from '../core/contract';
import { IPC_CALL, IPC_EVENT } from '../core/contract/names';

const api: TableDeskApi = {
  async call(channel, request) {
    const result = (await ipcRenderer.invoke(IPC_CALL, channel, request)) as CallResult;
    if (result.ok) return result.response as never;
    throw result.error;
  },
  on(event, handler) {
    const listener = (_event: IpcRendererEvent, name: unknown, payload: unknown): void => {
      if (name === event) (handler as (p: unknown) => void)(payload);
    };
    ipcRenderer.on(IPC_EVENT, listener);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT, listener);
    };
  },
};

contextBridge.exposeInMainWorld('tabledesk', api);
