/**
 * XTGETTCAP (`DCS + q Pt ST`): a program asks for terminfo capabilities by
 * name (hex-encoded, `;`-separated), as xterm answers them: the terminal
 * name (TN), the number of colours (Co, colors), direct colour (RGB) and
 * the strings the keys send. The answer is one
 * `DCS 1 + r name=value ; ... ST` (names and values hex-encoded) for the
 * names known up to the first unknown one; `DCS 0 + r name ST` when the
 * first name is unknown.
 *
 * @module
 */
import type { Params } from "../parser/handler.ts";
import type { Emulator } from "./context.ts";
import { dcsReply } from "./replies.ts";

const ESC = "\x1b";

/** Capability name -> value (xterm-256color's terminfo for the keys). */
const CAPS: Record<string, string> = {
  TN: "xterm-256color",
  Co: "256",
  colors: "256",
  RGB: "8/8/8",
  kbs: "\x7f",
  kcuu1: `${ESC}OA`,
  kcud1: `${ESC}OB`,
  kcuf1: `${ESC}OC`,
  kcub1: `${ESC}OD`,
  khome: `${ESC}OH`,
  kend: `${ESC}OF`,
  kich1: `${ESC}[2~`,
  kdch1: `${ESC}[3~`,
  kpp: `${ESC}[5~`,
  knp: `${ESC}[6~`,
  kcbt: `${ESC}[Z`,
  kent: `${ESC}OM`,
  kf1: `${ESC}OP`,
  kf2: `${ESC}OQ`,
  kf3: `${ESC}OR`,
  kf4: `${ESC}OS`,
  kf5: `${ESC}[15~`,
  kf6: `${ESC}[17~`,
  kf7: `${ESC}[18~`,
  kf8: `${ESC}[19~`,
  kf9: `${ESC}[20~`,
  kf10: `${ESC}[21~`,
  kf11: `${ESC}[23~`,
  kf12: `${ESC}[24~`,
};

function fromHex(s: string): string | null {
  if (s.length === 0 || s.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(s)) {
    return null;
  }
  let out = "";
  for (let i = 0; i < s.length; i += 2) {
    out += String.fromCharCode(parseInt(s.slice(i, i + 2), 16));
  }
  return out;
}

function toHex(s: string): string {
  let out = "";
  for (let i = 0; i < s.length; i++) {
    out += s.charCodeAt(i).toString(16).padStart(2, "0").toUpperCase();
  }
  return out;
}

/** `DCS + q Pt ST` XTGETTCAP: report terminfo capabilities. */
export function xtgettcap(t: Emulator, _p: Params, payload: Uint8Array): void {
  if (payload.length > 1024) return;
  const names = String.fromCharCode(...payload).split(";");
  const pairs: string[] = [];
  for (const hexName of names) {
    const name = fromHex(hexName);
    const value = name === null ? undefined : CAPS[name];
    if (value === undefined) {
      if (pairs.length === 0) t.send(dcsReply(`0+r${hexName}`));
      break;
    }
    pairs.push(`${hexName}=${toHex(value)}`);
  }
  if (pairs.length > 0) t.send(dcsReply(`1+r${pairs.join(";")}`));
}
