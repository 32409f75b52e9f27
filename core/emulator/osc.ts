/**
 * The standard OSC handlers: titles, hyperlinks, palette and dynamic
 * colours, the current directory, the clipboard, progress. `sequences.ts`
 * registers them by number.
 *
 * @module
 */
import {
  type ColorOverrides,
  DYNAMIC_COLORS,
  formatColorReply,
  parseColorSpec,
  SPECIAL_BASE,
  SPECIAL_COLORS,
} from "./colors.ts";
import type { TerminalEvent } from "../terminal_view.ts";

/** Handles the text after `Ps;` (or "" when the OSC was just `Ps`). */
export type OscHandler = (args: string) => void;

/** What the standard OSC handlers act on. */
export interface OscHost {
  /** Set the icon title and/or window title (null = leave unchanged). */
  setTitles(icon: string | null, title: string | null): void;
  /** Start an OSC 8 hyperlink, or end it with `uri` null. */
  setLink(uri: string | null, id: string): void;
  /** Palette and dynamic colour overrides. */
  readonly colors: ColorOverrides;
  /** Called after an OSC changed colours. */
  colorsChanged(): void;
  /** Send a reply to the program. */
  reply(data: string): void;
  /**
   * Send `OSC body` ended like the OSC being handled (BEL or ST), as xterm
   * answers its colour queries.
   */
  replyOsc(body: string): void;
  /** Remember the current directory (OSC 7). */
  setCwd(url: string): void;
  /** Report an event (clipboard, progress) to the embedder. */
  emit(e: TerminalEvent): void;
}

/** Titles longer than this are cut. */
export const MAX_TITLE_LENGTH = 1024;
/** Hyperlink URIs longer than this are not links. */
export const MAX_LINK_LENGTH = 8192;

/** Split "Ps;Pt" into [Ps, Pt]; Ps must be decimal digits, else null. */
export function splitOsc(data: string): [number, string] | null {
  const semi = data.indexOf(";");
  const head = semi < 0 ? data : data.slice(0, semi);
  if (head.length === 0 || head.length > 6 || !/^[0-9]+$/.test(head)) {
    return null;
  }
  return [parseInt(head, 10), semi < 0 ? "" : data.slice(semi + 1)];
}

/** `OSC 8 ; params ; URI`: start a hyperlink (an empty URI ends it). */
export function osc8(host: OscHost, args: string): void {
  const semi = args.indexOf(";");
  if (semi < 0) return;
  const params = args.slice(0, semi);
  const uri = args.slice(semi + 1);
  if (uri.length === 0 || uri.length > MAX_LINK_LENGTH) {
    host.setLink(null, "");
    return;
  }
  let id = "";
  for (const kv of params.split(":")) {
    if (kv.startsWith("id=")) id = kv.slice(3);
  }
  host.setLink(uri, id);
}

/**
 * Pairs of `index ; spec|?` (OSC 4 and OSC 5): set each colour, answer
 * each query in order as `OSC code ; index ; rgb:rrrr/gggg/bbbb`. `base`
 * maps an index to the palette (0 for OSC 4, 256 for OSC 5); `limit` is
 * the largest index accepted.
 */
function colorPairs(
  host: OscHost,
  code: number,
  args: string,
  base: number,
  limit: number,
): void {
  const parts = args.split(";");
  let changed = false;
  for (let i = 0; i + 1 < parts.length; i += 2) {
    if (!/^[0-9]{1,4}$/.test(parts[i])) continue;
    const index = parseInt(parts[i], 10);
    if (index > limit) continue;
    const spec = parts[i + 1];
    if (spec === "?") {
      host.replyOsc(
        `${code};${index};${
          formatColorReply(host.colors.paletteColor(base + index))
        }`,
      );
    } else {
      const c = parseColorSpec(spec);
      if (c !== null) {
        host.colors.palette.set(base + index, c);
        changed = true;
      }
    }
  }
  if (changed) host.colorsChanged();
}

/** `OSC 4 ; index ; spec|? [; ...]`: palette colours (256-260: the special colours). */
export function osc4(host: OscHost, args: string): void {
  colorPairs(host, 4, args, 0, SPECIAL_BASE + SPECIAL_COLORS - 1);
}

/** `OSC 5 ; index ; spec|? [; ...]`: special colours (0 bold, 1 underline, 2 blink, 3 reverse, 4 italic). */
export function osc5(host: OscHost, args: string): void {
  colorPairs(host, 5, args, SPECIAL_BASE, SPECIAL_COLORS - 1);
}

function resetPalette(
  host: OscHost,
  args: string,
  base: number,
  count: number,
): void {
  if (args === "") {
    for (let i = 0; i < count; i++) host.colors.palette.delete(base + i);
  } else {
    for (const p of args.split(";")) {
      if (!/^[0-9]{1,4}$/.test(p)) continue;
      const i = parseInt(p, 10);
      if (i < count) host.colors.palette.delete(base + i);
    }
  }
  host.colorsChanged();
}

/** `OSC 104 [; index ...]`: reset palette colours (all, special colours too, without an index). */
export function osc104(host: OscHost, args: string): void {
  resetPalette(host, args, 0, SPECIAL_BASE + SPECIAL_COLORS);
}

