/**
 * The window's title and name. `document.title` is the program's title
 * (OSC 0 / 2) when it set one, else "command — directory" (the session's
 * command from the server, the directory from OSC 7), with the progress
 * percentage in front while OSC 9 ; 4 shows one. The OSC 30 name goes on
 * the terminal root as the `window-name` attribute, for stylesheets.
 *
 * @module
 */
import type { ProgressState } from "./progress_bar.ts";

/** Shown when nothing better is known. */
export const DEFAULT_TITLE = "domterm";
/** Longest command text in the fallback title. */
const MAX_COMMAND = 60;

/** What the title is made of. */
export interface TitleSource {
  /** OSC 0 / 2 title ("" for none). */
  readonly title: string;
  /** OSC 7 URL ("" for none). */
  readonly cwd: string;
  /** OSC 30 name ("" for none). */
  readonly windowName: string;
}

/**
 * The path of an OSC 7 URL (`file://host/path`, `kitty-shell-cwd://...`),
 * percent-decoding undone; "" when it is not one.
 */
export function cwdPath(url: string): string {
  const m = /^[a-z-]+:\/\/[^/]*(\/.*)$/.exec(url);
  if (!m) return "";
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return m[1];
  }
}

/** "name args" of a command line: the program's base name and its arguments. */
export function commandText(command: readonly string[]): string {
  if (command.length === 0) return "";
  const name = command[0].slice(command[0].lastIndexOf("/") + 1);
  const text = [name, ...command.slice(1)].join(" ");
  return text.length > MAX_COMMAND
    ? text.slice(0, MAX_COMMAND - 1) + "\u2026"
    : text;
}

/**
 * The title for `src`: the program's, else "command — directory" (either
 * part may be missing), else {@link DEFAULT_TITLE}; "[40%] " in front
 * while a progress shows.
 */
export function composeTitle(
  src: TitleSource,
  command: readonly string[],
  progress: ProgressState,
): string {
  let base = src.title.trim();
  if (base === "") {
    const parts = [commandText(command), cwdPath(src.cwd)].filter((s) => s);
    base = parts.length > 0 ? parts.join(" \u2014 ") : DEFAULT_TITLE;
  }
  const mark = progress.state === 0
    ? ""
    : progress.state === 3
    ? "[\u2026] "
    : progress.state === 2
    ? `[${progress.percent}% error] `
    : progress.state === 4
    ? `[${progress.percent}% paused] `
    : `[${progress.percent}%] `;
  return mark + base;
}

/** Keeps `document.title` and the `window-name` attribute current. */
export class WindowTitle {
  #root: HTMLElement;
  #src: TitleSource;
  #command: readonly string[] = [];
  #progress: ProgressState = { state: 0, percent: 0 };

  constructor(root: HTMLElement, src: TitleSource) {
    this.#root = root;
    this.#src = src;
  }

  /**
   * The title follows another terminal from now on (the window's focused
   * pane): its element, title source and command line.
   */
  follow(root: HTMLElement, src: TitleSource, command: readonly string[]) {
    if (root !== this.#root) this.#root.removeAttribute("window-name");
    this.#root = root;
    this.#src = src;
    this.#command = command;
    this.update();
  }

  /** The session's command line (from the server's `ready`). */
  setCommand(command: readonly string[]): void {
    this.#command = command;
    this.update();
  }

  /** The progress now shown. */
  setProgress(p: ProgressState): void {
    this.#progress = p;
    this.update();
  }

  /** The title as it stands, without progress (for notifications). */
  plainTitle(): string {
    return composeTitle(this.#src, this.#command, { state: 0, percent: 0 });
  }

  /** Recompute after the title, directory or name changed (or a snapshot). */
  update(): void {
    const doc = this.#root.ownerDocument;
    const title = composeTitle(this.#src, this.#command, this.#progress);
    if (doc.title !== title) doc.title = title;
    const name = this.#src.windowName;
    if (name) this.#root.setAttribute("window-name", name);
    else this.#root.removeAttribute("window-name");
  }
}
