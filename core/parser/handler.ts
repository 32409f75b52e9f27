/**
 * The interface between the escape-sequence parser and whatever acts on it
 * (the emulator). The parser decodes UTF-8, runs the VT500 state machine and
 * calls exactly one of these methods per recognised unit of input.
 *
 * @module
 */

/** Numeric parameters of a CSI or DCS sequence, with colon sub-parameters. */
export interface Params {
  /** Number of parameters (`CSI m` has 0; `CSI ;m` has 2, both missing). */
  readonly length: number;
  /**
   * Parameter `i`, or `dflt` when it is missing (empty) or `i >= length`.
   * An explicit 0 is returned as 0: callers that treat 0 as "default"
   * (cursor movement) do so themselves.
   */
  get(i: number, dflt: number): number;
  /** True when parameter `i` was present (not empty). */
  has(i: number): boolean;
  /**
   * Colon sub-parameters that follow parameter `i`, or undefined when it had
   * none. A missing sub-parameter is -1. For `CSI 38:2::10:20:30 m`:
   * get(0) = 38 and sub(0) = [2, -1, 10, 20, 30].
   */
  sub(i: number): readonly number[] | undefined;
}

/** What the parser calls. Every method must tolerate any argument values. */
export interface ParserHandler {
  /**
   * Printable characters (Unicode scalar values, already UTF-8 decoded;
   * invalid input arrives as U+FFFD). `codes[start..end)` is valid only
   * during the call: the parser reuses the array.
   */
  print(codes: Uint32Array, start: number, end: number): void;
  /** A C0 control (0x00-0x1f, 0x7f is ignored by the parser) or C1 control (0x80-0x9f) that is not a sequence introducer. */
  execute(code: number): void;
  /**
   * A complete CSI sequence. `prefix` is the private marker ("", "?", ">",
   * "=" or "<"), `intermediates` the 0x20-0x2f bytes (e.g. "$", " ", "!",
   * "\""), `final` the final byte's code (0x40-0x7e).
   */
  csi(
    prefix: string,
    params: Params,
    intermediates: string,
    final: number,
  ): void;
  /** A complete ESC sequence, e.g. ESC ( 0 gives intermediates "(" final 0x30. */
  esc(intermediates: string, final: number): void;
  /**
   * A complete OSC string, UTF-8 decoded, without the introducer and
   * terminator (e.g. "0;my title"). Oversized strings are dropped by the
   * parser and never reach this method. `bel` is true when BEL ended it
   * (xterm answers a query with the terminator the query used).
   */
  osc(data: string, bel: boolean): void;
  /**
   * A complete DCS string: its parameters, private prefix, intermediates,
   * final byte and raw payload bytes (e.g. DECRQSS `DCS $ q m ST` gives
   * prefix "", intermediates "$", final 0x71 ('q'), payload "m").
   */
  dcs(
    prefix: string,
    params: Params,
    intermediates: string,
    final: number,
    payload: Uint8Array,
  ): void;
  /**
   * A VT52 sequence, in VT52 mode only (`Parser.vt52`): `final` is the byte
   * after ESC (any, recognised or not); for `ESC Y` (0x59) `row` and
   * `column` are the two bytes that follow, as received (value + 32).
   * Optional: without it VT52 sequences are dropped.
   */
  vt52?(final: number, row: number, column: number): void;
  /** A complete APC, PM or SOS string (raw payload bytes). Optional. */
  apc?(payload: Uint8Array): void;
  pm?(payload: Uint8Array): void;
  /**
   * A string was dropped because it grew past its cap (not when it was
   * dropped for want of a handler, nor aborted by CAN/SUB), called when it
   * ends. `id` is the OSC's number, the DCS's final byte, or the string's
   * C1 code (0x98 SOS, 0x9e PM, 0x9f APC); `cap` the size it outgrew.
   */
  oversized?(kind: "osc" | "dcs" | "string", id: number, cap: number): void;
  sos?(payload: Uint8Array): void;
}
