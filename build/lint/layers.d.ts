/** The types of layers.js's exports, for the tests that read its tables. */
export const LAYERS: Record<string, readonly string[] | '*'>;
export const BROWSER_LAYERS: readonly string[];
export const BROWSER_PACKAGES: Record<string, readonly string[]>;
export const RENDERER_FLOORS: readonly (readonly string[])[];
declare const plugin: { rules: Record<string, unknown> };
export default plugin;
