import { ProviderError } from '../../engine/models/providers/http.ts';
import { DomainError } from '../errors.ts';

/** A configured model's provider is down or busy: a later call may succeed. */
export class ModelUnavailable extends DomainError {
  constructor(detail: string) {
    super(503, detail, { 'retry-after': '5' });
  }
}

/** A configured model's provider refused the call, or answered what Sift cannot read. */
export class ModelFailed extends DomainError {
  constructor(detail: string) {
    super(502, detail);
  }
}

/** Runs a model call, turning a provider's failure into the answer a client gets (never a 500). */
export async function callingModel<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    if (error.transient) throw new ModelUnavailable(`The model provider is unavailable: ${error.message}`);
    throw new ModelFailed(`The model provider failed: ${error.message}`);
  }
}
