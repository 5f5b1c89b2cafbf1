import { InviteTokenPayload } from '@sift/contracts';
import { decodeJwt } from 'jose';

/** The invite token's payload if it has spec §3's shape, else null (the caller logs and drops it). */
export function decodeInvite(token: string): InviteTokenPayload | null {
  try {
    const parsed = InviteTokenPayload.safeParse(decodeJwt(token));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
