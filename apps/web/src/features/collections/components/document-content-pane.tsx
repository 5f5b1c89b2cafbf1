import { useQuery } from '@tanstack/react-query';
import { ExternalLink } from 'lucide-react';
import { Skeleton } from '@/components/ui/skeleton';
import { isNotFoundError, providerErrorMessage } from '@/lib/provider-errors';
import { documentContentQueryOptions } from '@/features/collections/api/get-document-content';
import { pageImagesQueryOptions } from '@/features/collections/api/get-page-images';
import type { DocumentSummary } from '@/features/collections/api/list-documents';
import { collectionsMessages } from '@/features/collections/collections-messages';
import { indexStatusLabel, toIndexStatus } from '@/features/collections/document-status';
import { DocumentStatusDot } from '@/features/collections/components/document-status-dot';
import { PaneMessage } from '@/features/collections/components/documents-table';

interface DocumentContentPaneProps {
  workingKey: string | null;
  collectionName: string | null;
  selectedPath: string | null;
  /** The selected path's row in the current list, when it is there. */
  document: DocumentSummary | null;
  showMetadata: boolean;
  onShowMetadataChange(show: boolean): void;
}

/** The right pane: the selected document's content once indexed, or its metadata as formatted JSON. */
export function DocumentContentPane({ workingKey, collectionName, selectedPath, document, showMetadata, onShowMetadataChange }: DocumentContentPaneProps) {
  const status = document ? toIndexStatus(document.indexStatus) : null;
  const content = useQuery(documentContentQueryOptions(workingKey, collectionName, selectedPath, status === 'indexed'));
  const pageImages = useQuery(pageImagesQueryOptions(workingKey, collectionName, selectedPath, status === 'indexed'));

  return (
    <div className="flex min-h-[16rem] flex-1 flex-col lg:min-h-0">
      <div className="flex items-center gap-3 border-b border-slate-100 px-4 py-2">
        <div className="flex min-w-0 flex-1 items-center gap-2">
          {document && status ? (
            <>
              <DocumentStatusDot status={status} />
              <h2 className="truncate text-sm font-semibold text-slate-900" title={document.path}>
                {document.path}
              </h2>
              <span className="shrink-0 text-xs text-slate-500">{indexStatusLabel[status]}</span>
              {document.fileUrl ? (
                <a href={document.fileUrl} target="_blank" rel="noreferrer" className="shrink-0 text-slate-400 hover:text-slate-700" aria-label="Open the original file" title="Open the original file">
                  <ExternalLink className="size-3.5" />
                </a>
              ) : null}
            </>
          ) : null}
        </div>
        {/* Only with a document to show it for. */}
        {document ? (
          <label className="flex shrink-0 cursor-pointer items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" role="switch" checked={showMetadata} onChange={(event) => onShowMetadataChange(event.target.checked)} className="size-4 accent-slate-900" />
            {collectionsMessages.showMetadata}
          </label>
        ) : null}
      </div>
      <div className="min-h-0 flex-1 overflow-auto" data-testid="document-pane">
        <PaneBody {...{ collectionName, selectedPath, document, showMetadata, status, content, pageImages: pageImages.data ?? [] }} />
      </div>
    </div>
  );
}

function PaneBody({
  collectionName,
  selectedPath,
  document,
  showMetadata,
  status,
  content,
  pageImages,
}: Pick<DocumentContentPaneProps, 'collectionName' | 'selectedPath' | 'document' | 'showMetadata'> & {
  status: ReturnType<typeof toIndexStatus> | null;
  content: ReturnType<typeof useQuery<string>>;
  /** Image URLs of the document's pages (PDFs, images); empty for other documents. */
  pageImages: string[];
}) {
  if (!collectionName) return <PaneMessage>{collectionsMessages.selectCollection}</PaneMessage>;
  if (!selectedPath) return <PaneMessage>{collectionsMessages.selectFile}</PaneMessage>;
  if (!document || !status) return <PaneMessage>{collectionsMessages.selectFile}</PaneMessage>;
  if (showMetadata) {
    if (!document.metadata || Object.keys(document.metadata).length === 0) return <PaneMessage>{collectionsMessages.noMetadata}</PaneMessage>;
    return (
      <pre aria-label="Document metadata" className="p-4 font-mono text-xs whitespace-pre-wrap text-slate-800">
        {JSON.stringify(document.metadata, null, 2)}
      </pre>
    );
  }
  if (status === 'parsing_failed' || status === 'indexing_failed') {
    return (
      <PaneMessage tone="error">
        {status === 'parsing_failed' ? collectionsMessages.parsingFailed : collectionsMessages.indexingFailed}
        {document.failureReason ? <span className="mt-1 block text-xs text-slate-500" data-testid="failure-reason">{document.failureReason}</span> : null}
      </PaneMessage>
    );
  }
  if (status === 'parsing') return <PaneMessage>{collectionsMessages.parsingInProgress}</PaneMessage>;
  if (status === 'indexing') return <PaneMessage>{collectionsMessages.indexingInProgress}</PaneMessage>;
  if (content.isError) {
    if (isNotFoundError(content.error)) return <PaneMessage tone="error">{collectionsMessages.documentNotFound}</PaneMessage>;
    return <PaneMessage tone="error">{collectionsMessages.contentFailed(providerErrorMessage(content.error))}</PaneMessage>;
  }
  if (content.data === undefined) {
    return (
      <div role="status" aria-label="Loading document content" className="flex flex-col gap-2 p-4">
        <Skeleton className="h-4 w-3/4" />
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-5/6" />
      </div>
    );
  }
  if (!content.data.trim()) return <PaneMessage tone="error">{collectionsMessages.noContent}</PaneMessage>;
  const text = (
    <pre aria-label="Document content" className="min-w-0 flex-1 p-4 font-sans text-sm leading-relaxed whitespace-pre-wrap text-slate-800">
      {content.data}
    </pre>
  );
  if (pageImages.length === 0) return text;
  // A PDF's pages as pictures beside its text.
  return (
    <div className="flex items-start">
      <ol aria-label="Page images" className="flex w-2/5 max-w-sm shrink-0 flex-col gap-3 border-r border-slate-100 p-4">
        {pageImages.map((url, index) => (
          <li key={url}>
            <img src={url} alt={`Page ${index + 1}`} loading="lazy" className="w-full rounded border border-slate-200 bg-white shadow-sm" />
          </li>
        ))}
      </ol>
      {text}
    </div>
  );
}
