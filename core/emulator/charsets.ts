/**
 * Character sets G0-G3: the tables and {@link CharsetState} (what SCS
 * designates and the shifts invoke; the handlers are `charset_shifts.ts`).
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

/** The positions a national replacement set may change, in this order. */
const NRC_POSITIONS = "#@[\\]^_`{|}~";

/** A national set: `chars` replaces NRC_POSITIONS in order; "." keeps ASCII. */
function nrc(chars: string): Uint32Array {
  const changes: Record<string, number> = {};
  const list = [...chars];
  for (let k = 0; k < list.length; k++) {
    if (list[k] !== ".") changes[NRC_POSITIONS[k]] = list[k].codePointAt(0)!;
  }
  return table(changes);
}

/** The VT220/VT510 national replacement character sets. */
export const NRC_SETS = {
  dutch: nrc("£¾ĳ½|...¨ƒ¼´"),
  finnish: nrc("..ÄÖÅÜ.éäöåü"),
  french: nrc("£à°ç§...éùè¨"),
  frenchCanadian: nrc(".àâçêî.ôéùèû"),
  german: nrc(".§ÄÖÜ...äöüß"),
  italian: nrc("£§°çé..ùàòèì"),
  norwegianDanish: nrc(".ÄÆØÅÜ.äæøåü"),
  portuguese: nrc("..ÃÇÕ...ãçõ."),
  spanish: nrc("£§¡Ñ¿...°ñç."),
  swedish: nrc(".ÉÄÖÅÜ.éäöåü"),
  swiss: nrc("ùàéçêîèôäöüû"),
} as const;

/**
 * DEC Supplemental Graphic (`ESC ( % 5`, `ESC ( <`): GL 0x21-0x7e shown as
 * Latin-1 0xa1-0xfe, except where DEC's set differs from ISO 8859-1.
 */
export const DEC_SUPPLEMENTAL: Uint32Array = (() => {
  const t = table({});
  for (let c = 0x21; c < 0x7f; c++) t[c] = c + 0x80;
  t[0x28] = 0x00a4; // currency sign where Latin-1 has the diaeresis
  t[0x57] = 0x0152; // OE
  t[0x5d] = 0x0178; // Y diaeresis
  t[0x77] = 0x0153; // oe
  t[0x7d] = 0x00ff; // y diaeresis
  return t;
})();

/** ISO Latin-1 supplemental (96-character set `ESC - A`): GL 0x20-0x7f as 0xa0-0xff. */
export const LATIN1_SUPPLEMENTAL: Uint32Array = (() => {
  const t = table({});
  for (let c = 0x20; c < 0x80; c++) t[c] = c + 0x80;
  return t;
})();

/**
 * The 94-character set that SCS designates with `prefix` (an intermediate
 * after the `(`/`)`/`*`/`+`, e.g. "%", or "") and final byte `final`, or
 * undefined for one we do not know (the designation is then ignored).
 * National sets count only with DECNRCM (`national`), as in xterm; the UK
 * set is a VT100 set and always counts.
 */
export function charsetForFinal(
  final: number,
  prefix = "",
  national = true,
): Charset | undefined {
  const ch = String.fromCharCode(final);
  if (prefix === "%") {
    if (ch === "5") return DEC_SUPPLEMENTAL;
    if (ch === "6" && national) return NRC_SETS.portuguese;
    return undefined;
  }
  if (prefix !== "") return undefined;
  switch (ch) {
    case "0":
      return DEC_SPECIAL_GRAPHICS;
    case "A":
      return UK;
    case "B": // US ASCII
    case "1": // DEC alternate ROM (standard)
    case "2": // DEC alternate ROM (special): treated as ASCII
      return null;
    case "<": // user-preferred supplemental: DEC Supplemental
      return DEC_SUPPLEMENTAL;
  }
  if (!national) return undefined;
  switch (ch) {
    case "4":
      return NRC_SETS.dutch;
    case "C":
    case "5":
      return NRC_SETS.finnish;
    case "R":
    case "f":
      return NRC_SETS.french;
    case "Q":
    case "9":
      return NRC_SETS.frenchCanadian;
    case "K":
      return NRC_SETS.german;
    case "Y":
      return NRC_SETS.italian;
    case "E":
    case "6":
    case "`":
      return NRC_SETS.norwegianDanish;
    case "Z":
      return NRC_SETS.spanish;
    case "H":
    case "7":
      return NRC_SETS.swedish;
    case "=":
      return NRC_SETS.swiss;
    default:
      return undefined;
  }
}

/** The 96-character set that `ESC - F` / `ESC . F` / `ESC / F` designates, or undefined. */
export function charset96ForFinal(final: number): Charset | undefined {
  return final === 0x41 ? LATIN1_SUPPLEMENTAL : undefined;
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

/** Every table a G set can hold, by a stable name (for snapshots). */
export const CHARSET_NAMES: ReadonlyMap<string, Uint32Array> = new Map<
  string,
  Uint32Array
>([
  ["dec-special-graphics", DEC_SPECIAL_GRAPHICS],
  ["uk", UK],
  ["dec-supplemental", DEC_SUPPLEMENTAL],
  ["latin1-supplemental", LATIN1_SUPPLEMENTAL],
  ...Object.entries(NRC_SETS).map(([k, v]) =>
    [`nrc-${k}`, v] as [
      string,
      Uint32Array,
    ]
  ),
]);

/** The name of a G set's table in {@link CHARSET_NAMES} ("" for ASCII). */
export function charsetName(set: Charset): string {
  if (set === null) return "";
  for (const [k, v] of CHARSET_NAMES) if (v === set) return k;
  return "";
}
