/**
 * The emulator's state as one typed value: everything that decides how
 * future input is handled lives in a {@link TerminalState}. Handlers read
 * and change it; `core/serialize/snapshot.ts` writes it out and reads it
 * back.
 *
 * The cursor position and the pen are shared by both screens, as in xterm
 * (switching with `?47` keeps the cursor where it is); each screen has its
 * own buffer and saved cursor (DECSC), and the kitty keyboard keeps a stack
 * per screen.
 *
 * @module
 */
import type { Progress } from "./osc.ts";
import { newNotifyState, type NotifyState } from "./notify_state.ts";
import { Buffer } from "../model/buffer.ts";
import type { Line } from "../model/line.ts";
import type { ImageEmbed } from "../model/line_extras.ts";
import type { CursorStyle } from "../terminal_view.ts";
import { CharsetState } from "./charsets.ts";
import { ColorOverrides } from "./colors.ts";
import { ExtTable } from "./ext_table.ts";
import { KittyKeyboard } from "./kitty_keyboard_state.ts";
import { Modes } from "./modes.ts";
import type { PrettyDocument } from "./pretty_print.ts";
import { defaultPen, type Pen } from "./sgr.ts";
import { TabStops } from "./tab_stops.ts";

/** Cursor state saved by DECSC (and ?1048, ?1049, SCOSC). */
export interface SavedCursor {
  x: number;
  y: number;
  wrapPending: boolean;
  pen: Pen;
  link: string | null;
  linkId: string;
  origin: boolean;
  charsets: CharsetState;
}

/** One entry of the title stack (`CSI 22 t`); null: that title was not pushed. */
export interface TitleEntry {
  icon: string | null;
  title: string | null;
}

/** One screen: the normal one (with history) or the alternate one. */
export interface ScreenState {
  buffer: Buffer;
  /** What DECSC saved on this screen, or null. */
  saved: SavedCursor | null;
}

/** Where an OSC 72 replace-key was inserted (a hint, checked before use). */
export interface KeyPlace {
  /** Absolute line number (`Buffer.trimmed + index`). */
  abs: number;
  line: Line;
}

/** What the HTML and image embeds keep between sequences (`html_embed.ts`). */
export interface EmbedState {
  /** replace-key -> where it was inserted. */
  index: Map<string, KeyPlace>;
  /** Images with data, oldest first (the memory cap drops from the front). */
  images: ImageEmbed[];
  /** Characters of image data in {@link EmbedState.images}. */
  imageMemory: number;
  /** HTML kept, as last counted plus what came since (an upper bound). */
  htmlMemory: number;
  /**
   * The element-event generation (`element_events.ts`): bumped each time
   * the mode ?7101 goes off; fragments printed with the mode on carry the
   * one they were printed in.
   */
  eventsGen: number;
}

/** Everything that determines the emulator's future behaviour. */
export interface TerminalState {
  cols: number;
  rows: number;
  normal: ScreenState;
  alt: ScreenState;
  /** The active screen: {@link TerminalState.normal} or {@link TerminalState.alt}. */
  screen: ScreenState;
  /** `screen.buffer`, kept beside it for the print path. */
  buf: Buffer;

  /** Cursor column and row on the screen, 0-based. */
  x: number;
  y: number;
  /** xterm's "last column flag": the next printable wraps first. */
  wrapPending: boolean;

  /** SGR rendition. */
  pen: Pen;
  /** The ATTR word written into cells: pen flags | error output | ext id << 16. */
  attr: number;
  /** OSC 8 hyperlink being printed, or null. */
  link: string | null;
  linkId: string;
  /** A_ERROR while DomTerm's error output (`CSI 12 u`) is on, else 0. */
  errorOutput: number;
  /** Underline colours and links of cells (ids in the ATTR word). */
  ext: ExtTable;

  /** Scroll region (DECSTBM), 0-based inclusive rows. */
  top: number;
  bottom: number;
  /** Left and right margins (DECSLRM), 0-based inclusive columns. */
  left: number;
  right: number;

  modes: Modes;
  charsets: CharsetState;
  /** VT52 mode: the character sets to restore when it ends (null outside the mode). */
  vt52Charsets: CharsetState | null;
  tabs: TabStops;
  colors: ColorOverrides;
  cursorStyle: CursorStyle;
  title: string;
  iconTitle: string;
  /** OSC 7 directory URL. */
  cwd: string;
  /** OSC 30 window name ("" for none). */
  windowName: string;
  /** OSC 9 ; 4 progress (state 0: none). */
  progress: Progress;
  /** kitty notifications being assembled (not in snapshots). */
  notify: NotifyState;
  titleStack: TitleEntry[];
  kitty: KittyKeyboard;
  /** XTSAVE'd DEC private modes. */
  savedModes: Map<number, boolean>;

  /** The last printed character, for REP. */
  lastChar: number;
  /** The previous printable was a ZWJ: the next one joins its cluster. */
  joinNext: boolean;
  /** DECSACE: DECCARA / DECRARA act on a rectangle (true) or a stream. */
  rectExtent: boolean;
  /** Cell size in pixels, for the `CSI 14/16 t` reports. */
  cellWidth: number;
  cellHeight: number;
  /** Counts shell-integration marks added. */
  marksVersion: number;
  /** DomTerm pretty-printing (OSC 110-118): the document being collected. */
  pretty: PrettyDocument | null;
  embeds: EmbedState;
}

/** What DECSTR and RIS leave saved: home with the default rendition. */
export function homeCursor(): SavedCursor {
  return {
    x: 0,
    y: 0,
    wrapPending: false,
    pen: defaultPen(),
    link: null,
    linkId: "",
    origin: false,
    charsets: new CharsetState(),
  };
}

/** The power-on state of a `cols` x `rows` terminal. */
export function initialState(
  cols: number,
  rows: number,
  scrollback: number,
): TerminalState {
  const normal: ScreenState = {
    buffer: new Buffer(cols, rows, scrollback, false),
    saved: null,
  };
  const alt: ScreenState = {
    buffer: new Buffer(cols, rows, 0, true),
    saved: null,
  };
  return {
    cols,
    rows,
    normal,
    alt,
    screen: normal,
    buf: normal.buffer,
    x: 0,
    y: 0,
    wrapPending: false,
    pen: defaultPen(),
    attr: 0,
    link: null,
    linkId: "",
    errorOutput: 0,
    ext: new ExtTable(),
    top: 0,
    bottom: rows - 1,
    left: 0,
    right: cols - 1,
    modes: new Modes(),
    charsets: new CharsetState(),
    vt52Charsets: null,
    tabs: new TabStops(cols),
    colors: new ColorOverrides(),
    cursorStyle: "block",
    title: "",
    iconTitle: "",
    cwd: "",
    windowName: "",
    progress: { state: 0, percent: 0 },
    notify: newNotifyState(),
    titleStack: [],
    kitty: new KittyKeyboard(),
    savedModes: new Map(),
    lastChar: 0,
    joinNext: false,
    rectExtent: false,
    cellWidth: 8,
    cellHeight: 16,
    marksVersion: 0,
    pretty: null,
    embeds: {
      index: new Map(),
      images: [],
      imageMemory: 0,
      htmlMemory: 0,
      eventsGen: 0,
    },
  };
}

/** Make `screen` the active one. */
export function activate(s: TerminalState, screen: ScreenState): void {
  s.screen = screen;
  s.buf = screen.buffer;
}
