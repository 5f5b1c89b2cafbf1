import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { providerErrorMessage } from '@/lib/provider-errors';
import { addDocumentFile } from '@/features/collections/api/add-document';
import { collectionStatusKey } from '@/features/collections/api/get-collection-status';
import { documentsKey } from '@/features/collections/api/list-documents';

export interface FileUpload {
  id: number;
  name: string;
  size: number;
  collectionName: string;
  state: 'queued' | 'uploading' | 'done' | 'error';
  /** 0..1 of the request body sent. */
  progress: number;
  error: string | null;
}

/** How many files are sent at once. */
const PARALLEL_UPLOADS = 3;

/**
 * Several files at once, each with its own progress and error. A finished upload invalidates
 * the collection's status and documents, whose polling then follows parsing and indexing.
 */
export function useFileUploads(workingKey: string | null) {
  const queryClient = useQueryClient();
  const [uploads, setUploads] = useState<FileUpload[]>([]);
  const nextId = useRef(1);

  const update = useCallback((id: number, change: Partial<FileUpload>) => {
    setUploads((current) => current.map((u) => (u.id === id ? { ...u, ...change } : u)));
  }, []);

  const upload = useCallback(
    async (collectionName: string, files: File[], overwrite: boolean) => {
      if (!workingKey || files.length === 0) return;
      const batch = files.map((file) => ({ file, id: nextId.current++ }));
      setUploads((current) => [
        ...batch.map(({ file, id }): FileUpload => ({ id, name: file.name, size: file.size, collectionName, state: 'queued', progress: 0, error: null })),
        ...current,
      ]);
      const queue = [...batch];
      const worker = async () => {
        for (let item = queue.shift(); item; item = queue.shift()) {
          const { file, id } = item;
          update(id, { state: 'uploading', progress: 0 });
          try {
            await addDocumentFile({ workingKey, collectionName, file, overwrite, onProgress: (progress) => update(id, { progress }) });
            update(id, { state: 'done', progress: 1 });
          } catch (error) {
            update(id, { state: 'error', error: providerErrorMessage(error) });
          }
          void queryClient.invalidateQueries({ queryKey: collectionStatusKey(workingKey, collectionName) });
          void queryClient.invalidateQueries({ queryKey: documentsKey(workingKey, collectionName) });
        }
      };
      await Promise.all(Array.from({ length: Math.min(PARALLEL_UPLOADS, batch.length) }, worker));
    },
    [workingKey, queryClient, update],
  );

  const clearFinished = useCallback(() => setUploads((current) => current.filter((u) => u.state === 'queued' || u.state === 'uploading')), []);

  return { uploads, upload, clearFinished };
}
