import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const devProxy = Object.fromEntries(['/api', '/auth', '/billing', '/docs', '/openapi.json'].map((path) => [path, 'http://localhost:8000']));

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  // The dashboard API (session) is same-origin in production; in development Vite forwards it to
  // the server on 8000. The provider API is called on http://localhost:8000/v1 directly (CORS).
  server: { port: 5173, strictPort: true, proxy: devProxy },
  preview: { port: 4173, strictPort: true, proxy: devProxy },
  build: { target: 'es2022', sourcemap: false, chunkSizeWarningLimit: 800 },
  test: {
    name: 'web',
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['src/test-setup.ts'],
    // Screen tests drive several dialogs each; on a busy 2-core machine 5 s is too tight.
    testTimeout: 30_000,
  },
});
