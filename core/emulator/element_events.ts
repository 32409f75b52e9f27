/**
 * The element-event mode (`CSI ? 7101 h` / `l`, docs/interactive.md): while
 * it is on, the elements a program prints with OSC 72 that carry
 * `data-dt-event` send the program one line per click, toggle or change.
 *
 * The emulator keeps what decides whether an element is live:
 *
 * - `Modes.elementEvents`, the mode itself (off by default; RIS and DECSTR
 *   turn it off);
 * - the events generation (`EmbedState.eventsGen`), bumped every time the
 *   mode goes off (a reset included, and the server's `grid` message with
 *   `eventsOff`, sent when the program that set the mode left the
 *   foreground) and when it is set again while on;
 * - on each HTML fragment printed while the mode was on, the generation it
 *   was printed in (`BlockEmbed.events`, `InlineEmbed.events`).
 *
 * A fragment is live while the mode is on and its generation is the
 * current one; everything printed before the mode last went off is inert
 * for good. The page's copy of the model and the session's agree, since
 * both read the same stream (and snapshots carry all three).
 *
 * @module
 */
import type { Emulator } from "./context.ts";

/** The DEC private mode number. */
export const ELEMENT_EVENTS_MODE = 7101;

/** What an element event's report starts with: `ESC ] 7101 ;`. */
export const EVENT_REPORT_PREFIX = "\x1b]7101;";

/**
 * Turn the mode on or off (reported as "modes" and "element-events"). Off
 * after on, and on again while on (another program, most likely, which
 * the server must now take as the one that asked), start a new
 * generation: whatever was printed so far is inert from then on. Off
 * while off does nothing.
 */
export function setElementEvents(t: Emulator, on: boolean): void {
  const s = t.s;
  const was = s.modes.elementEvents;
  if (!on && !was) return;
  if (was) s.embeds.eventsGen++;
  s.modes.elementEvents = on;
  t.emit({ type: "element-events", on, generation: s.embeds.eventsGen });
  t.emit({ type: "modes" });
}

/**
 * The generation a fragment printed now is tagged with: the current one
 * while the mode is on, else undefined (the fragment is inert).
 */
export function printGeneration(t: Emulator): number | undefined {
  return t.s.modes.elementEvents ? t.s.embeds.eventsGen : undefined;
}

/** Whether a fragment tagged `events` is live in `t` now. */
export function isLiveGeneration(
  elementEvents: boolean,
  eventsGen: number,
  events: number | undefined,
): boolean {
  return elementEvents && events === eventsGen;
}

/** Longest JSON of one event report, UTF-8 bytes. */
export const MAX_EVENT_JSON = 4096;

/** What one event says (`ElementEventMessage` of core/protocol.ts without its envelope). */
export interface ElementEvent {
  name: string;
  key: string | null;
  event: "click" | "toggle" | "change";
  value: null | boolean | string;
}

const utf8 = new TextEncoder();

/**
 * The JSON of `e` (one line), at most {@link MAX_EVENT_JSON} bytes: a
 * longer string `value` is cut (never inside a surrogate pair) and
 * `"truncated":true` added.
 */
export function eventJson(e: ElementEvent): string {
  const json = (value: ElementEvent["value"], truncated: boolean) =>
    JSON.stringify({
      name: e.name,
      key: e.key,
      event: e.event,
      value,
      ...(truncated ? { truncated: true } : {}),
    });
  const whole = json(e.value, false);
  if (utf8.encode(whole).length <= MAX_EVENT_JSON) return whole;
  const v = typeof e.value === "string" ? e.value : "";
  // The longest prefix that fits (binary search on UTF-16 code units).
  let lo = 0, hi = v.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    const text = json(cut(v, mid), true);
    if (utf8.encode(text).length <= MAX_EVENT_JSON) lo = mid;
    else hi = mid - 1;
  }
  return json(cut(v, lo), true);
}

/** The first `n` code units of `s`, one fewer if that would split a surrogate pair. */
function cut(s: string, n: number): string {
  const c = s.charCodeAt(n - 1);
  return c >= 0xd800 && c <= 0xdbff ? s.slice(0, n - 1) : s.slice(0, n);
}

/** The line a program reads for `e`: `ESC ] 7101 ; JSON BEL LF`. */
export function eventReport(e: ElementEvent): string {
  return `${EVENT_REPORT_PREFIX}${eventJson(e)}\x07\n`;
}
