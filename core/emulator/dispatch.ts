/**
 * Lookup tables built once from the registrations in `sequences.ts`. CSI
 * sequences without a prefix or intermediates (the common case: SGR,
 * cursor motion, erase) are found by indexing an array with the final
 * byte; everything else through a map keyed as in `sequences.ts`.
 *
 * @module
 */
import {
  type ControlHandler,
  CONTROLS,
  CSI_SEQUENCES,
  type CsiHandler,
  DCS_SEQUENCES,
  type DcsHandler,
  ESC_SEQUENCES,
  type EscHandler,
  OSC_COMMANDS,
  type OscHandler,
} from "./sequences.ts";

function byKey<K, H>(list: readonly { key: K; handler: H }[]): Map<K, H> {
  const m = new Map<K, H>();
  for (const r of list) {
    if (m.has(r.key)) {
      throw new Error(`sequence ${String(r.key)} registered twice`);
    }
    m.set(r.key, r.handler);
  }
  return m;
}

const controls: (ControlHandler | undefined)[] = new Array(0xa0);
for (const [code, h] of byKey(CONTROLS)) controls[code] = h;

/**
 * A sequence's numeric key: private prefix, one intermediate and the final
 * byte in one number (0 for none). Sequences with more intermediates than
 * one go through the string map. Numbers, not strings, so that looking a
 * sequence up allocates nothing.
 */
function numericKey(prefix: number, inter: number, final: number): number {
  return (prefix << 16) | (inter << 8) | final;
}

const escPlain: (EscHandler | undefined)[] = new Array(0x80);
const escNumeric = new Map<number, EscHandler>();
const escAny: (EscHandler | undefined)[] = new Array(0x80);
const escLong = new Map<string, EscHandler>();
for (const [key, h] of byKey(ESC_SEQUENCES)) {
  if (key.length === 1) escPlain[key.charCodeAt(0)] = h;
  else if (key.length === 2 && key[1] === "*") escAny[key.charCodeAt(0)] = h;
  else if (key.length === 2) {
    escNumeric.set(numericKey(0, key.charCodeAt(0), key.charCodeAt(1)), h);
  } else escLong.set(key, h);
}

const csiPlain: (CsiHandler | undefined)[] = new Array(0x80);
const csiNumeric = new Map<number, CsiHandler>();
const csiLong = new Map<string, CsiHandler>();
for (const [key, h] of byKey(CSI_SEQUENCES)) {
  let k = key;
  let prefix = 0;
  if (k.length > 1 && "<=>?".includes(k[0])) {
    prefix = k.charCodeAt(0);
    k = k.slice(1);
  }
  if (prefix === 0 && k.length === 1) csiPlain[k.charCodeAt(0)] = h;
  else if (k.length <= 2) {
    const inter = k.length === 2 ? k.charCodeAt(0) : 0;
    csiNumeric.set(numericKey(prefix, inter, k.charCodeAt(k.length - 1)), h);
  } else csiLong.set(key, h);
}
const osc = byKey(OSC_COMMANDS);
const dcs = byKey(DCS_SEQUENCES);

/** The handler of C0/C1 control `code`, if any. */
export function controlHandler(code: number): ControlHandler | undefined {
  return controls[code];
}

/** The handler of `ESC intermediates final`, if any. */
export function escHandler(
  intermediates: string,
  final: number,
): EscHandler | undefined {
  const n = intermediates.length;
  if (n === 0) return escPlain[final];
  const first = intermediates.charCodeAt(0);
  const exact = n === 1
    ? escNumeric.get(numericKey(0, first, final))
    : escLong.get(intermediates + String.fromCharCode(final));
  return exact ?? escAny[first];
}

/** The handler of `CSI prefix ... intermediates final`, if any. */
export function csiHandler(
  prefix: string,
  intermediates: string,
  final: number,
): CsiHandler | undefined {
  const n = intermediates.length;
  if (n === 0 && prefix === "") return csiPlain[final];
  if (n > 1) {
    return csiLong.get(prefix + intermediates + String.fromCharCode(final));
  }
  return csiNumeric.get(
    numericKey(
      prefix === "" ? 0 : prefix.charCodeAt(0),
      n === 0 ? 0 : intermediates.charCodeAt(0),
      final,
    ),
  );
}

/** The handler of `OSC code ; ...`, if any. */
export function oscHandler(code: number): OscHandler | undefined {
  return osc.get(code);
}

/** The handler of `DCS prefix ... intermediates final ... ST`, if any. */
export function dcsHandler(
  prefix: string,
  intermediates: string,
  final: number,
): DcsHandler | undefined {
  return dcs.get(prefix + intermediates + String.fromCharCode(final));
}
