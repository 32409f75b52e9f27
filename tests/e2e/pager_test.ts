/**
 * The pager, end to end: a real bash on a real PTY, the real server and
 * headless Chromium, keys typed as real key presses.
 *
 * - The automatic pager stops `seq 1 300000` after a screenful, and the
 *   stop is real back-pressure: seq is blocked in write (its /proc io
 *   counter stands still well short of its output). Space gives one more
 *   page, Enter one more line; a dropped connection while paused loses and
 *   doubles nothing; `a` turns the pager off and every one of the 300,000
 *   lines is there exactly once, in order.
 * - `CSI 92 ; 1 u` / `CSI 92 ; 2 u` switch it from a program; Esc
 *   continues without pausing.
 * - Ctrl-C during a pause interrupts the program and the prompt comes back.
 * - Ctrl+Shift+M pauses a flood at will; the arrows and PgUp move through
 *   the history, Shift+arrows select; Ctrl+Shift+M continues.
 *
 * Screenshots go to $DT_SCREENSHOT_DIR when it is set.
 */
import { assert, assertEquals } from "../assert.ts";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { rowTexts, startDomterm, waitForRow } from "./domterm.ts";

const PROMPT = "PROMPT$";
const ENV = {
  PS1: `${PROMPT} `,
  HOME: Deno.env.get("HOME") ?? "/tmp",
  INPUTRC: "/dev/null",
  DOMTERM_SHELL_INTEGRATION: "0",
};
const BASH = ["bash", "--norc", "--noprofile", "-i"];
/**
 * Lines of the blocked `seq`: its 2 MB are well over what the server reads
 * ahead of a paused window (HIGH_WATER, 1 MiB) plus the kernel's buffer.
 */
const SEQ_LINES = 300000;
/** Bytes `seq 1 SEQ_LINES` writes. */
const SEQ_BYTES = (() => {
  let n = 0;
  for (let i = 1; i <= SEQ_LINES; i++) n += String(i).length + 1;
  return n;
})();

async function screenshot(page: Page, name: string): Promise<void> {
  const dir = Deno.env.get("DT_SCREENSHOT_DIR");
  if (dir) await page.screenshot({ path: join(dir, name) });
}

/** The pager's and the connection's state in the page. */
function pagerState(
  page: Page,
): Promise<{ paused: boolean; automatic: boolean; held: boolean }> {
  return page.evaluate(() => {
    // deno-lint-ignore no-explicit-any
    const d = (globalThis as any).domtermInspect;
    return {
      paused: d.pagerPaused,
      automatic: d.pagerAutomatic,
      held: d.outputHeld,
    };
  });
}

/** Wait until the pager is paused (or not). */
async function waitPaused(page: Page, paused = true): Promise<void> {
  try {
    await page.waitForFunction(
      // deno-lint-ignore no-explicit-any
      (p) => (globalThis as any).domtermInspect.pagerPaused === p,
      paused,
      { timeout: 20_000 },
    );
  } catch {
    throw new Error(
      `pager never ${paused ? "paused" : "continued"}: ${
        JSON.stringify(await pagerState(page))
      }; rows ${JSON.stringify((await rowTexts(page)).slice(-5))}`,
    );
  }
}

/** Every line of the normal buffer (history and screen), trailing blanks trimmed. */
function bufferLines(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    // deno-lint-ignore no-explicit-any
    const b = (globalThis as any).domtermInspect.term.normalBuffer;
    const out: string[] = [];
    for (let i = 0; i < b.length; i++) {
      out.push(b.getLine(i).toString(true).trimEnd());
    }
    return out;
  });
}

/** The numbers among `lines` must be 1..n, each once, in order. */
function assertSeq(lines: string[], n: number): void {
  const nums = lines.filter((l) => /^\d+$/.test(l)).map(Number);
  assertEquals(nums.length, n, "lines of seq's output");
  for (let i = 0; i < n; i++) {
    if (nums[i] !== i + 1) {
      throw new Error(`line ${i + 1} is ${nums[i]} (lost or doubled output)`);
    }
  }
}

