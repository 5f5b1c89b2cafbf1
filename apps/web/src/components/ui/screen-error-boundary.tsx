import { Component, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';

/**
 * Catches what a lazily loaded screen throws while loading (typically its chunk is gone after a
 * new deployment) so the rest of the dashboard stays up, and offers a reload.
 */
export class ScreenErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  componentDidCatch(error: Error) {
    console.error('screen failed to load', error);
  }

  render() {
    if (!this.state.error) return this.props.children;
    return (
      <div role="alert" className="grid h-full min-h-60 place-items-center">
        <div className="flex flex-col items-center gap-3 text-sm text-slate-600">
          <p>This screen could not be loaded.</p>
          <Button variant="secondary" onClick={() => window.location.reload()}>
            Reload
          </Button>
        </div>
      </div>
    );
  }
}
