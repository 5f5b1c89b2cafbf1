import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { navigate } from '@/lib/router';
import { SearchScreen } from './search-screen';

vi.mock('@/lib/provider-client', () => ({ createProviderClient: () => ({}) }));
vi.mock('@/lib/current-organization', () => ({
  useCurrentOrganization: () => ({ status: 'success', error: null, organizationId: 'o', workingKey: 'k', collectionsList: ['handbook'] }),
}));

describe('SearchScreen', () => {
  it('loads its code only once the search route is shown, then stays', async () => {
    window.history.replaceState(null, '', '/api-keys');
    render(<SearchScreen />);
    expect(screen.queryByText('Search')).toBeNull();
    act(() => navigate('/search'));
    // The chunk is compiled on first import: give a busy machine time.
    expect(await screen.findByRole('heading', { name: 'Search' }, { timeout: 10_000 })).toBeTruthy();
    act(() => navigate('/api-keys'));
    expect(screen.getByRole('heading', { name: 'Search' })).toBeTruthy();
  });
});
