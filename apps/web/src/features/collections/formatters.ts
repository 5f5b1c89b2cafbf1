import { COLLECTION_FILE_SIZE_STEP, COLLECTION_FILE_SIZE_UNITS } from '@/lib/constants';

/** A file size as the Collections list shows it: B, KB, MB, GB in steps of 1024, one decimal (spec §9). */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < COLLECTION_FILE_SIZE_STEP) return `${Math.max(0, Math.round(bytes || 0))} B`;
  let value = bytes;
  let unit = 0;
  while (value >= COLLECTION_FILE_SIZE_STEP && unit < COLLECTION_FILE_SIZE_UNITS.length - 1) {
    value /= COLLECTION_FILE_SIZE_STEP;
    unit += 1;
  }
  return `${value.toFixed(1)} ${COLLECTION_FILE_SIZE_UNITS[unit]}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * An upload time relative to now (spec §9): 'N min ago' under an hour, 'N hours ago' under a day,
 * otherwise the date as DD Mon YYYY in the viewer's time zone. A time slightly in the future
 * (clock skew) reads '0 min ago'.
 */
export function formatUploadTime(createdAt: string | Date, now: Date = new Date()): string {
  const date = createdAt instanceof Date ? createdAt : new Date(createdAt);
  if (Number.isNaN(date.getTime())) return '';
  const elapsed = Math.max(0, now.getTime() - date.getTime());
  if (elapsed < HOUR) return `${Math.floor(elapsed / MINUTE)} min ago`;
  if (elapsed < DAY) return `${Math.floor(elapsed / HOUR)} hours ago`;
  return `${String(date.getDate()).padStart(2, '0')} ${MONTHS[date.getMonth()]} ${date.getFullYear()}`;
}