/** `OSC 105 [; index ...]`: reset special colours (all without an index). */
export function osc105(host: OscHost, args: string): void {
  resetPalette(host, args, SPECIAL_BASE, SPECIAL_COLORS);
}

/** OSC 10-19: each further argument applies to the next number. */
function dynamicColors(host: OscHost, first: number, args: string): void {
  let changed = false;
  const parts = args.split(";");
  for (let k = 0; k < parts.length; k++) {
    const which = first - 10 + k;
    if (which >= DYNAMIC_COLORS) break;
    if (parts[k] === "?") {
      host.replyOsc(
        `${10 + which};${formatColorReply(host.colors.dynamicColor(which))}`,
      );
    } else {
      const c = parseColorSpec(parts[k]);
      if (c !== null) {
        host.colors.dynamic[which] = c;
        changed = true;
      }
    }
  }
  if (changed) host.colorsChanged();
}

/**
 * `OSC 10+i ; spec|? [; ...]` (i = 0-9): foreground, background, cursor,
 * pointer foreground and background, Tektronix foreground and background,
 * highlight background, Tektronix cursor, highlight foreground. A further
 * argument applies to the next number.
 */
export function dynamicColorOsc(
  code: number,
): (host: OscHost, args: string) => void {
  return (host, args) => dynamicColors(host, code, args);
}

/** `OSC 110+i`: reset dynamic colour i (OSC 10+i) to its default. */
export function resetDynamicOsc(code: number): (host: OscHost) => void {
  return (host) => {
    host.colors.dynamic[code - 110] = null;
    host.colorsChanged();
  };
}

/** OSC 7 URLs longer than this are ignored. */
export const MAX_CWD_LENGTH = 4096;

/** OSC 7 `file://host/path` (kitty's `kitty-shell-cwd://` too). */
export function osc7(host: OscHost, args: string): void {
  if (args.length > MAX_CWD_LENGTH) return;
  if (!/^(file|kitty-shell-cwd):\/\//.test(args)) return;
  host.setCwd(args);
}

const utf8 = new TextDecoder();

/**
 * Decode base64 (standard alphabet, padding optional) as UTF-8, or null
 * when it is not base64.
 */
export function decodeBase64Text(data: string): string | null {
  const s = data.replace(/[\r\n]/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 === 1) return null;
  try {
    const bin = atob(s.padEnd(s.length + ((4 - s.length % 4) % 4), "="));
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * OSC 52 ; Pc ; Pd: set the clipboard (Pd base64; anything else clears it,
 * as xterm). A query (`Pd` = "?") is a `clipboard-read` event: the
 * embedder asks the user (or not) and answers.
 */
export function osc52(host: OscHost, args: string): void {
  const semi = args.indexOf(";");
  if (semi < 0) return;
  const selection = args.slice(0, semi);
  if (!/^[cpqs0-7]{0,16}$/.test(selection)) return;
  const data = args.slice(semi + 1);
  if (data === "?") {
    host.emit({ type: "clipboard-read", selection });
    return;
  }
  host.emit({
    type: "clipboard",
    selection,
    text: decodeBase64Text(data) ?? "",
  });
}

/** An OSC 9 ; 4 progress: state 0 none, 1 normal, 2 error, 3 indeterminate, 4 paused. */
export interface Progress {
  state: 0 | 1 | 2 | 3 | 4;
  /** 0-100. */
  percent: number;
}

/**
 * Parse the text of `OSC 9 ; 4 ; state ; percent` after "9;" (progress),
 * or null when it is not a valid progress (other numbered OSC 9 forms
 * included). `notify.ts` handles OSC 9 and calls this.
 */
export function parseProgress(args: string): Progress | null {
  const parts = args.split(";");
  if (parts[0] !== "4" || parts.length > 3) return null;
  const num = (s: string | undefined) =>
    s === undefined || s === "" ? 0 : /^[0-9]{1,6}$/.test(s) ? +s : -1;
  const state = num(parts[1]), percent = num(parts[2]);
  if (state < 0 || state > 4 || percent < 0) return null;
  return {
    state: state as Progress["state"],
    percent: state === 0 ? 0 : Math.min(100, percent),
  };
}

/** `OSC 0 ; Pt`: set the icon title and the window title. */
export function osc0(host: OscHost, args: string): void {
  const t = args.slice(0, MAX_TITLE_LENGTH);
  host.setTitles(t, t);
}
/** `OSC 1 ; Pt`: set the icon title. */
export function osc1(host: OscHost, args: string): void {
  host.setTitles(args.slice(0, MAX_TITLE_LENGTH), null);
}
/** `OSC 2 ; Pt`: set the window title. */
export function osc2(host: OscHost, args: string): void {
  host.setTitles(null, args.slice(0, MAX_TITLE_LENGTH));
}
/** Longest OSC 88 settings text taken (longer is ignored). */
export const MAX_OSC88 = 64 * 1024;

/** OSC 88 ; json: DomTerm's window settings, handed to the page as an event. */
export function osc88(host: OscHost, args: string): void {
  if (args.length === 0 || args.length > MAX_OSC88) return;
  host.emit({ type: "settings", json: args });
}
