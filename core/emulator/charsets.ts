/**
 * Character sets G0-G3 (SCS: `ESC ( F`, `ESC ) F`, `ESC * F`, `ESC + F`),
 * locking shifts (SI, SO, LS2, LS3) and single shifts (SS2, SS3).
 *
 * A charset is a translation table for 0x20-0x7f, or null for ASCII
 * (identity), so the common case costs one null check.
 *
 * @module
 */

/** A 128-entry translation table, or null for ASCII. */
export type Charset = Uint32Array | null;

function table(changes: Record<string, number>): Uint32Array {
  const t = new Uint32Array(128);
  for (let c = 0; c < 128; c++) t[c] = c;
  for (const [ch, cp] of Object.entries(changes)) t[ch.charCodeAt(0)] = cp;
  return t;
}

/** DEC Special Graphics (`ESC ( 0`): line drawing and symbols for 0x5f-0x7e. */
export const DEC_SPECIAL_GRAPHICS: Uint32Array = table({
  "_": 0x00a0,
  "`": 0x25c6,
  "a": 0x2592,
  "b": 0x2409,
  "c": 0x240c,
  "d": 0x240d,
  "e": 0x240a,
  "f": 0x00b0,
  "g": 0x00b1,
  "h": 0x2424,
  "i": 0x240b,
  "j": 0x2518,
  "k": 0x2510,
  "l": 0x250c,
  "m": 0x2514,
  "n": 0x253c,
  "o": 0x23ba,
  "p": 0x23bb,
  "q": 0x2500,
  "r": 0x23bc,
  "s": 0x23bd,
  "t": 0x251c,
  "u": 0x2524,
  "v": 0x2534,
  "w": 0x252c,
  "x": 0x2502,
  "y": 0x2264,
  "z": 0x2265,
  "{": 0x03c0,
  "|": 0x2260,
  "}": 0x00a3,
  "~": 0x00b7,
});

/** United Kingdom (`ESC ( A`): `#` is the pound sign. */
export const UK: Uint32Array = table({ "#": 0x00a3 });

/**
 * The charset that SCS final byte `final` designates (94-character sets),
 * or undefined for one we do not know (the designation is then ignored).
 */
export function charsetForFinal(final: number): Charset | undefined {
  switch (final) {
    case 0x30: // '0'
      return DEC_SPECIAL_GRAPHICS;
    case 0x41: // 'A'
      return UK;
    case 0x42: // 'B' US ASCII
    case 0x31: // '1' DEC alternate ROM (standard)
    case 0x32: // '2' DEC alternate ROM (special): treated as ASCII
      return null;
    default:
      return undefined;
  }
}

/** The G0-G3 designations and the shift state. */
export class CharsetState {
  /** G0..G3. */
  g: Charset[] = [null, null, null, null];
  /** Which G set is invoked into GL (0-3). */
  gl = 0;
  /** Single shift pending: 2, 3, or -1 for none. */
  singleShift = -1;

  /** True when printing needs translation (not plain ASCII in GL, or a single shift pending). */
  get active(): boolean {
    return this.g[this.gl] !== null || this.singleShift >= 0;
  }

  /** Translate one printed code point (consumes a pending single shift). */
  translate(cp: number): number {
    let t: Charset;
    if (this.singleShift >= 0) {
      t = this.g[this.singleShift];
      this.singleShift = -1;
    } else {
      t = this.g[this.gl];
    }
    return t !== null && cp < 128 ? t[cp] : cp;
  }

  /** Back to the power-on state: all four sets ASCII, G0 in GL. */
  reset(): void {
    this.g = [null, null, null, null];
    this.gl = 0;
    this.singleShift = -1;
  }

  /** A copy (for DECSC). */
  clone(): CharsetState {
    const c = new CharsetState();
    c.g = this.g.slice();
    c.gl = this.gl;
    c.singleShift = this.singleShift;
    return c;
  }
}
