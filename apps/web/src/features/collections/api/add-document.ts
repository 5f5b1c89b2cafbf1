import { createProviderClient } from '@/lib/provider-client';
import { createXhrFetch } from '@/lib/xhr-fetch';

/** Files sent as text; everything else goes as base64 with type `auto` for the server to parse. */
const TEXT_EXTENSIONS = ['.txt', '.md'];

export const isTextFile = (name: string): boolean => TEXT_EXTENSIONS.some((ext) => name.toLowerCase().endsWith(ext));

function read(file: Blob, as: 'text' | 'dataUrl'): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the file'));
    if (as === 'text') reader.readAsText(file);
    else reader.readAsDataURL(file);
  });
}

async function readAsBase64(file: Blob): Promise<string> {
  const url = await read(file, 'dataUrl');
  return url.slice(url.indexOf(',') + 1);
}

export interface AddDocumentFileInput {
  workingKey: string;
  collectionName: string;
  file: File;
  overwrite: boolean;
  /** Fraction of the request body sent, 0..1. */
  onProgress(fraction: number): void;
}

/**
 * Uploads one file as a document whose path is the file name (add-document). The client gets a
 * fetch that reports upload progress; timeout, retries and error classes stay the SDK's.
 */
export async function addDocumentFile({ workingKey, collectionName, file, overwrite, onProgress }: AddDocumentFileInput): Promise<void> {
  const content = isTextFile(file.name)
    ? { type: 'text' as const, text: await read(file, 'text') }
    : { type: 'auto' as const, base64_data: await readAsBase64(file) };
  const client = createProviderClient(workingKey, { fetch: createXhrFetch(onProgress) });
  await client.documents.add({ collection_name: collectionName, path: file.name, content, overwrite });
}
