/**
 * A sample of the xterm replies through the product as shipped (server,
 * bash on a PTY, Chromium): a colour set and queried, DECRQM, DECRQSS, a
 * title report and DECCOLM, which the window honours within its size.
 * The session's emulator answers; the page must agree with it (DECCOLM's
 * width is the page's doing).
 */
import { assertEquals } from "../assert.ts";
import { startDomterm, waitForRow } from "./domterm.ts";
import type { Inspected } from "../../client/inspect.ts";

const BASH = ["bash", "--norc", "--noprofile", "-i"];

/**
 * `q NAME QUERY END [SECONDS]`: send QUERY, read the reply up to END (for
 * at most SECONDS, 30 if not given), print it with ESC as "E". A reply
 * ends the read as soon as it comes, so the long default costs nothing
 * when the terminal answers; only a query that must go unanswered gives a
 * short time (and then waits all of it).
 */
const HELPER = `q() { printf "$2"; IFS= read -rs -d "$3" -t "\${4:-30}" r;` +
  ` r="\${r//$'\\e'/E}"; printf '%s %s%s\\n' "$1" "$r" "$3"; }\n`;

Deno.test("e2e: xterm replies through the real window", async () => {
  const dir = await Deno.makeTempDir();
  const helper = `${dir}/q.sh`;
  await Deno.writeTextFile(helper, HELPER);
  const t = await startDomterm(BASH, {
    env: { PS1: "$ ", HOME: dir, INPUTRC: "/dev/null" },
    viewport: { width: 1500, height: 480 },
  });
  const run = async (line: string) => {
    await t.page.keyboard.type(line);
    await t.page.keyboard.press("Enter");
  };
  try {
    await waitForRow(t.page, "$");
    await run(`. ${helper}; clear`);
    await run(`q C '\\e]11;rgb:12/34/56\\e\\\\\\e]11;?\\e\\\\' '\\'`);
    await waitForRow(t.page, "C E]11;rgb:1212/3434/5656E\\");
    await run(`q M '\\e[?2004l\\e[?2004$p' y`);
    await waitForRow(t.page, "M E[?2004;2$y");
    await run(
      `q S '\\e7\\e[3;10r\\e8\\eP$qr\\e\\\\' '\\'; printf '\\e7\\e[r\\e8'`,
    );
    await waitForRow(t.page, "S EP1$r3;10rE\\");
    await run(`q T '\\e]2;e2e title\\a\\e[21t' '\\'`);
    await waitForRow(t.page, "T E]le2e titleE\\");
    assertEquals(await t.page.title(), "e2e title");
    // DECCOLM: 132 columns fit in 1500 px; the program sees them.
    // The PTY takes the new width a moment after the request (the server
    // settles sizes for 120 ms): the shell asks until stty sees the
    // columns, rather than sleeping half a second (not always enough on a
    // loaded machine); the rows must then be the window's.
    await run(`printf '\\e[?40h\\e[?3h'; ${untilCols(132)}`);
    await waitForRow(t.page, `size ${await rowsNow()} 132`, 20_000);
    await run(`q K '\\e[?3$p' y`);
    await waitForRow(t.page, "K E[?3;1$y");
    await run(`printf '\\e[?3l'; ${untilCols(80)}`);
    await waitForRow(t.page, `size ${await rowsNow()} 80`, 20_000);
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }

  /** Shell: wait until the PTY is `cols` wide, then print its size. */
  function untilCols(cols: number): string {
    return `until s=$(stty size); [ "\${s#* }" = ${cols} ]; do sleep 0.1; done;` +
      ` echo "size $s"`;
  }

  async function rowsNow(): Promise<string> {
    return String(
      await t.page.evaluate(() =>
        (globalThis as unknown as Inspected)
          .domtermInspect.term.rows
      ),
    );
  }
});

