/** The edit services of one app instance, bound to the contract's edit channels (edit-services.ts). */
export { createEditServices, journalDir } from './edit-services';
export type { EditHandlers, EditServices, EditServicesOptions, EditsEmit, Parts } from './edit-services';
