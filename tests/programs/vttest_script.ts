/**
 * The vttest walks shared by the golden generator
 * (`scripts/vttest_goldens.ts`, which runs them in tmux) and the test
 * (`tests/programs/vttest_test.ts`, which runs them in our emulator).
 *
 * vttest runs as `vttest 24x80.80` (the man page's advice for a terminal
 * that does not switch to 132 columns): the "132 column" passes are then
 * drawn in 80 columns too.
 *
 * @module
 */

/** One step: send `keys`, then the screen must equal golden `name`. */
export interface VttestStep {
  keys: string;
  /** File name (without .txt) of the golden screen in the walk's folder. */
  name: string;
  /**
   * Where the golden comes from: "tmux" (default: tmux draws the same
   * program, an independent emulator), or "domterm" for screens that show
   * the terminal's own identity (DA replies), which tmux answers
   * differently; those goldens are made by our emulator and checked by hand
   * against core/emulator/replies.ts.
   */
  reference?: "tmux" | "domterm";
  /** Why the golden is not tmux's (required with reference "domterm"). */
  why?: string;
  /**
   * Keys for the tmux run when they differ (vttest adapts its menus to the
   * terminal's DA answer); null: tmux skips this step.
   */
  tmuxKeys?: string | null;
}

/** One vttest session: a list of steps from the main menu. */
export interface VttestWalk {
  /** Folder under tests/fixtures/programs/vttest/. */
  name: string;
  steps: VttestStep[];
}

/** The command line used for both the goldens and the test. */
export const VTTEST_ARGS = ["24x80.80"];

const RET = "\r";

/** Steps that press RETURN `n` times, naming the screens prefix-1..n. */
function returns(prefix: string, n: number): VttestStep[] {
  return Array.from({ length: n }, (_, i) => ({
    keys: RET,
    name: `${prefix}-${String(i + 1).padStart(2, "0")}`,
  }));
}

/** Mark a step whose golden is ours because tmux draws it wrongly. */
function ours(step: VttestStep, why: string): VttestStep {
  return { ...step, reference: "domterm", why };
}

const AUTOWRAP_WHY =
  "tmux leaves the DECOM/DECSTBM autowrap demo out of order; vttest's source " +
  "(tst_movements) expects the pairs I/i .. Z/z on both margins, as we draw";

const VT220_MENU_WHY =
  "tmux answers DA as a VT100, so vttest goes straight to the VT100 " +
  "character sets there; we answer as a VT500 and get the VT220 menu";

const DA_WHY = "the report shows the terminal's own DA answer " +
  "(core/emulator/replies.ts), which tmux answers as tmux";

const NO_TMUX_WHY = "tmux does not implement this control (CHT/HPR/VPR); " +
  "the golden is ours, checked against the pattern vttest describes";

const NO_TMUX_SLSR_WHY = "tmux has no SL/SR (CSI Ps SP @ / A); vttest " +
  "wants a vertical column of *'s in the middle, as we draw";

const DECSCA_WHY = "tmux has no DECSCA protected areas; vttest wants a " +
  "solid box of *'s in the middle, as we draw";

const DOUBLE_SIZE_WHY = "tmux has no DEC double-size lines (ESC # 3/4/6) and " +
  "keeps 80 characters on them; a double-width line holds 40, so text past " +
  "column 40 wraps (autowrap), as on a VT100; the line sizes are checked too";

const DECREQTPARM_WHY = "tmux does not answer DECREQTPARM; vttest marks " +
  "xterm's answer (no parity, 8 bits, 38400 baud) OK, as it shows";

const VT52_WHY = "tmux has no VT52 mode (DECANM); the screens are ours, " +
  "checked against what vttest asks for: the box of *'s with !'s inside, " +
  "both character sets, ESC Z answered ESC / Z, and after ESC < a VT100 " +
  "(no DECSCL query answer, S8C1T ignored), as xterm";

