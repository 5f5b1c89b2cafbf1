import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // pdf.js's stray rejections after a damaged PDF was refused (parsers/pdf.ts isPdfJsFailure):
    // ingestion survives them (stray-rejections.ts), and the fuzzing tests that feed it damaged
    // PDFs must not fail a run on them. Errors reach this hook serialized: known by where they
    // were made, which for pdf.js's own exceptions is its bundle.
    onUnhandledError: (error) => !/^\s+at .*\/unpdf\/dist\/pdfjs\.mjs:/m.test(error.stack?.split('\n').find((line) => line.includes(' at ')) ?? ''),
    projects: [
      {
        test: {
          name: 'server',
          root: './apps/server',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          globalSetup: ['./test/postgres-schemas.setup.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      'apps/web/vite.config.ts',
    ],
  },
});
