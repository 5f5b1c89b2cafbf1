import { type ComponentType, type ReactNode, Suspense, useState } from 'react';

/**
 * A control whose code loads the first time it is used: until then a plain button that looks the
 * same; on first click (or Enter/Space) the real component loads and opens. Keeps rarely used
 * menus out of the first load.
 */
export function LoadOnFirstUse<P extends object>({
  component: Component,
  props,
  trigger,
  triggerClassName,
  label,
}: {
  component: ComponentType<P & { defaultOpen?: boolean }>;
  props: P;
  trigger: ReactNode;
  triggerClassName: string;
  /** The control's name when its visible content does not give one (an avatar's letter). */
  label?: string;
}) {
  const [used, setUsed] = useState(false);
  const placeholder = (
    <button type="button" aria-label={label} aria-haspopup="menu" className={triggerClassName} onClick={() => setUsed(true)}>
      {trigger}
    </button>
  );
  if (!used) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <Component {...props} defaultOpen />
    </Suspense>
  );
}
