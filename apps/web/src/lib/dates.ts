/** Date formats of the spec (§2 API Keys, §2 Organization, §9 organization age). */

/** 'November 22, 2026 at 2:53 AM UTC': API key creation dates, saying their time zone. */
export function formatUtcLongDate(iso: string): string {
  return `${new Date(iso).toLocaleString('en-US', {
    timeZone: 'UTC',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
  })} UTC`;
}

/** 'November 22, 2026 at 02:53 AM PST' in the viewer's time zone, named: organization creation date. */
export function formatUsLongDateTime(iso: string): string {
  return new Date(iso).toLocaleString('en-US', { year: 'numeric', month: 'long', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** How long ago an organization was created, as the Delete dialog words it (spec §9). */
export function organizationAge(createdAt: string, now: Date = new Date()): string {
  const elapsed = Math.max(0, now.getTime() - new Date(createdAt).getTime());
  if (elapsed < HOUR) return 'less than 1 hour ago';
  if (elapsed < DAY) return `${Math.floor(elapsed / HOUR)} hours ago`;
  const days = Math.floor(elapsed / DAY);
  if (elapsed <= 7 * DAY) return `${days} days and ${Math.floor((elapsed % DAY) / HOUR)} hours ago`;
  return `${days} days ago`;
}
