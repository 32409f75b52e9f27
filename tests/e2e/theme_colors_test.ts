/**
 * What programs are told (issue 32), in real Chromium: a program's
 * `OSC 11 ?` (and `OSC 10 ?`) is answered with the colours the window
 * shows, the dark theme's or the light one's (`prefers-color-scheme`, or
 * the `theme` setting), not the built-in d0d0d0 on black; the answer
 * follows the desktop's light/dark switch and the settings.
 */
import { assertEquals } from "../assert.ts";
import { startDomterm, waitForRow } from "./domterm.ts";
import type { Page } from "playwright-core";
import type { Inspected } from "../../client/inspect.ts";

/**
 * At once, then for each line of input: ask the terminal's background and foreground in
 * raw mode, read the answers, print them as `bg=... fg=...`.
 */
const ASKER = [
  "n=0",
  "while :; do",
  "  stty raw -echo",
  "  printf '\\033]11;?\\007'",
  "  IFS= read -r -d $'\\a' -t 5 bg",
  "  printf '\\033]10;?\\007'",
  "  IFS= read -r -d $'\\a' -t 5 fg",
  "  stty sane",
  '  echo "$n:bg=${bg##*;} fg=${fg##*;}"',
  "  IFS= read -r go || break",
  "  n=$((n+1))",
  "done",
].join("\n");

/** Wait until the page's own emulator has `background` as its default. */
async function pageBackground(page: Page, background: string): Promise<void> {
  await page.waitForFunction(
    (bg) =>
      (globalThis as unknown as Inspected).domtermInspect.term.defaultColors
        .background === bg,
    background,
    { timeout: 10_000 },
  );
}

/** Write `text` as an editor does: a new file renamed over the old one. */
function writeSettings(path: string, text: string): void {
  Deno.writeTextFileSync(`${path}.tmp`, text);
  Deno.renameSync(`${path}.tmp`, path);
}

Deno.test("e2e theme colours: OSC 11 / OSC 10 queries answer the theme the window shows, dark or light, and follow switches", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "domterm-theme-" });
  const settings = `${dir}/settings.toml`;
  writeSettings(settings, "");
  const run = await startDomterm(
    ["bash", "--norc", "--noprofile", "-c", ASKER],
    { env: { DOMTERM_SETTINGS: settings } },
  );
  const { page } = run;
  let n = 0;
  const ask = async (want: string) => {
    n++;
    await page.keyboard.type("go");
    await page.keyboard.press("Enter");
    await waitForRow(page, `${n}:${want}`);
  };
  try {
    // The program asked at once: the colours of the window's hello.
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll("#terminal .dt-row")).some((r) =>
          /^0:bg=/.test(r.textContent ?? "")
        ),
      undefined,
      { timeout: 10_000 },
    );
    const first = await page.evaluate(() => {
      const { term } = (globalThis as unknown as Inspected).domtermInspect;
      const bg = term.defaultColors.background.slice(1);
      const rows = Array.from(document.querySelectorAll("#terminal .dt-row"));
      return {
        want: `0:bg=rgb:${bg.replace(/(..)/g, "$1$1/").slice(0, -1)}`,
        got: rows.map((r) => r.textContent ?? "").find((t) =>
          t.startsWith("0:")
        )!.replace(/ fg=.*/, ""),
      };
    });
    assertEquals(first.got, first.want);
    await page.emulateMedia({ colorScheme: "dark" });
    await page.locator("#terminal").click();
    // domterm.css: the dark theme is #d5d9e0 on #1c1f26.
    await pageBackground(page, "#1c1f26");
    await ask("bg=rgb:1c1c/1f1f/2626 fg=rgb:d5d5/d9d9/e0e0");
    // The desktop goes light: #2f333b on #fbfbfa.
    await page.emulateMedia({ colorScheme: "light" });
    await pageBackground(page, "#fbfbfa");
    await ask("bg=rgb:fbfb/fbfb/fafa fg=rgb:2f2f/3333/3b3b");
    // The theme setting wins over the desktop; a colour setting over both.
    writeSettings(
      settings,
      'theme = "dark"\n[colors]\nforeground = "rgb(1, 2, 3)"\n',
    );
    await pageBackground(page, "#1c1f26");
    assertEquals(
      await page.evaluate(() =>
        (globalThis as unknown as Inspected).domtermInspect.term.defaultColors
          .foreground
      ),
      "#010203",
    );
    await ask("bg=rgb:1c1c/1f1f/2626 fg=rgb:0101/0202/0303");
  } finally {
    await run.close();
    Deno.removeSync(dir, { recursive: true });
  }
});
