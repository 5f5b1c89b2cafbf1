import type { FastifyRequest } from 'fastify';
import { fileLinks } from '../../../domain/file-links.ts';
import type { ProviderActor } from '../../../domain/provider-actor.ts';
import { type AppContext, dashboardUrl } from '../../context.ts';

/** The provider services' actor for this request: the key's organization, its files, its file URLs. */
export function providerActor(request: FastifyRequest, context: AppContext): ProviderActor {
  return {
    organizationId: request.apiKey.organizationId,
    files: context.files,
    fileUrl: fileLinks(context.keyring, dashboardUrl(context.config, request)),
  };
}