/** The last screen row that shows a number, as a number. */
async function lastNumber(page: Page): Promise<number> {
  return await page.evaluate(() => {
    // deno-lint-ignore no-explicit-any
    const t = (globalThis as any).domtermInspect.term;
    const b = t.normalBuffer;
    for (let y = t.rows - 1; y >= 0; y--) {
      const s = b.getLine(b.length - t.rows + y).toString(true).trimEnd();
      if (/^\d+$/.test(s)) return Number(s);
    }
    return -1;
  });
}

/** Wait until the cursor's line shows `want`. */
async function waitCursorLine(
  page: Page,
  want: number | string,
  timeout = 10_000,
): Promise<void> {
  const line = () =>
    page.evaluate(() => {
      // deno-lint-ignore no-explicit-any
      const t = (globalThis as any).domtermInspect.term;
      const b = t.normalBuffer;
      return b.getLine(b.length - t.rows + t.cursorY).toString(true).trimEnd();
    });
  const end = Date.now() + timeout;
  let got = "";
  while (Date.now() < end) {
    got = await line();
    if (got === String(want)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(
    `cursor line ${JSON.stringify(got)}, want ${JSON.stringify(want)}; ${
      JSON.stringify(await pagerState(page))
    }`,
  );
}

/** The shell's pid, from `echo $$`. */
async function shellPid(page: Page): Promise<number> {
  await page.keyboard.type("echo PID=$$");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll("#terminal .dt-row")).some((r) =>
      /^PID=\d+\s*$/.test(r.textContent ?? "")
    )
  );
  const rows = await rowTexts(page);
  const row = rows.find((r) => /^PID=\d+$/.test(r))!;
  return Number(row.slice(4));
}

/** The shell's one child (the running command). */
async function childOf(pid: number): Promise<number> {
  const text = await Deno.readTextFile(`/proc/${pid}/task/${pid}/children`);
  const kids = text.trim().split(/\s+/).filter(Boolean).map(Number);
  assertEquals(kids.length, 1, `children of ${pid}: ${text}`);
  return kids[0];
}

/** `wchar` of /proc/PID/io: bytes the process has written. */
async function written(pid: number): Promise<number> {
  const io = await Deno.readTextFile(`/proc/${pid}/io`);
  return Number(/^wchar: (\d+)$/m.exec(io)![1]);
}

/** write(2)'s number in /proc/PID/syscall, by architecture. */
const WRITE_SYSCALL: Record<string, number> = { x86_64: 1, aarch64: 64 };

/**
 * Whether the process sleeps inside write(2) (/proc/PID/stat state S and
 * /proc/PID/syscall on write); null where the kernel does not say.
 */
async function inWrite(pid: number): Promise<boolean | null> {
  const nr = WRITE_SYSCALL[Deno.build.arch];
  if (nr === undefined) return null;
  try {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    const state = stat.slice(stat.lastIndexOf(")") + 2)[0];
    const call = (await Deno.readTextFile(`/proc/${pid}/syscall`)).trim();
    if (call === "" || call === "running") return state === "S" ? null : false;
    return state === "S" && Number(call.split(" ")[0]) === nr;
  } catch {
    return null;
  }
}

