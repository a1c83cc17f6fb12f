/** The formula language's functions, by name (registry.ts). */
export { FOREIGN_FUNCTIONS, FUNCTION_NAMES, FUNCTIONS } from './registry';
