import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import { AppProviders } from '@/app/providers';
import { captureMarketplaceArrival } from '@/features/marketplace/marketplaces';
import { reloadOnStaleBuild } from '@/lib/reload-on-stale-build';
import '@/index.css';

captureMarketplaceArrival();
reloadOnStaleBuild();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders>
      <App />
    </AppProviders>
  </StrictMode>,
);
