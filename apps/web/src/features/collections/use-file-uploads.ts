import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
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

/** How long uploaded files stay listed once nothing is left to send; failed ones stay until cleared. */
const DONE_LINGER_MS = 5000;

/**
 * Several files at once, each with its own progress and error, sent with the write key. A
 * finished upload invalidates the collection's status and documents (read with the working key),
 * whose polling then follows parsing and indexing.
 */
export function useFileUploads(writeKey: string | null, workingKey: string | null) {
  const queryClient = useQueryClient();
  const [uploads, setUploads] = useState<FileUpload[]>([]);
  const nextId = useRef(1);

  const update = useCallback((id: number, change: Partial<FileUpload>) => {
    setUploads((current) => current.map((u) => (u.id === id ? { ...u, ...change } : u)));
  }, []);

  const upload = useCallback(
    async (collectionName: string, files: File[], overwrite: boolean) => {
      if (!writeKey || files.length === 0) return;
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
            await addDocumentFile({ workingKey: writeKey, collectionName, file, overwrite, onProgress: (progress) => update(id, { progress }) });
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
    [writeKey, workingKey, queryClient, update],
  );

  // The tray gives the list back its room: once every file is sent, the uploaded ones leave
  // after a moment and only failures (with their reasons) stay.
  const busy = uploads.some((u) => u.state === 'queued' || u.state === 'uploading');
  const anyDone = uploads.some((u) => u.state === 'done');
  useEffect(() => {
    if (busy || !anyDone) return;
    const timer = setTimeout(() => setUploads((current) => current.filter((u) => u.state !== 'done')), DONE_LINGER_MS);
    return () => clearTimeout(timer);
  }, [busy, anyDone]);

  const clearFinished = useCallback(() => setUploads((current) => current.filter((u) => u.state === 'queued' || u.state === 'uploading')), []);

  return { uploads, upload, clearFinished };
}
