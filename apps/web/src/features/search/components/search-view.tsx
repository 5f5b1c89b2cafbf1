import { CollectionPicker } from '@/components/collection-picker';
import { NoOrganization } from '@/components/no-organization';
import { Page } from '@/components/ui/page';
import { useCurrentOrganization } from '@/lib/current-organization';
import { searchMessages } from '../search-messages';
import { canSearch } from '../search-state';
import { useSearch } from '../use-search';
import { SearchQueryBox } from './search-query-box';
import { type ResultsMessage, SearchResultsTabs } from './search-results-tabs';

/** The Search screen (spec §2 "Search", §4): pick a collection, query it, read four kinds of results. */
export function SearchView() {
  const { organizationId, workingKey, collectionsList, noOrganization } = useCurrentOrganization();
  const { state, selectCollection, search } = useSearch(workingKey, organizationId);
  const collection = state.selectedCollection !== null && collectionsList.includes(state.selectedCollection) ? state.selectedCollection : null;
  const result = state.searchResult;

  let message: ResultsMessage | null = null;
  if (!collection) message = { text: searchMessages.selectCollection };
  else if (result.status === 'idle') message = { text: searchMessages.pressEnter };
  else if (result.status === 'loading') message = { text: searchMessages.loading };
  else if (result.status === 'error') message = { text: searchMessages.failed(result.error), error: true };

  if (noOrganization) {
    return (
      <Page title="Search">
        <NoOrganization />
      </Page>
    );
  }
  return (
    <Page title="Search">
      <div className="flex flex-wrap items-center gap-3">
        <CollectionPicker placeholder={searchMessages.selectCollection} value={collection} onChange={selectCollection} />
        <SearchQueryBox
          disabled={!canSearch('query', workingKey, collection)}
          noApiKey={workingKey === null}
          onSearch={(query) => void search(query)}
        />
      </div>
      <SearchResultsTabs
        message={message}
        results={result.status === 'success' ? result.data : null}
        resultId={result.status === 'success' ? result.requestId : null}
      />
    </Page>
  );
}
