/**
 * A sample of the xterm replies through the product as shipped (server,
 * bash on a PTY, Chromium): a colour set and queried, DECRQM, DECRQSS, a
 * title report and DECCOLM, which the window honours within its size.
 * The session's emulator answers; the page must agree with it (DECCOLM's
 * width is the page's doing).
 */
import { assertEquals } from "../assert.ts";
import { startDomterm, waitForRow } from "./domterm.ts";

const BASH = ["bash", "--norc", "--noprofile", "-i"];

/** `q NAME QUERY END`: send QUERY, read the reply up to END, print it with ESC as "E". */
const HELPER = `q() { printf "$2"; IFS= read -rs -d "$3" -t 5 r;` +
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
    await run(`printf '\\e[?40h\\e[?3h'; sleep 0.5; echo "size $(stty size)"`);
    await waitForRow(t.page, "size 23 132".replace("23", await rowsNow()));
    await run(`q K '\\e[?3$p' y`);
    await waitForRow(t.page, "K E[?3;1$y");
    await run(`printf '\\e[?3l'; sleep 0.5; echo "size $(stty size)"`);
    await waitForRow(t.page, "size 23 80".replace("23", await rowsNow()));
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }

  async function rowsNow(): Promise<string> {
    return String(
      await t.page.evaluate(() =>
        (globalThis as unknown as { domterm: { term: { rows: number } } })
          .domterm.term.rows
      ),
    );
  }
});
