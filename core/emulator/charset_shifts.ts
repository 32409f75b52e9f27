/**
 * The character set sequences: designation (SCS: `ESC ( F`, `ESC ) F`,
 * `ESC * F`, `ESC + F`, and the 96-character `ESC - F` ...), locking shifts
 * (SI, SO, LS2, LS3) and single shifts (SS2, SS3). The tables and the state
 * they change are `charsets.ts`.
 *
 * @module
 */
import type { Emulator } from "./context.ts";
import { charset96ForFinal, charsetForFinal } from "./charsets.ts";

/** `ESC ( F`, `ESC ) F`, `ESC * F`, `ESC + F` SCS: designate a 94-character set into G0-G3 (`ESC ( % 5` and similar with a second intermediate). */
export function scs94(t: Emulator, final: number, intermediates: string): void {
  const g = "()*+".indexOf(intermediates[0]);
  if (g < 0) return;
  const set = charsetForFinal(
    final,
    intermediates.slice(1),
    t.s.modes.nationalCharsets,
  );
  if (set !== undefined) t.s.charsets.g[g] = set;
}

/** `ESC - F`, `ESC . F`, `ESC / F` SCS: designate a 96-character set into G1-G3. */
export function scs96(t: Emulator, final: number, intermediates: string): void {
  if (intermediates.length !== 1) return;
  const set = charset96ForFinal(final);
  if (set !== undefined) t.s.charsets.g["-./".indexOf(intermediates) + 1] = set;
}

/** SO (LS1): G1 into GL. */
export function so(t: Emulator): void {
  t.s.charsets.gl = 1;
}
/** SI (LS0): G0 into GL. */
export function si(t: Emulator): void {
  t.s.charsets.gl = 0;
}
/** `ESC n` LS2: G2 into GL. */
export function ls2(t: Emulator): void {
  t.s.charsets.gl = 2;
}
/** `ESC o` LS3: G3 into GL. */
export function ls3(t: Emulator): void {
  t.s.charsets.gl = 3;
}
/** `ESC N` SS2 / C1 0x8e: the next character from G2. */
export function ss2(t: Emulator): void {
  t.s.charsets.singleShift = 2;
}
/** `ESC O` SS3 / C1 0x8f: the next character from G3. */
export function ss3(t: Emulator): void {
  t.s.charsets.singleShift = 3;
}