Deno.test("e2e pager: seq 1 300000 stops after a screenful with seq blocked; Space a page, Enter a line, a reconnect while paused, a finishes with every line once", async () => {
  const run = await startDomterm(BASH, {
    env: ENV,
    serverArgs: ["--scrollback", "320000"],
  });
  const { page } = run;
  try {
    await waitForRow(page, PROMPT);
    const bash = await shellPid(page);
    // The menu's "Automatic pager" entry, clicked; it then has a check mark.
    const box = (await page.locator("#terminal").boundingBox())!;
    const entry = page.locator(".dt-menu-item", { hasText: "Automatic pager" });
    await page.mouse.click(box.x + 300, box.y + 60, { button: "right" });
    assertEquals(await entry.getAttribute("aria-checked"), "false");
    await entry.click();
    await page.mouse.click(box.x + 300, box.y + 60, { button: "right" });
    assertEquals(await entry.getAttribute("aria-checked"), "true");
    await screenshot(page, "pager-menu.png");
    await page.keyboard.press("Escape");
    assert((await pagerState(page)).automatic, "automatic pager on");
    const rows: number = await page.evaluate(() =>
      // deno-lint-ignore no-explicit-any
      (globalThis as any).domtermInspect.term.rows
    );

    await page.keyboard.type(`seq 1 ${SEQ_LINES}`);
    await page.keyboard.press("Enter");
    await waitPaused(page);
    await page.waitForSelector(".dt-pager:not([hidden])");
    // A screenful since the Enter: its echo's line feed and rows - 2 more
    // lines with theirs, then line rows - 1 up to its line feed.
    assertEquals(await lastNumber(page), rows - 1, "last line shown");
    assert((await pagerState(page)).held, "the connection holds output");
    await screenshot(page, "pager-paused.png");

    // Real back-pressure: seq is blocked in write, far from done.
    const seq = await childOf(bash);
    // The server reads on until the window is HIGH_WATER behind, and
    // the kernel's buffer fills: then seq's write count stands still.
    // Where the kernel shows seq asleep in write(2), a short gap between
    // the two counts proves the stop; elsewhere a second.
    let w1 = -1, w2 = await written(seq), blocked = await inWrite(seq);
    const gap = blocked === null ? 1000 : 200;
    const until = Date.now() + 20_000;
    while ((w1 !== w2 || blocked === false) && Date.now() < until) {
      w1 = w2;
      await new Promise((r) => setTimeout(r, gap));
      w2 = await written(seq);
      blocked = await inWrite(seq);
    }
    assertEquals(w2, w1, "seq wrote nothing more while paused");
    assert(blocked !== false, "seq is asleep in write(2)");
    assert(
      w2 < SEQ_BYTES,
      `seq blocked before the end (${w2} of ${SEQ_BYTES} bytes written)`,
    );
    assertEquals(await lastNumber(page), rows - 1, "still the same screen");

    // Space: one more page (rows - 1 lines).
    await page.keyboard.press(" ");
    await waitCursorLine(page, 2 * rows - 2);
    await waitPaused(page);
    assertEquals(await lastNumber(page), 2 * rows - 2, "one page more");

    // Enter: one more line.
    await page.keyboard.press("Enter");
    await waitCursorLine(page, 2 * rows - 1);
    await waitPaused(page);
    assertEquals(await lastNumber(page), 2 * rows - 1, "one line more");
    await new Promise((r) => setTimeout(r, 300));
    assertEquals(await lastNumber(page), 2 * rows - 1, "and no more");

    // The connection drops while paused: the page reconnects once it
    // continues and resumes at the byte it had processed.
    await page.evaluate(() =>
      // deno-lint-ignore no-explicit-any
      (globalThis as any).domtermInspect.dropConnection()
    );
    await new Promise((r) => setTimeout(r, 300));
    assert((await pagerState(page)).paused, "still paused after the drop");

    // a: the automatic pager off, and everything comes.
    await page.keyboard.press("a");
    await waitForRow(page, String(SEQ_LINES), 60_000);
    await waitCursorLine(page, PROMPT, 20_000);
    const state = await pagerState(page);
    assert(!state.paused && !state.automatic && !state.held, "pager off");
    await page.waitForFunction(
      // deno-lint-ignore no-explicit-any
      () => (globalThis as any).domtermInspect.connected,
    );
    assertSeq(await bufferLines(page), SEQ_LINES);
  } finally {
    await run.close();
  }
});

