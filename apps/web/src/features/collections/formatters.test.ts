import { describe, expect, it } from 'vitest';
import { formatFileSize, formatUploadTime } from '@/features/collections/formatters';

describe('formatFileSize', () => {
  it('shows bytes below 1 KB as whole bytes', () => {
    expect(formatFileSize(0)).toBe('0 B');
    expect(formatFileSize(512)).toBe('512 B');
    expect(formatFileSize(1023)).toBe('1023 B');
  });

  it('steps by 1024 through KB, MB and GB with one decimal', () => {
    expect(formatFileSize(1024)).toBe('1.0 KB');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(1024 * 1024 - 1)).toBe('1024.0 KB');
    expect(formatFileSize(1024 * 1024)).toBe('1.0 MB');
    expect(formatFileSize(5.25 * 1024 * 1024)).toBe('5.3 MB');
    expect(formatFileSize(3 * 1024 ** 3)).toBe('3.0 GB');
  });

  it('stays in GB beyond it', () => {
    expect(formatFileSize(2048 * 1024 ** 3)).toBe('2048.0 GB');
  });
});

describe('formatUploadTime', () => {
  const now = new Date(2026, 10, 22, 12, 0, 0);
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

  it("says 'N min ago' under an hour", () => {
    expect(formatUploadTime(ago(0), now)).toBe('0 min ago');
    expect(formatUploadTime(ago(59_999), now)).toBe('0 min ago');
    expect(formatUploadTime(ago(5 * 60_000), now)).toBe('5 min ago');
    expect(formatUploadTime(ago(59 * 60_000 + 59_000), now)).toBe('59 min ago');
  });

  it("says 'N hours ago' from one hour to under a day", () => {
    expect(formatUploadTime(ago(60 * 60_000), now)).toBe('1 hours ago');
    expect(formatUploadTime(ago(23 * 3_600_000 + 59 * 60_000), now)).toBe('23 hours ago');
  });

  it('gives the date as DD Mon YYYY from a day on', () => {
    expect(formatUploadTime(ago(24 * 3_600_000), now)).toBe('21 Nov 2026');
    expect(formatUploadTime(new Date(2025, 8, 3, 9, 30), now)).toBe('03 Sep 2025');
  });

  it('reads a time in the future (clock skew) as just now', () => {
    expect(formatUploadTime(new Date(now.getTime() + 90_000), now)).toBe('0 min ago');
  });
});
