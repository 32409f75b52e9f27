/**
 * The standard OSC handlers: titles, hyperlinks, palette and dynamic
 * colours, the current directory, the clipboard, progress. `sequences.ts`
 * registers them by number.
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

/** `OSC 4 ; index ; spec|? [; ...]`: set or query palette colours. */
export function osc4(host: OscHost, args: string): void {
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

/** `OSC 104 [; index ...]`: reset palette colours (all without an index). */
export function osc104(host: OscHost, args: string): void {
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
 * as xterm). A query (`Pd` = "?") gets no answer: reading the clipboard
 * needs the user's permission, which this layer cannot ask for.
 */
export function osc52(host: OscHost, args: string): void {
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
export function osc9(host: OscHost, args: string): void {
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
/** `OSC 10 ; spec|? [; ...]`: default foreground (further arguments: 11, 12). */
export function osc10(host: OscHost, args: string): void {
  dynamicColors(host, 10, args);
}
/** `OSC 11 ; spec|? [; ...]`: default background (a further argument: 12). */
export function osc11(host: OscHost, args: string): void {
  dynamicColors(host, 11, args);
}
/** `OSC 12 ; spec|?`: cursor colour. */
export function osc12(host: OscHost, args: string): void {
  dynamicColors(host, 12, args);
}
/** `OSC 110`: reset the default foreground. */
export function osc110(host: OscHost): void {
  resetDynamic(host, 0);
}
/** `OSC 111`: reset the default background. */
export function osc111(host: OscHost): void {
  resetDynamic(host, 1);
}
/** `OSC 112`: reset the cursor colour. */
export function osc112(host: OscHost): void {
  resetDynamic(host, 2);
}

/** Longest OSC 88 settings text taken (longer is ignored). */
export const MAX_OSC88 = 64 * 1024;

/** OSC 88 ; json: DomTerm's window settings, handed to the page as an event. */
export function osc88(host: OscHost, args: string): void {
  if (args.length === 0 || args.length > MAX_OSC88) return;
  host.emit({ type: "settings", json: args });
}
