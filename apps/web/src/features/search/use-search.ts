import { useCallback, useEffect, useReducer, useRef } from 'react';
import { providerErrorMessage } from '@/lib/provider-errors';
import { searchCollection } from '@/features/search/api/search-collection';
import { canSearch, initialSearchState, searchReducer } from '@/features/search/search-state';

/** The search route's state and the actions on it: choose a collection, run a search. */
export function useSearch(workingKey: string | null, organizationId: string | null) {
  const [state, dispatch] = useReducer(searchReducer, initialSearchState);
  const lastRequest = useRef(0);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => {
    controller.current?.abort();
    dispatch({ type: 'reset' });
  }, [organizationId]);
  useEffect(() => () => controller.current?.abort(), []);

  const selectCollection = useCallback((name: string | null) => {
    controller.current?.abort();
    dispatch({ type: 'selectCollection', name });
  }, []);

  const search = useCallback(
    async (query: string) => {
      const collection = state.selectedCollection;
      if (!canSearch(query, workingKey, collection)) return;
      controller.current?.abort();
      const abort = new AbortController();
      controller.current = abort;
      const requestId = ++lastRequest.current;
      const trimmed = query.trim();
      dispatch({ type: 'searchStarted', requestId, query: trimmed });
      try {
        const data = await searchCollection(workingKey!, collection!, trimmed, abort.signal);
        dispatch({ type: 'searchSucceeded', requestId, data });
      } catch (error) {
        if (!abort.signal.aborted) dispatch({ type: 'searchFailed', requestId, error: providerErrorMessage(error) });
      }
    },
    [state.selectedCollection, workingKey],
  );

  return { state, selectCollection, search };
}
