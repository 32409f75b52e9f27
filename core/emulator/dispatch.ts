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

const esc = byKey(ESC_SEQUENCES);
const csi = byKey(CSI_SEQUENCES);
const csiPlain: (CsiHandler | undefined)[] = new Array(0x80);
for (const [key, h] of csi) {
  if (key.length === 1) csiPlain[key.charCodeAt(0)] = h;
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
  return esc.get(intermediates + String.fromCharCode(final)) ??
    (intermediates === "" ? undefined : esc.get(intermediates[0] + "*"));
}

/** The handler of `CSI prefix ... intermediates final`, if any. */
export function csiHandler(
  prefix: string,
  intermediates: string,
  final: number,
): CsiHandler | undefined {
  if (prefix === "" && intermediates === "") return csiPlain[final];
  return csi.get(prefix + intermediates + String.fromCharCode(final));
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
