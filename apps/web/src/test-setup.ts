import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// jsdom renders slowly on a busy two-core machine (CI runs the server suites beside these): wait
// for what the user would see longer than the 1 s default rather than fail on machine load.
configure({ asyncUtilTimeout: 5_000 });

// jsdom lacks what Radix Select calls on open (pointer capture, scrolling the chosen item into view).
Element.prototype.hasPointerCapture ??= () => false;
Element.prototype.releasePointerCapture ??= () => {};
Element.prototype.scrollIntoView ??= () => {};

afterEach(() => {
  cleanup();
  localStorage.clear();
});
