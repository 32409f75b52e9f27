/**
 * OSC dispatch: `OSC Ps ; Pt` goes to the handler registered for `Ps`.
 * Later features (OSC 7, 52, 133, 1337, DomTerm's own...) add handlers to
 * the same table through `Terminal.setOscHandler`.
 *
 * @module
 */
import {
  type ColorOverrides,
  formatColorReply,
  parseColorSpec,
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

function osc8(host: OscHost, args: string): void {
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

function osc4(host: OscHost, args: string): void {
  const parts = args.split(";");
  let changed = false;
  for (let i = 0; i + 1 < parts.length; i += 2) {
    if (!/^[0-9]{1,3}$/.test(parts[i])) continue;
    const index = parseInt(parts[i], 10);
    if (index > 255) continue;
    const spec = parts[i + 1];
    if (spec === "?") {
      host.replyOsc(
        `4;${index};${formatColorReply(host.colors.paletteColor(index))}`,
      );
    } else {
      const c = parseColorSpec(spec);
      if (c !== null) {
        host.colors.palette.set(index, c);
        changed = true;
      }
    }
  }
  if (changed) host.colorsChanged();
}

function osc104(host: OscHost, args: string): void {
  if (args === "") host.colors.palette.clear();
  else {
    for (const p of args.split(";")) {
      if (/^[0-9]{1,3}$/.test(p)) host.colors.palette.delete(parseInt(p, 10));
    }
  }
  host.colorsChanged();
}

/** OSC 10/11/12: each further argument applies to the next number. */
function dynamicColors(host: OscHost, first: number, args: string): void {
  let changed = false;
  const parts = args.split(";");
  for (let k = 0; k < parts.length; k++) {
    const which = first - 10 + k;
    if (which > 2) break;
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

function resetDynamic(host: OscHost, which: number): void {
  host.colors.dynamic[which] = null;
  host.colorsChanged();
}

/** OSC 7 URLs longer than this are ignored. */
export const MAX_CWD_LENGTH = 4096;

/** OSC 7 `file://host/path` (kitty's `kitty-shell-cwd://` too). */
function osc7(host: OscHost, args: string): void {
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
 * as xterm). A query (`Pd` = "?") gets no answer: reading the clipboard
 * needs the user's permission, which this layer cannot ask for.
 */
function osc52(host: OscHost, args: string): void {
  const semi = args.indexOf(";");
  if (semi < 0) return;
  const selection = args.slice(0, semi);
  if (!/^[cpqs0-7]{0,16}$/.test(selection)) return;
  const data = args.slice(semi + 1);
  if (data === "?") return;
  host.emit({
    type: "clipboard",
    selection,
    text: decodeBase64Text(data) ?? "",
  });
}

/** OSC 9 ; 4 ; state ; percent (progress). Other OSC 9 forms are ignored. */
function osc9(host: OscHost, args: string): void {
  const parts = args.split(";");
  if (parts[0] !== "4" || parts.length > 3) return;
  const num = (s: string | undefined) =>
    s === undefined || s === "" ? 0 : /^[0-9]{1,6}$/.test(s) ? +s : -1;
  const state = num(parts[1]), percent = num(parts[2]);
  if (state < 0 || state > 4 || percent < 0) return;
  host.emit({
    type: "progress",
    state: state as 0 | 1 | 2 | 3 | 4,
    percent: Math.min(100, percent),
  });
}

/** The standard handlers: titles, hyperlinks, palette and dynamic colours. */
export function standardOscHandlers(host: OscHost): Map<number, OscHandler> {
  const cut = (s: string) => s.slice(0, MAX_TITLE_LENGTH);
  return new Map<number, OscHandler>([
    [0, (a) => host.setTitles(cut(a), cut(a))],
    [1, (a) => host.setTitles(cut(a), null)],
    [2, (a) => host.setTitles(null, cut(a))],
    [4, (a) => osc4(host, a)],
    [7, (a) => osc7(host, a)],
    [9, (a) => osc9(host, a)],
    [52, (a) => osc52(host, a)],
    [8, (a) => osc8(host, a)],
    [10, (a) => dynamicColors(host, 10, a)],
    [11, (a) => dynamicColors(host, 11, a)],
    [12, (a) => dynamicColors(host, 12, a)],
    [104, (a) => osc104(host, a)],
    [110, () => resetDynamic(host, 0)],
    [111, () => resetDynamic(host, 1)],
    [112, () => resetDynamic(host, 2)],
  ]);
}
