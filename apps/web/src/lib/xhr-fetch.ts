/**
 * A `fetch` made on XMLHttpRequest, for the one thing fetch cannot do in browsers: report how
 * much of a request body has been sent. Handed to the provider client for uploads, so uploads
 * keep the client's timeout, retries and error classes and still drive a progress bar.
 */
export function createXhrFetch(onUploadProgress: (fraction: number) => void): typeof fetch {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      xhr.open(init.method ?? 'GET', url);
      xhr.responseType = 'arraybuffer';
      new Headers(init.headers).forEach((value, name) => {
        // The browser sets these itself and refuses them from scripts.
        if (name !== 'content-length' && name !== 'user-agent') xhr.setRequestHeader(name, value);
      });
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) onUploadProgress(event.loaded / event.total);
      };
      xhr.onload = () => {
        const headers = new Headers();
        for (const line of xhr.getAllResponseHeaders().trim().split(/[\r\n]+/)) {
          const at = line.indexOf(':');
          if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
        }
        const noBody = xhr.status === 204 || xhr.status === 304;
        resolve(new Response(noBody ? null : xhr.response, { status: xhr.status, statusText: xhr.statusText, headers }));
      };
      xhr.onerror = () => reject(new TypeError('Network request failed'));
      xhr.ontimeout = () => reject(new TypeError('Network request timed out'));
      const signal = init.signal;
      if (signal) {
        if (signal.aborted) return reject(new DOMException('The operation was aborted.', 'AbortError'));
        signal.addEventListener('abort', () => {
          xhr.abort();
          reject(new DOMException('The operation was aborted.', 'AbortError'));
        });
      }
      xhr.send((init.body as XMLHttpRequestBodyInit | null | undefined) ?? null);
    });
}
