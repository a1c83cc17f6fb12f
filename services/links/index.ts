/** The link features bound to their channels (link-services.ts). */
export { createLinkServices } from './link-services';
export type { LinkServicesOptions } from './link-services';
