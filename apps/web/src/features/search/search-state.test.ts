import { describe, expect, it } from 'vitest';
import type { SearchResults } from '@/features/search/api/search-collection';
import { canSearch, initialSearchState, searchReducer } from '@/features/search/search-state';

const results: SearchResults = { documents: [{ path: 'a.txt', score: 0.5 }], pages: [], coarse: [], fine: [] };

describe('searchReducer', () => {
  it('a new search resets the old results and shows loading', () => {
    let state = searchReducer(initialSearchState, { type: 'selectCollection', name: 'c' });
    state = searchReducer(state, { type: 'searchStarted', requestId: 1, query: 'one' });
    state = searchReducer(state, { type: 'searchSucceeded', requestId: 1, data: results });
    expect(state.searchResult.status).toBe('success');
    state = searchReducer(state, { type: 'searchStarted', requestId: 2, query: 'two' });
    expect(state.searchResult).toEqual({ status: 'loading', requestId: 2, query: 'two' });
  });

  it('discards the result or error of a search that is no longer the current one', () => {
    let state = searchReducer(initialSearchState, { type: 'selectCollection', name: 'c' });
    state = searchReducer(state, { type: 'searchStarted', requestId: 1, query: 'one' });
    state = searchReducer(state, { type: 'searchStarted', requestId: 2, query: 'two' });
    expect(searchReducer(state, { type: 'searchSucceeded', requestId: 1, data: results })).toBe(state);
    expect(searchReducer(state, { type: 'searchFailed', requestId: 1, error: 'late' })).toBe(state);
    expect(searchReducer(state, { type: 'searchFailed', requestId: 2, error: 'boom' }).searchResult).toEqual({
      status: 'error',
      requestId: 2,
      query: 'two',
      error: 'boom',
    });
  });

  it('choosing a collection clears the previous result', () => {
    let state = searchReducer(initialSearchState, { type: 'selectCollection', name: 'c' });
    state = searchReducer(state, { type: 'searchStarted', requestId: 1, query: 'q' });
    state = searchReducer(state, { type: 'searchSucceeded', requestId: 1, data: results });
    state = searchReducer(state, { type: 'selectCollection', name: 'd' });
    expect(state).toEqual({ selectedCollection: 'd', searchResult: { status: 'idle' } });
    // A result arriving for the search made before the change is dropped.
    expect(searchReducer(state, { type: 'searchSucceeded', requestId: 1, data: results })).toBe(state);
  });
});

describe('canSearch', () => {
  it('requires a trimmed non-empty query, an API key and a collection', () => {
    expect(canSearch('lamp', 'key', 'c')).toBe(true);
    expect(canSearch('   ', 'key', 'c')).toBe(false);
    expect(canSearch('lamp', null, 'c')).toBe(false);
    expect(canSearch('lamp', 'key', null)).toBe(false);
  });
});
