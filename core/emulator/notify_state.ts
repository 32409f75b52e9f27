/**
 * What the notification parsers (`notify.ts`) keep between sequences.
 *
 * @module
 */

/** A kitty notification still receiving chunks (`d=0`). */
export interface PendingNotification {
  title: string;
  body: string;
}

/** Per-terminal state of the notification parsers (not in snapshots). */
export interface NotifyState {
  /** kitty notifications being assembled, by id ("" without `i=`). */
  pending: Map<string, PendingNotification>;
}

/** A fresh {@link NotifyState}. */
export function newNotifyState(): NotifyState {
  return { pending: new Map() };
}
