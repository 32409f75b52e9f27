/**
 * What every sequence handler receives: the terminal's state plus the few
 * things only the wiring in `terminal.ts` can do (send a reply, report an
 * event, print through the fast path). Handlers are plain functions of an
 * {@link Emulator}, grouped by what they do (cursor.ts, erase.ts,
 * scroll.ts, mode_table.ts, reports.ts, ...); `sequences.ts` maps each
 * sequence to one of them.
 *
 * @module
 */
import type { Line } from "../model/line.ts";
import type { TerminalEvent } from "../terminal_view.ts";
import type { HtmlEmbeds } from "./html_embed.ts";
import type { OscHost } from "./osc.ts";
import type { PrettyHost } from "./pretty_print.ts";
import type { TerminalState } from "./state.ts";

/** What the shell-mark handlers act on (implemented by the emulator). */
export interface ShellMarksHost {
  /** The line the cursor is on. */
  cursorLine(): Line;
  /** Screen lines below the cursor's line. */
  linesBelowCursor(): Line[];
  /** Cursor column. */
  cursorX(): number;
  /** Newline unless the cursor is at the start of a line. */
  freshLine(): void;
  /** Error (stderr) output on or off (`CSI 12 u` / `CSI 11 u`). */
  setErrorOutput(on: boolean): void;
  /** Called after a mark was added (the change feed). */
  marksChanged(): void;
}

/** The terminal as its handlers see it. */
export interface Emulator extends OscHost {
  /** All of the terminal's state. */
  readonly s: TerminalState;
  /** Report an event to the embedder (listener errors are swallowed). */
  emit(e: TerminalEvent): void;
  /** Send a reply to the program (listener errors are swallowed). */
  send(data: string): void;
  /** Print one (already translated) character of any width. */
  printChar(cp: number): void;
  /** Print `codes[start..end)` as the parser would (charsets, insert mode...). */
  print(codes: Uint32Array, start: number, end: number): void;
  /** Change the size (`Terminal.resize`: reflow, margins reset). */
  resize(cols: number, rows: number): void;
  /** RIS (VT52 mode ends too). */
  fullReset(): void;
  /** Enter or leave VT52 mode: the mode flag and the parser's (see `vt52.ts`). */
  setVt52(on: boolean): void;
  /** OSC 72 / 721 and image blocks. */
  readonly embeds: HtmlEmbeds;
  /** What the shell-integration handlers act on. */
  readonly marks: ShellMarksHost;
  /** What the pretty-printing handlers act on. */
  readonly pretty: PrettyHost;
  /** True while handling an OSC that BEL ended (its replies end with BEL too). */
  oscBel: boolean;
  /** Whether XTWINOPS 20/21 report the titles (`Terminal.setTitleReports`). */
  titleReports: boolean;
}
