/**
 * Desktop notifications and the window's name, as typed events: iTerm2's
 * `OSC 9 ; message`, rxvt-unicode's `OSC 777 ; notify ; title ; body`,
 * kitty's `OSC 99 ; metadata ; payload` (chunked, base64) and DomTerm's
 * `OSC 30 ; name`, and the OSC 9 ; 4 progress. The core only parses and bounds them; the page decides
 * whether and how to show a notification (focus, permission, rate).
 *
 * @module
 */
import type { Emulator } from "./context.ts";
import { decodeBase64Text, MAX_TITLE_LENGTH, parseProgress } from "./osc.ts";

/** A notification's title is cut to this many characters here. */
export const MAX_NOTIFY_TITLE = 1024;
/** A notification's body is cut to this many characters here. */
export const MAX_NOTIFY_BODY = 4096;
/** Longest kitty notification id (longer ones: the sequence is ignored). */
const MAX_KITTY_ID = 64;
/** kitty notifications being assembled (d=0) at one time; the oldest goes. */
const MAX_PENDING = 8;

// deno-lint-ignore no-control-regex
const CONTROLS = /[\x00-\x1f\x7f-\x9f]+/g;
/** The same, but a line feed stays (bodies may have several lines). */
// deno-lint-ignore no-control-regex
const CONTROLS_BUT_LF = /[\x00-\x09\x0b-\x1f\x7f-\x9f]+/g;

/** Control characters become spaces (a title is one line). */
function clean(s: string, max: number): string {
  return s.replace(CONTROLS, " ").trim().slice(0, max);
}

function emitNotify(
  t: Emulator,
  source: "osc9" | "osc777" | "osc99",
  title: string,
  body: string,
  id = "",
): void {
  const tt = clean(title, MAX_NOTIFY_TITLE);
  // A body keeps its line breaks; other controls go.
  const bb = body.replace(/\r\n?/g, "\n").replace(CONTROLS_BUT_LF, " ")
    .trim().slice(0, MAX_NOTIFY_BODY);
  if (tt === "" && bb === "") return;
  t.emit({ type: "notify", source, title: tt, body: bb, id });
}

/**
 * `OSC 9 ; message` (iTerm2: a notification) and `OSC 9 ; 4 ; state ;
 * percent` (ConEmu / Windows Terminal: progress). Other ConEmu forms
 * (`OSC 9 ; n ; ...` with a number n) are ignored, so they never turn into
 * notifications.
 */
export function osc9(t: Emulator, args: string): void {
  if (/^[0-9]+(;|$)/.test(args)) {
    const p = parseProgress(args);
    if (p === null) return;
    // Error and paused without a percentage keep the last one (as Windows
    // Terminal does).
    if ((p.state === 2 || p.state === 4) && p.percent === 0) {
      p.percent = t.s.progress.percent;
    }
    // Kept in the state, so a window that attaches later shows it too.
    t.s.progress = p;
    t.emit({ type: "progress", ...p });
    return;
  }
  emitNotify(t, "osc9", "", args);
}

/** `OSC 777 ; notify ; title ; body` (rxvt-unicode); a body may hold `;`. */
export function osc777(t: Emulator, args: string): void {
  const parts = args.split(";");
  if (parts[0] !== "notify" || parts.length < 2) return;
  emitNotify(t, "osc777", parts[1], parts.slice(2).join(";"));
}

/**
 * `OSC 99 ; metadata ; payload` (kitty's desktop notifications). Metadata
 * is `key=value` pairs joined by `:`; the keys read here are `i` (id), `d`
 * (0: more chunks follow), `p` (`title`, `body`, or `?` to ask what is
 * supported) and `e` (1: the payload is base64). Other keys are accepted
 * and ignored; other payload types (icons, buttons...) are dropped.
 */
export function osc99(t: Emulator, args: string): void {
  const semi = args.indexOf(";");
  const meta = semi < 0 ? args : args.slice(0, semi);
  let payload = semi < 0 ? "" : args.slice(semi + 1);
  let id = "", done = true, kind = "title", base64 = false;
  for (const kv of meta.split(":")) {
    if (kv === "") continue;
    const eq = kv.indexOf("=");
    const k = eq < 0 ? kv : kv.slice(0, eq), v = eq < 0 ? "" : kv.slice(eq + 1);
    if (k === "i") {
      if (v.length > MAX_KITTY_ID || !/^[A-Za-z0-9_+.-]*$/.test(v)) return;
      id = v;
    } else if (k === "d") done = v !== "0";
    else if (k === "p") kind = v;
    else if (k === "e") base64 = v === "1";
  }
  if (kind === "?") {
    // What we can show: a title and a body (no icons, buttons or sounds).
    t.replyOsc(`99;i=${id}:p=?;p=title,body`);
    return;
  }
  if (base64) {
    const decoded = decodeBase64Text(payload);
    if (decoded === null) return;
    payload = decoded;
  }
  const s = t.s.notify;
  let n = s.pending.get(id);
  if (!n) {
    n = { title: "", body: "" };
    if (s.pending.size >= MAX_PENDING) {
      s.pending.delete(s.pending.keys().next().value!);
    }
    s.pending.set(id, n);
  }
  if (kind === "title") {
    n.title = (n.title + payload).slice(0, MAX_NOTIFY_TITLE);
  } else if (kind === "body") {
    n.body = (n.body + payload).slice(0, MAX_NOTIFY_BODY);
  }
  if (!done) return;
  s.pending.delete(id);
  emitNotify(t, "osc99", n.title, n.body, id);
}

/**
 * `OSC 30 ; name` (DomTerm): name the window. The page shows it as the
 * `window-name` attribute of the terminal, which stylesheets can select on.
 */
export function osc30(t: Emulator, args: string): void {
  const name = clean(args, MAX_TITLE_LENGTH);
  t.s.windowName = name;
  t.emit({ type: "window-name", name });
}
