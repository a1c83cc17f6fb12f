/** The local Record Table Service: start one on a port (start.ts). */
export { startServer } from './start';
export type { RunningServer, ServerOptions } from './start';