Deno.test("e2e pager: CSI 92;1u turns it on, Esc continues without pausing, Ctrl-C interrupts, CSI 92;2u turns it off", async () => {
  const run = await startDomterm(BASH, {
    env: ENV,
    serverArgs: ["--scrollback", "120000"],
  });
  const { page } = run;
  try {
    await waitForRow(page, PROMPT);
    const bash = await shellPid(page);
    assert(!(await pagerState(page)).automatic, "off by default");
    await page.keyboard.type("printf '\\e[92;1u'; echo on");
    await page.keyboard.press("Enter");
    await waitForRow(page, "on");
    assert((await pagerState(page)).automatic, "CSI 92;1u: on");

    // Esc: continue without pausing until the next key.
    await page.keyboard.type("seq 1 20000");
    await page.keyboard.press("Enter");
    await waitPaused(page);
    await page.keyboard.press("Escape");
    await waitForRow(page, "20000", 60_000);
    await waitCursorLine(page, PROMPT);
    assert(!(await pagerState(page)).paused, "not paused again");
    assert((await pagerState(page)).automatic, "still on");

    // Ctrl-C while paused: the program is interrupted, the prompt returns.
    await page.keyboard.type("seq 1 100000000");
    await page.keyboard.press("Enter");
    await waitPaused(page);
    const seq = await childOf(bash);
    await page.keyboard.press("Control+C");
    await waitCursorLine(page, PROMPT, 30_000);
    assert(!(await pagerState(page)).paused, "continued");
    let gone = false;
    try {
      await Deno.stat(`/proc/${seq}`);
    } catch {
      gone = true;
    }
    assert(gone, "seq was interrupted");

    await page.keyboard.type("printf '\\e[92;2u'; echo off");
    await page.keyboard.press("Enter");
    await waitForRow(page, "off");
    assert(!(await pagerState(page)).automatic, "CSI 92;2u: off");
    // Off: a long output runs to its end.
    await page.keyboard.type("seq 1 3000");
    await page.keyboard.press("Enter");
    await waitForRow(page, "3000", 30_000);
    assert(!(await pagerState(page)).paused, "never paused");
  } finally {
    await run.close();
  }
});

Deno.test("e2e pager: Ctrl+Shift+M pauses a flood, arrows and PgUp move through the history, Shift extends a selection", async () => {
  const run = await startDomterm(BASH, { env: ENV });
  const { page } = run;
  try {
    await waitForRow(page, PROMPT);
    await page.keyboard.type("seq 1 100000000");
    await page.keyboard.press("Enter");
    await page.waitForFunction(
      () => {
        // deno-lint-ignore no-explicit-any
        const t = (globalThis as any).domtermInspect.term;
        const b = t.normalBuffer;
        return Number(b.getLine(b.length - 2).toString(true).trimEnd()) > 3000;
      },
      undefined,
      { timeout: 30_000 },
    );
    await page.keyboard.press("Control+Shift+M");
    await waitPaused(page);
    const title = await page.textContent(".dt-pager-title");
    assertEquals(title, "Output paused");
    // Held: the screen stays as it is.
    const at = await lastNumber(page);
    await new Promise((r) => setTimeout(r, 500));
    assertEquals(await lastNumber(page), at, "no output while paused");

    const scrollTop = () =>
      page.evaluate(() => document.querySelector(".dt-viewport")!.scrollTop);
    const bottom = await scrollTop();
    await page.keyboard.press("PageUp");
    await page.waitForFunction(
      (b) => document.querySelector(".dt-viewport")!.scrollTop < b - 50,
      bottom,
    );
    const afterPage = await scrollTop();
    await page.keyboard.press("ArrowUp");
    await page.waitForFunction(
      (b) => document.querySelector(".dt-viewport")!.scrollTop < b,
      afterPage,
    );
    await page.keyboard.press("End");
    await page.waitForFunction(
      (b) => document.querySelector(".dt-viewport")!.scrollTop >= b - 2,
      bottom,
    );
    // Shift+Up twice, Shift+Home: a selection from the cursor's line up.
    await page.keyboard.press("Shift+ArrowUp");
    await page.keyboard.press("Shift+ArrowUp");
    await page.keyboard.press("Shift+Home");
    const selected = await page.evaluate(() => getSelection()!.toString());
    // The last three lines shown, up to the cursor (output may have
    // stopped in the middle of a line).
    const shown: string[] = await page.evaluate(() => {
      // deno-lint-ignore no-explicit-any
      const t = (globalThis as any).domtermInspect.term;
      const b = t.normalBuffer;
      const cursor = b.length - t.rows + t.cursorY;
      return [cursor - 2, cursor - 1, cursor].map((i) =>
        b.getLine(i).toString(true).trimEnd()
      );
    });
    assertEquals(
      selected.split("\n").map((l) => l.trimEnd()),
      shown,
      "selection",
    );
    assert((await pagerState(page)).paused, "still paused");
    await screenshot(page, "pager-manual.png");

    // Ctrl+Shift+M again continues; then Ctrl-C ends the flood.
    await page.keyboard.press("Control+Shift+M");
    await waitPaused(page, false);
    await page.waitForFunction(
      (n) => {
        // deno-lint-ignore no-explicit-any
        const t = (globalThis as any).domtermInspect.term;
        const b = t.normalBuffer;
        const s = b.getLine(b.length - t.rows + t.cursorY - 1).toString(true)
          .trimEnd();
        return /^\d+$/.test(s) && Number(s) > n + 1000;
      },
      at,
      { timeout: 20_000 },
    );
    await page.keyboard.press("Control+C");
    await waitCursorLine(page, PROMPT, 30_000);
  } finally {
    await run.close();
  }
});

