import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { choose, goTo, signIn } from './fixtures';

/**
 * A new person's first five minutes, all in the dashboard (issue 42): sign in locally, create an
 * organization, a key (Read Only, the default), a collection, upload a PDF, a DOCX, an HTML page,
 * a Markdown file and a PNG (read by OCR), wait for them to be indexed and find each by a search;
 * on a laptop and on a phone.
 */
const fixture = (name: string) => readFileSync(new URL(`../apps/server/test/fixtures/ingest/${name}`, import.meta.url));

const FILES = [
  { name: 'two-pages.pdf', mimeType: 'application/pdf', query: 'quick brown fox jumps over the lazy dog' },
  { name: 'letter.docx', mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', query: 'Dear reader second paragraph' },
  { name: 'page.html', mimeType: 'text/html', query: 'Retrieval ranking uploaded documents' },
  { name: 'notes.md', mimeType: 'text/markdown', query: 'Release notes Markdown coarse fine snippets' },
  { name: 'words.png', mimeType: 'image/png', query: 'hello sift search' },
];

for (const width of [1280, 390]) {
  test(`the first five minutes at ${width} px: sign in, organization, key, collection, five kinds of file, indexed, each found`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    await signIn(page, { name: 'Fiona First', email: `first-${width}-${Date.now()}@example.com` });

    // No organization yet: API Keys says so, with the way out beside it.
    const keys = page.locator('[data-screen="api-keys"]');
    await expect(keys.getByText('No organization selected')).toBeVisible();
    await keys.getByRole('button', { name: 'Create Organization' }).click();
    const create = page.getByRole('dialog', { name: 'Create New Organization' });
    await create.getByLabel('Organization Name').fill('First Steps');
    await create.getByLabel('Organization Name').press('Enter');
    await expect(create).toBeHidden();
    await expect(page.getByRole('button', { name: /^Organization:/ })).toHaveText(/First Steps/);

    // A key with the defaults: Read Only, so the first key is the working key and read-only.
    await keys.getByRole('button', { name: 'Add API Key' }).click();
    const add = page.getByRole('dialog', { name: 'Add API Key' });
    await add.getByLabel('API Key Name').fill('my first key');
    await add.getByRole('button', { name: 'Create' }).click();
    await expect(add).toBeHidden();
    await expect(keys.getByText('my first key')).toBeVisible();

    // Collections: no dead end with a Read Only key; one click adds a key that can write.
    await goTo(page, 'collections', 'Collections');
    const collections = page.locator('[data-screen="collections"]');
    await collections.getByRole('button', { name: 'Add a key with All Permissions' }).click();
    await collections.getByRole('button', { name: 'New Collection' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Collection' });
    await dialog.getByLabel('Collection Name').fill('first-steps');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog).toBeHidden();
    await expect(collections.getByRole('combobox', { name: 'Collection' })).toHaveText('first-steps');

    await collections.getByLabel('Upload files', { exact: true }).setInputFiles(FILES.map((f) => ({ name: f.name, mimeType: f.mimeType, buffer: fixture(f.name) })));
    for (const f of FILES) await expect(collections.locator(`[data-upload="${f.name}"]`)).toHaveAttribute('data-state', 'done');
    await expect(collections.locator('[data-counter="Indexed"]')).toHaveText(String(FILES.length), { timeout: 90_000 });
    await expect(collections.locator('[data-counter="Failed"]')).toHaveText('0');
    await expect(page.getByRole('table', { name: 'Documents' }).locator('[data-status="indexed"]')).toHaveCount(FILES.length);

    // Each file is the top document for words of its own.
    await goTo(page, 'search', 'Search');
    const search = page.locator('[data-screen="search"]');
    await choose(page, search.getByRole('combobox', { name: 'Collection' }), 'first-steps');
    const box = search.getByPlaceholder('Search...');
    for (const f of FILES) {
      await box.fill(f.query);
      await box.press('Enter');
      await expect(search.getByRole('tabpanel').locator('[data-result-path]').first()).toHaveAttribute('data-result-path', f.name);
    }
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, viewport: window.innerWidth }));
    expect(widths.page).toBeLessThanOrEqual(widths.viewport);
    await context.close();
  });
}
