import { describe, expect, it } from 'vitest';
import { type CollectionsRouteState, collectionsReducer, initialCollectionsState } from '@/features/collections/collections-state';

const browsing: CollectionsRouteState = { name: 'contracts', searchQuery: 'lease-', showMetadata: true, selectedDocumentPath: 'lease-2024.pdf' };

describe('collectionsReducer', () => {
  it('selecting a different collection resets its search query but keeps the show-metadata flag and the selected path', () => {
    expect(collectionsReducer(browsing, { type: 'selectCollection', name: 'invoices' })).toEqual({
      name: 'invoices',
      searchQuery: '',
      showMetadata: true,
      selectedDocumentPath: 'lease-2024.pdf',
    });
  });

  it('selecting the same collection again changes nothing', () => {
    expect(collectionsReducer(browsing, { type: 'selectCollection', name: 'contracts' })).toBe(browsing);
  });

  it('clears the selected path when the documents set do not include it', () => {
    const next = collectionsReducer(browsing, { type: 'documentsSet', paths: ['lease-2025.pdf'] });
    expect(next.selectedDocumentPath).toBeNull();
    expect(next.showMetadata).toBe(true);
  });

  it('keeps the selected path when the documents set include it', () => {
    expect(collectionsReducer(browsing, { type: 'documentsSet', paths: ['a.txt', 'lease-2024.pdf'] })).toBe(browsing);
  });

  it('keeps nothing selected when nothing was', () => {
    expect(collectionsReducer(initialCollectionsState, { type: 'documentsSet', paths: [] })).toBe(initialCollectionsState);
  });

  it('records the query, the metadata flag and the selection', () => {
    let state = collectionsReducer(initialCollectionsState, { type: 'selectCollection', name: 'c' });
    state = collectionsReducer(state, { type: 'setSearchQuery', searchQuery: 'rep' });
    state = collectionsReducer(state, { type: 'setShowMetadata', showMetadata: true });
    state = collectionsReducer(state, { type: 'selectDocument', path: 'report.txt' });
    expect(state).toEqual({ name: 'c', searchQuery: 'rep', showMetadata: true, selectedDocumentPath: 'report.txt' });
  });
});
