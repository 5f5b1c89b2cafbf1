import type { FastifyRequest } from 'fastify';
import { attachFileStore } from '../../../domain/collections.ts';
import { fileLinks } from '../../../domain/file-links.ts';
import { fileStore } from '../../../domain/file-store.ts';
import type { ProviderActor } from '../../../domain/provider-actor.ts';
import { type AppContext, dashboardUrl } from '../../context.ts';

/** The provider services' actor for this request: the key's organization, its files, its file URLs. */
export function providerActor(request: FastifyRequest, context: AppContext): ProviderActor {
  const files = fileStore(context.config.dataDir);
  attachFileStore(context.database, files);
  return {
    organizationId: request.apiKey.organizationId,
    files,
    fileUrl: fileLinks(context.keyring, dashboardUrl(context.config, request)),
  };
}
