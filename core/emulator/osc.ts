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
import { oscReply } from "./replies.ts";

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
      host.reply(
        oscReply(
          `4;${index};${formatColorReply(host.colors.paletteColor(index))}`,
        ),
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
      host.reply(
        oscReply(
          `${10 + which};${formatColorReply(host.colors.dynamicColor(which))}`,
        ),
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

/** The standard handlers: titles, hyperlinks, palette and dynamic colours. */
export function standardOscHandlers(host: OscHost): Map<number, OscHandler> {
  const cut = (s: string) => s.slice(0, MAX_TITLE_LENGTH);
  return new Map<number, OscHandler>([
    [0, (a) => host.setTitles(cut(a), cut(a))],
    [1, (a) => host.setTitles(cut(a), null)],
    [2, (a) => host.setTitles(null, cut(a))],
    [4, (a) => osc4(host, a)],
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
