import { useEffect } from 'react';

const EVENT = 'sift:create-organization';

/**
 * Any screen may offer 'Create Organization' (an empty state's way out); the header owns the
 * dialog, so a screen asks for it with this event instead of importing another feature.
 */
export function requestCreateOrganization() {
  window.dispatchEvent(new Event(EVENT));
}

export function useCreateOrganizationRequests(open: () => void) {
  useEffect(() => {
    window.addEventListener(EVENT, open);
    return () => window.removeEventListener(EVENT, open);
  }, [open]);
}
