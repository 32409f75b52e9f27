/**
 * What a tab says: the name the user gave it, else the program's title
 * (OSC 0 / 2), else its command and directory (client/window_title.ts's
 * `composeTitle`); and marks in front of it for what the user may want to
 * look at: output came while the tab was not shown, the bell rang there,
 * a progress (OSC 9 ; 4) shows, the last command failed. Marks that ask
 * for a look (activity, bell) go when the tab is shown.
 *
 * No DOM here.
 *
 * @module
 */
import type { ProgressState } from "../progress_bar.ts";
import { composeTitle, type TitleSource } from "../window_title.ts";

/** A tab's text and marks. */
export interface TabLabel {
  title: string;
  /** Short marks shown before the title. */
  marks: string[];
  /** What each mark means, for the tooltip. */
  why: string[];
}

/** What a pane has to show in its tab besides its title. */
export class PaneMarks {
  /** Output came while the pane was not shown. */
  activity = false;
  /** The bell rang while the pane was not shown or not focused. */
  bell = false;
  /** The last command's exit status was not 0 (shell integration). */
  failed = false;
  progress: ProgressState = { state: 0, percent: 0 };

  /** The pane was shown: what asked for a look has been seen. */
  seen(): void {
    this.activity = false;
    this.bell = false;
  }
}

/** The label of a pane named `name` (null: none) showing `src`. */
export function tabLabel(
  name: string | null,
  src: TitleSource,
  command: readonly string[],
  marks: PaneMarks,
): TabLabel {
  const out: TabLabel = {
    title: name ?? composeTitle(src, command, { state: 0, percent: 0 }),
    marks: [],
    why: [],
  };
  const add = (mark: string, why: string) => {
    out.marks.push(mark);
    out.why.push(why);
  };
  const p = marks.progress;
  if (p.state === 3) add("\u2026 ", "busy");
  else if (p.state !== 0) {
    const what = p.state === 2 ? "error" : p.state === 4 ? "paused" : "";
    add(`${p.percent}%${what ? " " + what : ""} `, `progress ${p.percent}%`);
  }
  if (marks.bell) add("\u{1f514}", "bell");
  if (marks.activity) add("\u25cf", "new output");
  if (marks.failed) add("\u2717", "last command failed");
  return out;
}

/** The tab's text. */
export function tabText(label: TabLabel): string {
  return label.title;
}
