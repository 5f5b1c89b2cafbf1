import type { FileLinks } from './file-links.ts';
import type { FileStore } from './file-store.ts';

/**
 * Who calls a provider service: the organization of the API key, with where that
 * organization's raw files live and how this response links to them.
 */
export interface ProviderActor {
  organizationId: string;
  files: FileStore;
  fileUrl: FileLinks;
}
