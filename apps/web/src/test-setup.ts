import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// jsdom renders slowly on a busy two-core machine (CI runs the server suites beside these): wait
// for what the user would see longer than the 1 s default rather than fail on machine load.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
});
