/**
 * Where focus goes back to when a dialog closes. Radix returns it to the element focused when the
 * dialog opened, which is often gone by then: a menu item (the menu closed), a row's Delete button
 * (the row was deleted), the Create button of a dialog that opened the next one. These helpers pick
 * the control that stays: the menu's trigger, the previous dialog's opener, or the screen itself.
 */

/** The opener of the dialog opened last, for a dialog opened from inside another one. */
let lastOpener: HTMLElement | null = null;

/** The control a dialog opened now should give focus back to. */
export function captureOpener(): HTMLElement | null {
  const active = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  if (!active || active === document.body || active.closest('[role="dialog"]')) return lastOpener;
  const menu = active.closest<HTMLElement>('[role="menu"]');
  const trigger = menu?.id ? [...document.querySelectorAll<HTMLElement>('[aria-controls]')].find((el) => el.getAttribute('aria-controls') === menu.id) : undefined;
  lastOpener = trigger ?? (menu ? lastOpener : active);
  return lastOpener;
}

/** Focuses the opener if it is still on the page, else the screen's main region (never the page body). */
export function returnFocus(opener: HTMLElement | null, fallback?: () => HTMLElement | null) {
  const target = opener?.isConnected && !opener.hasAttribute('disabled') ? opener : (fallback?.() ?? document.getElementById('main'));
  target?.focus();
}
