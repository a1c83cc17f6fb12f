import { AllCommunityModule, ModuleRegistry } from 'ag-grid-community';

/** All of Community: the infinite row model plus tooltips, cell classes, column moving and resizing. */
export function registerGridModules(): void {
  ModuleRegistry.registerModules([AllCommunityModule]);
}
