/**
 * The window-level UI the emulator's events drive: the title and the
 * `window-name` attribute ({@link WindowTitle}), the progress bar
 * ({@link ProgressBar}) and desktop notifications ({@link Notifier}). One
 * `handle` for the page's event callback, so `main.ts` stays small.
 *
 * @module
 */
import type { ProgressState } from "./progress_bar.ts";
import type { TerminalEvent } from "../core/terminal_view.ts";
import { type NotificationApi, Notifier } from "./notifier.ts";
import { ProgressBar } from "./progress_bar.ts";
import { type TitleSource, WindowTitle } from "./window_title.ts";

/** What the title and progress follow: a terminal (or nothing yet). */
export type UiSource = TitleSource & { readonly progress: ProgressState };

/** The window UI of one page. */
export interface WindowUi {
  readonly notifier: Notifier;
  readonly progress: ProgressBar;
  readonly title: WindowTitle;
  /** Handle `e` if it is one of ours; false for every other event. */
  handle(e: TerminalEvent): boolean;
  /** The session's command line (from `ready`). */
  setCommand(command: readonly string[]): void;
  /** After a snapshot was loaded: title, name and progress from the new state. */
  reset(): void;
  /**
   * Follow another terminal (the window's focused pane): its title,
   * command line and progress from now on.
   */
  follow(root: HTMLElement, term: UiSource, command: readonly string[]): void;
}

/** Whether the user is looking at this window. */
function pageFocused(): boolean {
  return document.visibilityState === "visible" && document.hasFocus();
}

/** localStorage, or undefined where the browser blocks it (it throws). */
function localStore(): Storage | undefined {
  let store: Storage | undefined;
  try {
    store = globalThis.localStorage;
  } catch {
    store = undefined;
  }
  return store;
}

/** Set up the title, progress bar and notifier for `root` showing `term`. */
export function installWindowUi(root: HTMLElement, term: UiSource): WindowUi {
  let shown = term;
  const title = new WindowTitle(root, term);
  const progress = new ProgressBar(root);
  progress.onChange = (p) => title.setProgress(p);
  const notifier = new Notifier({
    api: () => (globalThis as { Notification?: NotificationApi }).Notification,
    focused: pageFocused,
    now: () => performance.now(),
    storage: localStore,
    fallbackTitle: () => title.plainTitle(),
    focusWindow: () => globalThis.focus(),
  });
  title.update();
  return {
    notifier,
    progress,
    title,
    handle(e) {
      switch (e.type) {
        case "title":
        case "cwd":
        case "window-name":
          title.update();
          return true;
        case "progress":
          progress.set(e.state, e.percent);
          return true;
        case "notify":
          notifier.notify(e.title, e.body, e.id ? `osc99-${e.id}` : undefined);
          return true;
        case "command":
          if (e.phase === "start") notifier.commandStarted();
          else notifier.commandEnded(e.exit);
          return true;
      }
      return false;
    },
    setCommand: (command) => title.setCommand(command),
    follow: (root, term, command) => {
      shown = term;
      progress.moveTo(root);
      title.follow(root, term, command);
      const p = term.progress;
      progress.set(p.state, p.percent);
    },
    reset: () => {
      const p = shown.progress;
      progress.set(p.state, p.percent); // updates the title too
      title.update();
    },
  };
}
