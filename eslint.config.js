import { readdirSync } from 'node:fs';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/**
 * Lint, run by `npm run lint` inside `npm test`. Beyond typescript-eslint's recommended rules it
 * encodes DESIGN.md's rules of the house as import boundaries, so a change cannot quietly undo
 * them: the domain never imports HTTP; storage never imports the domain; a dashboard feature
 * never imports another; the web never imports the server; no import cycles.
 */
const server = 'apps/server/src';
const web = 'apps/web/src';
const features = readdirSync(new URL(`./${web}/features`, import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const boundaries = [
  { target: `./${server}/domain`, from: `./${server}/http`, message: 'Domain services never see HTTP.' },
  { target: `./${server}/db`, from: `./${server}/domain`, message: 'Storage never imports the domain: the domain passes what storage needs.' },
  { target: `./${server}/domain`, from: `./${server}/storage`, message: 'Services are given their file store (an argument), they never pick one.' },
  { target: `./${server}/domain`, from: `./${server}/limits`, message: 'Services are given their limiters (an argument), they never pick a store.' },
  { target: `./${server}/db`, from: `./${server}/http`, message: 'Storage never imports HTTP.' },
  { target: `./${server}/engine`, from: `./${server}/http`, message: 'The engine (search and the document queue) never imports HTTP.' },
  ...['auth', 'billing'].map((area) => ({ target: `./${server}/engine`, from: `./${server}/${area}`, message: 'The engine knows nothing of sessions or billing.' })),
  ...['worker.ts', 'thread.ts', 'thread-entry.ts'].map((file) => ({
    target: `./${server}/domain`,
    from: `./${server}/engine/ingest/${file}`,
    message: 'Ingestion workers call domain services, never the other way round (the wake-up signal lives in engine/queue/claims.ts).',
  })),
  { target: './apps/web', from: './apps/server', message: 'The web never imports the server: shared shapes live in packages/contracts.' },
  { target: './packages/contracts', from: './apps', message: 'Contracts depend on nothing of the apps.' },
  { target: `./${web}/components`, from: `./${web}/features`, message: 'Shared components hold no feature logic.' },
  { target: `./${web}/lib`, from: `./${web}/features`, message: 'lib/ is shared by features and imports none of them.' },
  ...features.map((feature) => ({
    target: `./${web}/features/${feature}`,
    from: `./${web}/features`,
    except: [`./${feature}`],
    message: 'A feature never imports another feature: move what two share to components/ or lib/.',
  })),
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'e2e/test-results/**', 'e2e/playwright-report/**', '**/*.js', '**/*.mjs'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      // Pinned below the versions that need a native resolver binding the registry lacks for other platforms.
      'import-x/resolver': {
        typescript: { project: ['apps/server/tsconfig.json', 'apps/web/tsconfig.json', 'e2e/tsconfig.json'] },
      },
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: boundaries }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
);
