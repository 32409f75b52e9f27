/**
 * Open a window on a URL with the browser the options name, or print the
 * URL: what both the server (server/cli/serve.ts) and a `domterm` that
 * hands off to a running server (server/cli.ts) do last.
 *
 * @module
 */
import { chooseBrowser, openBrowser } from "../browser.ts";

/** What {@link openWindow} needs of the command line. */
export interface WindowOptions {
  noBrowser: boolean;
  browser: string | undefined;
}

/** A browser that fails later than this has shown its window. */
const BROWSER_FAILURE_WINDOW_MS = 10_000;

/**
 * Open a window on `url` with the browser the options name, or print the
 * URL (--no-browser, or when no browser can be started). Returns the
 * launcher file to remove once the window has connected, if any.
 */
export async function openWindow(
  url: string,
  opts: WindowOptions,
): Promise<string | null> {
  if (opts.noBrowser) {
    console.log(url);
    return null;
  }
  try {
    const choice = chooseBrowser(opts.browser);
    const opened = performance.now();
    return await openBrowser(url, choice, {
      // A browser that cannot show a window (no display, say) exits at once
      // with an error: say so rather than wait for a window in silence.
      onFailure: (s) => {
        if (performance.now() - opened > BROWSER_FAILURE_WINDOW_MS) return;
        console.error(
          `domterm: ${choice.path} exited with ${
            s.signal ? `signal ${s.signal}` : `status ${s.code}`
          } before showing a window${
            Deno.build.os === "linux" && !Deno.env.get("DISPLAY") &&
              !Deno.env.get("WAYLAND_DISPLAY")
              ? " (no DISPLAY or WAYLAND_DISPLAY is set)"
              : ""
          }; open this URL yourself (it contains the server key), or use --no-browser:`,
        );
        console.log(url);
      },
    });
  } catch (e) {
    console.error(`domterm: ${(e as Error).message}`);
    console.error(
      "domterm: open this URL yourself (it contains the server key):",
    );
    console.log(url);
    return null;
  }
}
