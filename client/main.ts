/**
 * The page's entry: reads what to show (client/launch.ts), builds the
 * window (client/window.ts), whose panes come with the layout the server
 * sends, and once the first is drawn, its inspector for tests
 * (client/inspect.ts).
 *
 * @module
 */
import { installInspector } from "./inspect.ts";
import { readLaunch } from "./launch.ts";
import { startupMark } from "./startup_marks.ts";
import { DomtermWindow } from "./window.ts";

async function start(): Promise<void> {
  startupMark("script");
  void document.fonts?.ready.then(() => startupMark("fonts"));
  const launch = await readLaunch();
  startupMark("launch");
  const win = new DomtermWindow(document, launch);
  startupMark("window");
  win.onFirstLayout = () => installInspector(win);
}

void start();
