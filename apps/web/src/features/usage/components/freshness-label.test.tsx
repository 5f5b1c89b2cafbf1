import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FreshnessLabel } from '@/features/usage/components/freshness-label';

afterEach(() => vi.useRealTimers());

describe('freshness label', () => {
  it("ticks every minute: 'updated <1 min ago', then 1 min, then 2 mins", () => {
    vi.useFakeTimers();
    const loadedAt = Date.now();
    render(<FreshnessLabel updatedAt={loadedAt} refreshing={false} onRefresh={() => {}} />);
    expect(screen.getByText('updated <1 min ago')).toBeTruthy();
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getByText('updated 1 min ago')).toBeTruthy();
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getByText('updated 2 mins ago')).toBeTruthy();
  });

  it("reads 'Refreshing...' and is disabled while busy, 'Refresh' otherwise", async () => {
    const onRefresh = vi.fn();
    const { rerender } = render(<FreshnessLabel updatedAt={Date.now()} refreshing={false} onRefresh={onRefresh} />);
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(onRefresh).toHaveBeenCalledOnce();
    rerender(<FreshnessLabel updatedAt={Date.now()} refreshing onRefresh={onRefresh} />);
    const busy = screen.getByRole('button', { name: 'Refreshing...' }) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
  });
});
