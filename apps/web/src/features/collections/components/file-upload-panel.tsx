import { CheckCircle2, CircleAlert, Upload } from 'lucide-react';
import { type DragEvent, useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/components/ui/cn';
import { formatFileSize } from '@/features/collections/formatters';
import type { FileUpload } from '@/features/collections/use-file-uploads';

interface FileUploadPanelProps {
  collectionName: string;
  uploads: FileUpload[];
  onUpload(files: File[], overwrite: boolean): void;
  onClearFinished(): void;
}

/** Drop files or pick them (several at once) into the chosen collection; one progress bar and error per file. */
export function FileUploadPanel({ collectionName, uploads, onUpload, onClearFinished }: FileUploadPanelProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [overwrite, setOverwrite] = useState(false);
  const overwriteId = useId();
  const finished = uploads.some((u) => u.state === 'done' || u.state === 'error');

  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const files = [...event.dataTransfer.files];
    if (files.length) onUpload(files, overwrite);
  };

  return (
    <section aria-label="File uploads" className="flex flex-col gap-3">
      <div
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
        data-testid="upload-dropzone"
        className={cn(
          'flex flex-wrap items-center gap-3 rounded-lg border-2 border-dashed px-4 py-3 text-sm text-slate-600',
          dragging ? 'border-blue-400 bg-blue-50' : 'border-slate-300 bg-white',
        )}
      >
        <Upload className="size-4 text-slate-500" aria-hidden />
        <span>
          Drop files here to add them to <strong className="font-medium text-slate-900">{collectionName}</strong>, or
        </span>
        <Button variant="secondary" className="py-1" onClick={() => inputRef.current?.click()}>
          Choose files
        </Button>
        <input
          ref={inputRef}
          type="file"
          multiple
          aria-label="Upload files"
          className="sr-only"
          tabIndex={-1}
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            event.target.value = '';
            if (files.length) onUpload(files, overwrite);
          }}
        />
        <label htmlFor={overwriteId} className="ml-auto flex items-center gap-2 text-xs text-slate-600">
          <input id={overwriteId} type="checkbox" checked={overwrite} onChange={(event) => setOverwrite(event.target.checked)} />
          Overwrite existing files
        </label>
      </div>
      {uploads.length ? (
        <div className="rounded-lg border border-slate-200 bg-white">
          <ul aria-label="Uploads" className="max-h-48 divide-y divide-slate-100 overflow-y-auto">
            {uploads.map((upload) => (
              <UploadRow key={upload.id} upload={upload} />
            ))}
          </ul>
          {finished ? (
            <div className="flex justify-end border-t border-slate-100 px-3 py-1.5">
              <Button variant="ghost" className="py-1 text-xs" onClick={onClearFinished}>
                Clear finished
              </Button>
            </div>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

function UploadRow({ upload }: { upload: FileUpload }) {
  const percent = Math.round(upload.progress * 100);
  return (
    <li className="flex flex-col gap-1 px-3 py-2 text-sm" data-upload={upload.name} data-state={upload.state}>
      <div className="flex items-center gap-2">
        <span className="min-w-0 flex-1 truncate font-medium text-slate-800">{upload.name}</span>
        <span className="text-xs text-slate-500">{formatFileSize(upload.size)}</span>
        {upload.state === 'done' ? <CheckCircle2 className="size-4 text-green-600" aria-label="Uploaded" /> : null}
        {upload.state === 'error' ? <CircleAlert className="size-4 text-red-600" aria-label="Upload failed" /> : null}
        {upload.state === 'queued' ? <span className="text-xs text-slate-500">Waiting</span> : null}
        {upload.state === 'uploading' ? (
          <span className="text-xs tabular-nums text-slate-500">{percent >= 100 ? 'Waiting for the server...' : `${percent}%`}</span>
        ) : null}
      </div>
      <div
        role="progressbar"
        aria-label={`Upload of ${upload.name}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={upload.state === 'done' ? 100 : percent}
        className="h-1.5 overflow-hidden rounded-full bg-slate-100"
      >
        <div
          className={cn('h-full rounded-full transition-[width]', upload.state === 'error' ? 'bg-red-500' : upload.state === 'done' ? 'bg-green-500' : 'bg-blue-500')}
          style={{ width: `${upload.state === 'done' || upload.state === 'error' ? 100 : percent}%` }}
        />
      </div>
      {upload.error ? (
        <p role="alert" className="text-xs text-red-700">
          {upload.error}
        </p>
      ) : null}
    </li>
  );
}
