/** While documents are parsing or indexing: follow them closely. */
export const BUSY_POLL_MS = 1500;
/** Otherwise: notice documents added by other clients. */
export const IDLE_POLL_MS = 10_000;

/** How often the collection's status and documents are reloaded; never while the screen is hidden. */
export const pollInterval = (visible: boolean, busy: boolean): number | false => (!visible ? false : busy ? BUSY_POLL_MS : IDLE_POLL_MS);