Deno.test("e2e pager: a reload while paused keeps the automatic pager, pauses again, and loses or doubles no line", async () => {
  const run = await startDomterm(BASH, {
    env: ENV,
    serverArgs: ["--scrollback", "120000"],
  });
  const { page } = run;
  try {
    // While no window is attached (the reload's gap) the server reads the
    // program freely, as for any detached session: the second half waits
    // until the new page is there, so that there is output left to page.
    const gate = `${Deno.makeTempDirSync({ prefix: "domterm-pager-" })}/go`;
    await waitForRow(page, PROMPT);
    await page.keyboard.type(
      `printf '\\e[92;1u'; seq 1 50000; ` +
        `while [ ! -e ${gate} ]; do sleep 0.05; done; seq 50001 100000`,
    );
    await page.keyboard.press("Enter");
    await waitPaused(page);
    await page.reload();
    await page.waitForFunction(() =>
      "domtermInspect" in globalThis &&
      // deno-lint-ignore no-explicit-any
      (globalThis as any).domtermInspect.connected
    );
    Deno.writeTextFileSync(gate, "");
    // The new page starts from the session's snapshot (all the server read)
    // and, the pager still on, stops again a screenful later.
    await waitPaused(page);
    assert((await pagerState(page)).automatic, "still on after the reload");
    await page.keyboard.press("a");
    await waitForRow(page, "100000", 60_000);
    await waitCursorLine(page, PROMPT, 20_000);
    // The snapshot's older history loads in slices (client/snapshot_slices.ts).
    await page.waitForFunction(() =>
      // deno-lint-ignore no-explicit-any
      !(globalThis as any).domtermInspect.historyLoading
    );
    assertSeq(await bufferLines(page), 100000);
  } finally {
    await run.close();
  }
});

Deno.test("e2e pager: Shift+Home extends a paused pager's selection to its line's start (not the key map's scroll-top)", async () => {
  const run = await startDomterm(BASH, { env: ENV });
  const { page } = run;
  try {
    await waitForRow(page, PROMPT);
    // The cursor stays in the middle of a line: after "abc", cat reading.
    await page.keyboard.type("printf 'row7\\nrow8\\nrow9\\nabc'; cat");
    await page.keyboard.press("Enter");
    await waitForRow(page, "abc");
    await page.keyboard.press("Control+Shift+M");
    await waitPaused(page);
    await page.keyboard.press("Shift+ArrowUp");
    await page.keyboard.press("Shift+ArrowUp");
    await page.keyboard.press("Shift+Home");
    const selected = await page.evaluate(() => getSelection()!.toString());
    assertEquals(
      selected.split("\n").map((l) => l.trimEnd()),
      ["row8", "row9", "abc"],
      "selection",
    );
    await page.keyboard.press("Control+Shift+M");
    await waitPaused(page, false);
    await page.keyboard.press("Control+C");
    await waitCursorLine(page, PROMPT, 30_000);
  } finally {
    await run.close();
  }
});
