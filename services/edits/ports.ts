/** What the edit services use of core/api's TableClient, so tests and callers can see the surface at a glance. */
import type { TableClient } from '../../core/api';
import type { EditTarget } from './types';

export type EditsTable = Pick<
  TableClient,
  'updateMany' | 'createMany' | 'delete' | 'deleteMany' | 'get' | 'pages'
>;

/** Finds the table client for a target (the connection's client, created on first use). */
export type TableFor = (target: EditTarget) => EditsTable | Promise<EditsTable>;
