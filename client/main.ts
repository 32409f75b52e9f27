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
import { DomtermWindow } from "./window.ts";

async function start(): Promise<void> {
  const win = new DomtermWindow(document, await readLaunch());
  win.onFirstLayout = () => installInspector(win);
}

void start();