Deno.test("e2e: VT52 mode: the window's keys and the reply", async () => {
  const dir = await Deno.makeTempDir();
  const t = await startDomterm(BASH, {
    env: { PS1: "$ ", HOME: dir, INPUTRC: "/dev/null" },
  });
  const run = async (line: string) => {
    await t.page.keyboard.type(line);
    await t.page.keyboard.press("Enter");
  };
  try {
    await waitForRow(t.page, "$");
    // In VT52 mode: ESC Y places "vt52" on row 6 (0-based 5), column 4;
    // then the keys typed are read raw (ArrowUp and F1 must come as VT52's
    // ESC A and ESC P), and ESC Z's answer; ESC < goes back to ANSI mode.
    await run(
      `printf '\\e[?2l\\eY%%#vt52'; IFS= read -rs -n 4 -t 20 k;` +
        ` printf '\\eZ'; IFS= read -rs -n 3 -t 5 z; printf '\\e<';` +
        ` echo "K \${k//$'\\e'/E} Z \${z//$'\\e'/E}"`,
    );
    await waitForRow(t.page, "   vt52");
    await t.page.keyboard.press("ArrowUp");
    await t.page.keyboard.press("F1");
    // (The answer follows "vt52" on its row: no newline was printed.)
    await waitForRow(t.page, "   vt52K EAEP Z E/Z");
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("e2e: OSC 52 read: ask (Allow, Deny), always, never", async () => {
  const dir = await Deno.makeTempDir();
  const helper = `${dir}/q.sh`;
  await Deno.writeTextFile(helper, HELPER);
  const t = await startDomterm(BASH, {
    env: { PS1: "$ ", HOME: dir, INPUTRC: "/dev/null" },
  });
  const page = t.page;
  const run = async (line: string) => {
    await page.keyboard.type(line);
    await page.keyboard.press("Enter");
  };
  const policy = (p: "ask" | "always" | "never") =>
    page.evaluate(
      (p) =>
        (globalThis as unknown as Inspected).domtermInspect.setClipboardRead(p),
      p,
    );
  const QUERY = `'\\e]52;c;?\\e\\\\' '\\'`;
  try {
    await page.context().grantPermissions(
      ["clipboard-read", "clipboard-write"],
      { origin: new URL(page.url()).origin },
    );
    await waitForRow(page, "$");
    await page.evaluate(() => navigator.clipboard.writeText("héllo 52"));
    await run(`. ${helper}; clear`);
    // ask (the default): a bar in the window; Allow answers.
    await run(`q A ${QUERY}`);
    const bar = page.locator(".dt-clipboard-ask");
    await bar.waitFor({ state: "visible" });
    for (const scheme of ["dark", "light"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: `${dir}/ask-${scheme}.png` });
    }
    await page.emulateMedia({ colorScheme: "dark" });
    if (Deno.env.get("DOMTERM_SHOTS")) {
      for (const s of ["dark", "light"]) {
        await Deno.copyFile(
          `${dir}/ask-${s}.png`,
          `${Deno.env.get("DOMTERM_SHOTS")}/ask-${s}.png`,
        );
      }
    }
    await page.click(".dt-clipboard-allow");
    await waitForRow(page, "A E]52;c;aMOpbGxvIDUyE\\");
    assertEquals(await bar.count(), 0, "the bar is gone");
    // Deny: no answer (read gives up).
    await run(`q D ${QUERY} 2`);
    await bar.waitFor({ state: "visible" });
    await page.click(".dt-clipboard-deny");
    await waitForRow(page, "D \\");
    // always: answered without a question.
    await policy("always");
    await run(`q W ${QUERY}`);
    await waitForRow(page, "W E]52;c;aMOpbGxvIDUyE\\");
    // never: no answer, no question.
    await policy("never");
    await run(`q N ${QUERY} 2`);
    await waitForRow(page, "N \\");
    assertEquals(await bar.count(), 0, "no bar with never");
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("e2e: KAM locks the keyboard of the window", async () => {
  const dir = await Deno.makeTempDir();
  const t = await startDomterm(BASH, {
    env: { PS1: "$ ", HOME: dir, INPUTRC: "/dev/null" },
  });
  const page = t.page;
  try {
    await waitForRow(page, "$");
    // Locked for a while, then unlocked by the program itself.
    await page.keyboard.type(
      "printf '\\e[2h'; echo locked; sleep 2; printf '\\e[2l'; echo unlocked",
    );
    await page.keyboard.press("Enter");
    await waitForRow(page, "locked");
    await page.keyboard.type("lost");
    await waitForRow(page, "unlocked");
    await page.keyboard.type("echo kept");
    await page.keyboard.press("Enter");
    await waitForRow(page, "kept");
    const rows = await page.evaluate(() =>
      Array.from(document.querySelectorAll("#terminal .dt-row")).map((r) =>
        r.textContent ?? ""
      ).join("\n")
    );
    assertEquals(rows.includes("lost"), false, "keys typed while locked");
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});
