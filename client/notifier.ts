/**
 * Desktop notifications for the page: what programs ask for (OSC 9, OSC
 * 777 ; notify, OSC 99, as `notify` events from the core) and, when the
 * user turns it on, a note when a long command finishes. Shown through the
 * browser's Notification API, which displays plain text only (no HTML).
 *
 * Rules: nothing is shown while the window has the focus (the user is
 * looking at it); titles and bodies are cut to {@link MAX_TITLE} and
 * {@link MAX_BODY} characters; at most {@link BURST} notifications at once,
 * then one every {@link INTERVAL_MS} ms (the rest are dropped and
 * counted); the browser's permission is asked once, when the first
 * notification would be shown, and that it was asked is remembered
 * (localStorage), so a dismissed prompt does not come back.
 *
 * @module
 */

/** Longest title shown, in characters. */
export const MAX_TITLE = 120;
/** Longest body shown, in characters. */
export const MAX_BODY = 400;
/** Notifications allowed at once (a burst). */
export const BURST = 3;
/** After a burst: one more notification per this many ms. */
export const INTERVAL_MS = 5000;
/** Default threshold of the long-command notification, in seconds. */
export const DEFAULT_LONG_COMMAND_SECONDS = 10;
/** localStorage key: the permission was asked for once already. */
const ASKED_KEY = "domterm-notify-asked";

/** What became of one request to notify. */
export type NotifyOutcome =
  | "shown"
  | "focused"
  | "rate-limited"
  | "denied"
  | "unsupported"
  | "asking";

/** The part of the Notification API the notifier uses. */
export interface NotificationApi {
  readonly permission: NotificationPermission;
  requestPermission(): Promise<NotificationPermission>;
  new (title: string, options?: NotificationOptions): Notification;
}

/** What the notifier needs from the page. */
export interface NotifierHost {
  /** The browser's Notification constructor, or undefined without one. */
  api(): NotificationApi | undefined;
  /** Whether the user is looking at the window. */
  focused(): boolean;
  /** Milliseconds, monotonic. */
  now(): number;
  /** Remembers that the permission was asked (localStorage). */
  storage(): Pick<Storage, "getItem" | "setItem"> | undefined;
  /** The title to use when a notification has none (the window's). */
  fallbackTitle(): string;
  /** Bring the window forward (a notification was clicked). */
  focusWindow(): void;
}

/** Cut `s` to `max` characters, with an ellipsis when something was cut. */
function cap(s: string, max: number): string {
  return s.length <= max ? s : s.slice(0, max - 1) + "\u2026";
}

/** Shows desktop notifications under the rules in the module comment. */
export class Notifier {
  readonly #host: NotifierHost;
  #tokens = BURST;
  #lastRefill: number;
  #longOn = false;
  #longMs = DEFAULT_LONG_COMMAND_SECONDS * 1000;
  #commandStart: number | null = null;
  /** Requests dropped by the rate limit (for the curious, and tests). */
  dropped = 0;

  constructor(host: NotifierHost) {
    this.#host = host;
    this.#lastRefill = host.now();
  }

  /**
   * Turn the "long command finished" notification on or off (off by
   * default): when shell integration reports that a command which ran at
   * least `thresholdSeconds` ended while the window was not focused.
   */
  setNotifyLongCommands(
    on: boolean,
    thresholdSeconds = DEFAULT_LONG_COMMAND_SECONDS,
  ): void {
    this.#longOn = on;
    if (Number.isFinite(thresholdSeconds) && thresholdSeconds >= 0) {
      this.#longMs = thresholdSeconds * 1000;
    }
  }

  /** Whether long-command notifications are on, and their threshold (s). */
  get longCommands(): { on: boolean; thresholdSeconds: number } {
    return { on: this.#longOn, thresholdSeconds: this.#longMs / 1000 };
  }

  /** Shell integration: a command started running. */
  commandStarted(): void {
    this.#commandStart = this.#host.now();
  }

  /**
   * Shell integration: the command ended (`exit` null when unknown).
   * Returns what became of the notification, or null when none was due.
   */
  commandEnded(exit: number | null): NotifyOutcome | null {
    const start = this.#commandStart;
    this.#commandStart = null;
    if (!this.#longOn || start === null) return null;
    const ms = this.#host.now() - start;
    if (ms < this.#longMs) return null;
    const took = formatDuration(ms);
    const title = exit !== null && exit !== 0
      ? `Command failed (exit ${exit}) after ${took}`
      : `Command finished after ${took}`;
    return this.notify(title, this.#host.fallbackTitle());
  }

  /**
   * Show a notification with `title` (the window's title when empty) and
   * `body`, if the rules allow. `tag` makes a later notification with the
   * same tag replace this one.
   */
  notify(title: string, body: string, tag?: string): NotifyOutcome {
    if (this.#host.focused()) return "focused";
    const api = this.#host.api();
    if (!api) return "unsupported";
    if (api.permission === "denied") return "denied";
    if (!this.#take()) {
      this.dropped++;
      return "rate-limited";
    }
    const t = cap(title.trim() || this.#host.fallbackTitle(), MAX_TITLE);
    const b = cap(body, MAX_BODY);
    if (api.permission === "granted") {
      this.#show(api, t, b, tag);
      return "shown";
    }
    const store = this.#host.storage();
    if (store?.getItem(ASKED_KEY)) return "denied";
    store?.setItem(ASKED_KEY, "1");
    api.requestPermission().then((p) => {
      if (p === "granted") this.#show(api, t, b, tag);
    }, () => {});
    return "asking";
  }

  #show(api: NotificationApi, title: string, body: string, tag?: string) {
    try {
      const n = new api(title, tag ? { body, tag } : { body });
      n.onclick = () => {
        this.#host.focusWindow();
        n.close();
      };
    } catch {
      // Some browsers allow notifications only from a service worker.
    }
  }

  /** Take a token of the rate limit (a bucket of BURST, one back per INTERVAL_MS). */
  #take(): boolean {
    const now = this.#host.now();
    this.#tokens = Math.min(
      BURST,
      this.#tokens + (now - this.#lastRefill) / INTERVAL_MS,
    );
    this.#lastRefill = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}

/** "12 s", "3 min 5 s", "1 h 2 min". */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  const h = Math.floor(m / 60);
  return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
}