/** Choose item `item` of the current menu; the next screen is `name`. */
function choose(item: string, name: string): VttestStep {
  return { keys: item + RET, name };
}

/** Every walk: the vttest menus 1, 2, 3, 6, 8 and 11 (parts). */
export const VTTEST_WALKS: VttestWalk[] = [
  {
    // Cursor movements: border frames, autowrap, controls inside sequences.
    name: "menu1",
    steps: [
      choose("1", "01-border"),
      { keys: RET, name: "02-border-wide" },
      ours({ keys: RET, name: "03-autowrap" }, AUTOWRAP_WHY),
      ours({ keys: RET, name: "04-autowrap-wide" }, AUTOWRAP_WHY),
      { keys: RET, name: "05-controls-in-sequences" },
      { keys: RET, name: "06-leading-zeros" },
      { keys: RET, name: "07-main" },
    ],
  },
  {
    // Screen features: tab stops, scrolling regions, origin mode, SGR,
    // save/restore cursor.
    name: "menu2",
    steps: [
      choose("2", "01"),
      ...returns("02", 9),
      ours(
        { keys: RET, name: "02-10" },
        "tmux draws the origin-mode line at the top; vttest says (and DECSTBM " +
          "with DECOM set homes to the region) it belongs at the bottom",
      ),
      ...returns("02", 15).slice(10),
    ],
  },
  {
    // Character sets: the DEC special graphics and UK sets.
    name: "menu3",
    steps: [
      { ...ours(choose("3", "00-menu"), VT220_MENU_WHY), tmuxKeys: null },
      {
        ...ours(
          choose("8", "01-special-graphics"),
          "tmux has no UK set (ESC ( A: '#' is a pound sign) and no blank " +
            "for 0x5f in DEC graphics; both as in the VT100 manual",
        ),
        tmuxKeys: "3" + RET,
      },
      { ...ours(choose("", "02-menu"), VT220_MENU_WHY), tmuxKeys: null },
      { ...choose("0", "03-main"), tmuxKeys: RET },
    ],
  },
  {
    // Terminal reports: answers are checked by vttest itself.
    name: "menu6",
    steps: [
      choose("6", "00-menu"),
      ours(
        choose("3", "01-dsr"),
        "tmux ignores origin mode in CPR; vttest marks our answer OK",
      ),
      choose("", "02-menu"),
      ours(choose("4", "03-da1"), DA_WHY),
      choose("", "04-menu"),
      ours(choose("5", "05-da2"), DA_WHY),
      choose("", "06-menu"),
      choose("0", "07-main"),
    ],
  },
  {
    // Terminal reports that need keys: the answerback (none, as xterm's
    // default), LNM (RETURN sends CR LF, then CR) and DECREQTPARM.
    name: "menu6-keys",
    steps: [
      choose("6", "00-menu"),
      choose("1", "01-answerback"),
      choose("", "02-answerback-return"),
      choose("", "03-menu"),
      {
        ...ours(choose("7", "04-decreqtparm"), DECREQTPARM_WHY),
        tmuxKeys: null,
      },
      { ...ours(choose("", "05-menu"), DECREQTPARM_WHY), tmuxKeys: null },
      choose("2", "06-lnm-set"),
      // Our key encoder sends CR LF for RETURN in LNM, as xterm.
      { keys: "\r\n", name: "07-lnm-reset" },
      choose("", "08-lnm-done"),
      choose("", "09-menu"),
      choose("0", "10-main"),
    ],
  },
  {
    // VT102 insert/delete character and line.
    name: "menu8",
    steps: [
      choose("8", "01"),
      ...returns("02", 14),
    ],
  },
  {
    // Non-VT100: ISO 6429 cursor movement, SD, SU, SL and SR. (REP is left out:
    // vttest wants REP after REP ignored, xterm repeats again, as we do.)
    name: "menu11",
    steps: [
      choose("11", "00-menu"),
      choose("5", "01-cursor-menu"),
      choose("1", "02-hpa"),
      choose("", "03-cursor-menu"),
      choose("2", "04-cbt"),
      choose("", "05-cursor-menu"),
      choose("3", "06-cha"),
      choose("", "07-cursor-menu"),
      ours(choose("4", "08-cht"), NO_TMUX_WHY),
      choose("", "09-cursor-menu"),
      ours(choose("5", "10-hpr"), NO_TMUX_WHY),
      choose("", "11-cursor-menu"),
      choose("6", "12-vpa"),
      choose("", "13-cursor-menu"),
      choose("7", "14-cnl"),
      choose("", "15-cursor-menu"),
      choose("8", "16-cpl"),
      choose("", "17-cursor-menu"),
      ours(choose("9", "18-vpr"), NO_TMUX_WHY),
      choose("", "19-cursor-menu"),
      choose("0", "20-menu"),
      choose("7", "21-misc-menu"),
      choose("3", "24-sd"),
      choose("", "25-misc-menu"),
      choose("6", "26-su"),
      choose("", "27-misc-menu"),
      ours(choose("4", "28-sl"), NO_TMUX_SLSR_WHY),
      choose("", "29-misc-menu"),
      ours(choose("5", "30-sr"), NO_TMUX_SLSR_WHY),
      choose("", "31-misc-menu"),
      choose("0", "32-menu"),
      choose("0", "33-main"),
    ],
  },
  {
    // VT220 screen display: ECH and the DECSCA protected areas.
    name: "menu11-vt220",
    steps: [
      choose("11", "00-menu"),
      choose("1", "01-vt220-menu"),
      choose("2", "02-display-menu"),
      choose("3", "03-ech"),
      choose("", "04-display-menu"),
      ours(choose("4", "05-decsca-ed"), DECSCA_WHY),
      choose("", "06-decsca-el"),
      ours(choose("", "07-decsca-ech"), DECSCA_WHY),
      choose("", "08-display-menu"),
      choose("0", "09-vt220-menu"),
      choose("0", "10-menu"),
      choose("0", "11-main"),
    ],
  },
  {
    // Double-sized characters: DECDWL, DECDHL top and bottom, DECSWL.
    name: "menu4",
    steps: [
      ours(choose("4", "01-left"), DOUBLE_SIZE_WHY),
      ours(choose("", "02-left-swl"), DOUBLE_SIZE_WHY),
      ours(choose("", "03-centred"), DOUBLE_SIZE_WHY),
      ours(choose("", "04-centred-swl"), DOUBLE_SIZE_WHY),
      ours(choose("", "05-frame"), DOUBLE_SIZE_WHY),
      ours(choose("", "06-half-box"), DOUBLE_SIZE_WHY),
      choose("", "07-main"),
    ],
  },
  {
    // VT52 mode (DECANM): cursor addressing, graphics, identify, and the
    // operating level after ESC <. tmux stays in the main menu.
    name: "menu7",
    steps: [
      { ...ours(choose("7", "01-box"), VT52_WHY), tmuxKeys: null },
      { ...ours({ keys: RET, name: "02-charsets" }, VT52_WHY), tmuxKeys: null },
      { ...ours({ keys: RET, name: "03-identify" }, VT52_WHY), tmuxKeys: null },
      { ...ours({ keys: RET, name: "04-levels" }, VT52_WHY), tmuxKeys: null },
      { ...ours({ keys: RET, name: "05-main" }, VT52_WHY), tmuxKeys: null },
    ],
  },
  {
    // ISO 6429 colours: erasing with the background colour (BCE).
    name: "menu11-bce",
    steps: [
      choose("11", "00-menu"),
      choose("6", "01-colors-menu"),
      choose("4", "02-bce-blue"),
      choose("", "03-bce-black"),
      choose("", "04-colors-menu"),
      choose("0", "05-menu"),
      choose("0", "06-main"),
    ],
  },
];
