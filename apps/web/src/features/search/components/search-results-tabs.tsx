import { Fragment, useState } from 'react';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import type { SearchResults } from '@/features/search/api/search-collection';
import type { SnippetResult } from '@/features/search/api/top-snippets';
import { RESULT_TABS, type ResultTab, searchMessages } from '@/features/search/search-messages';
import { ResultRow } from '@/features/search/components/result-row';

/** Tab names are fixed; the body is the state message, or that tab's rows. */
/** A state message in place of results; an error one is announced as an alert. */
export interface ResultsMessage {
  text: string;
  error?: boolean;
}

export function SearchResultsTabs({ message, results, resultId }: { message: ResultsMessage | null; results: SearchResults | null; resultId: number | null }) {
  const [tab, setTab] = useState<ResultTab>('documents');
  return (
    <Tabs value={tab} onValueChange={(value) => setTab(value as ResultTab)}>
      <TabsList label="Search results">
        {RESULT_TABS.map(({ value, label }) => (
          <TabsTrigger key={value} value={value}>
            {label}
          </TabsTrigger>
        ))}
      </TabsList>
      {RESULT_TABS.map(({ value }) => (
        <TabsContent key={value} value={value}>
          {message !== null || !results ? (
            <StateMessage message={message ?? { text: searchMessages.pressEnter }} />
          ) : results[value].length === 0 ? (
            <StateMessage message={{ text: searchMessages.noResults }} />
          ) : value === 'documents' ? (
            <ul className="flex flex-col gap-2" aria-label="Top Documents">
              {results.documents.map((document, index) => (
                <ResultRow key={index} path={document.path} score={document.score} />
              ))}
            </ul>
          ) : value === 'pages' ? (
            <ExpandableList
              key={resultId}
              label="Top Pages"
              items={results.pages}
              render={(page, expanded, toggle) => (
                <ResultRow
                  path={page.path}
                  score={page.score}
                  details={<Detail title={`page_index ${page.pageIndex}`}>Page {page.pageIndex + 1}</Detail>}
                  content={page.content}
                  expanded={expanded}
                  onToggle={toggle}
                />
              )}
            />
          ) : (
            <ExpandableList
              key={resultId}
              label={value === 'fine' ? 'Top Fine Snippets' : 'Top Coarse Snippets'}
              items={results[value]}
              expandedByDefault={value === 'fine'}
              render={(snippet, expanded, toggle) => <SnippetRow snippet={snippet} expanded={expanded} onToggle={toggle} />}
            />
          )}
        </TabsContent>
      ))}
    </Tabs>
  );
}

function StateMessage({ message }: { message: ResultsMessage }) {
  return (
    <p role={message.error ? 'alert' : 'status'} className={message.error ? 'py-10 text-center text-sm text-red-700' : 'py-10 text-center text-sm text-slate-500'}>
      {message.text}
    </p>
  );
}

function Detail({ children, title }: { children: React.ReactNode; title?: string }) {
  return (
    <span className="shrink-0 rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-600" title={title}>
      {children}
    </span>
  );
}

/**
 * Snippet row: 'Pages {start} - {end}' (the page span read as pages counted from 1, both ends
 * included: the API's [first, last + 1) from 0) and 'Span [start, end]' (character offsets).
 */
function SnippetRow({ snippet, expanded, onToggle }: { snippet: SnippetResult; expanded: boolean; onToggle(): void }) {
  const [first, afterLast] = snippet.pageSpan;
  return (
    <ResultRow
      path={snippet.path}
      score={snippet.score}
      details={
        <>
          <Detail title={`page_span [${first}, ${afterLast})`}>
            Pages {first + 1} - {Math.max(first + 1, afterLast)}
          </Detail>
          <Detail>
            Span [{snippet.startIndex}, {snippet.endIndex}]
          </Detail>
        </>
      }
      content={snippet.content}
      expanded={expanded}
      onToggle={onToggle}
    />
  );
}

/** Rows that expand one by one; the list is remounted for each new result, so defaults apply again. */
function ExpandableList<T>({
  label,
  items,
  expandedByDefault = false,
  render,
}: {
  label: string;
  items: T[];
  expandedByDefault?: boolean;
  render(item: T, expanded: boolean, toggle: () => void): React.ReactNode;
}) {
  const [expanded, setExpanded] = useState<Set<number>>(() => new Set(expandedByDefault ? items.map((_, i) => i) : []));
  const toggle = (index: number) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(index)) next.add(index);
      return next;
    });
  return (
    <ul className="flex flex-col gap-2" aria-label={label}>
      {items.map((item, index) => (
        <Fragment key={index}>{render(item, expanded.has(index), () => toggle(index))}</Fragment>
      ))}
    </ul>
  );
}
