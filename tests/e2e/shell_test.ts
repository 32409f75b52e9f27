/**
 * Shell integration end to end: the real domterm server starts a real
 * bash / zsh / fish with the integration injected, the real client in
 * headless Chromium shows command groups, failure marks, folding and
 * prompt navigation. zsh and fish must be installed (Debian packages `zsh`
 * and `fish`); a missing one fails its test.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../assert.ts";
import type { Page } from "playwright-core";
import { type Running, startDomterm, waitForRow } from "./domterm.ts";
import { which } from "../../server/browser.ts";

type Shell = "bash" | "zsh" | "fish";

/** A HOME whose startup file sets the prompt to "$ " (a custom prompt). */
async function home(shell: Shell): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "domterm-e2e-shell-" });
  switch (shell) {
    case "bash":
      await Deno.writeTextFile(join(dir, ".bashrc"), "PS1='$ '\n");
      break;
    case "zsh":
      await Deno.writeTextFile(join(dir, ".zshrc"), "PROMPT='$ '\n");
      break;
    case "fish":
      await Deno.mkdir(join(dir, ".config", "fish"), { recursive: true });
      await Deno.writeTextFile(
        join(dir, ".config", "fish", "config.fish"),
        "set -g fish_greeting\nfunction fish_prompt; printf '$ '; end\n",
      );
      break;
  }
  return dir;
}

async function start(shell: Shell): Promise<{ t: Running; dir: string }> {
  if (!which(shell)) {
    throw new Error(
      `${shell} is not installed: apt-get install -y ${shell} (needed by the shell integration e2e test)`,
    );
  }
  const dir = await home(shell);
  const t = await startDomterm([shell], {
    env: { HOME: dir, INPUTRC: "/dev/null", ZDOTDIR: dir, LANG: "C.UTF-8" },
    viewport: { width: 800, height: 480 },
  });
  return { t, dir };
}

interface GroupInfo {
  exit: number | null;
  ended: boolean;
  output: { first: number; end: number } | null;
}

/** The command groups as the page's ShellUi sees them. */
function groups(page: Page): Promise<GroupInfo[]> {
  return page.evaluate(() => {
    // deno-lint-ignore no-explicit-any
    const ui = (globalThis as any).domtermInspect.shellUi;
    ui.update();
    // deno-lint-ignore no-explicit-any
    return ui.groups.map((g: any) => ({
      exit: g.exitCode,
      ended: g.ended,
      output: g.output && g.end
        ? { first: g.output.line, end: g.end.line }
        : null,
    }));
  });
}

/** Types a command and waits for the prompt after it. */
async function run(page: Page, command: string, groupsAfter: number) {
  await page.keyboard.type(command);
  await page.keyboard.press("Enter");
  await page.waitForFunction(
    (n) => {
      // deno-lint-ignore no-explicit-any
      const ui = (globalThis as any).domtermInspect.shellUi;
      ui.update();
      return ui.groups.length >= n && ui.groups[n - 1].input !== null;
    },
    groupsAfter,
    { timeout: 15_000 },
  );
}

/** Texts of the rendered rows that are neither hidden nor covered by a fold summary. */
function visibleRows(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>("#terminal .dt-row"))
      .filter((r) => !r.hidden && !r.querySelector(".dt-fold-summary"))
      .map((r) => (r.textContent ?? "").replace(/\s+$/, ""))
  );
}

async function groupsFoldAndNavigate(shell: Shell): Promise<void> {
  const { t, dir } = await start(shell);
  const page = t.page;
  try {
    await waitForRow(page, "$");
    await run(page, "true", 2);
    await run(page, "false", 3);
    await run(page, "seq 100", 4);
    await waitForRow(page, "100");

    // Three finished groups (and the prompt being edited).
    const gs = await groups(page);
    assertEquals(gs.length, 4, JSON.stringify(gs));
    assertEquals(gs.slice(0, 3).map((g) => [g.ended, g.exit]), [
      [true, 0],
      [true, 1],
      [true, 0],
    ]);
    assertEquals(gs[3].ended, false);
    assertEquals(gs[2].output!.end - gs[2].output!.first, 100);

    // The failure mark on the second command's prompt, exit code in the title.
    const failed = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>(".dt-row"))
        .filter((r) => r.dataset.dtExit !== undefined)
        .map((r) => ({
          text: (r.textContent ?? "").trim(),
          exit: r.dataset.dtExit,
          title: r.querySelector<HTMLElement>(".dt-exit-badge")?.title,
          badgeShown: (() => {
            const b = r.querySelector<HTMLElement>(".dt-exit-badge");
            return !!b && !b.hidden && b.getBoundingClientRect().width > 0;
          })(),
          bar: getComputedStyle(r).boxShadow,
        }))
    );
    assertEquals(failed.length, 1, JSON.stringify(failed));
    assertEquals(failed[0].text, "$ false");
    assertEquals(failed[0].exit, "1");
    assertMatch(failed[0].title ?? "", /exit status 1/);
    assert(failed[0].badgeShown, "the badge is visible");
    assert(failed[0].bar !== "none", "the failed prompt row has a bar");

    // Folding: the seq prompt's button hides the 100 lines and says so.
    const seqRow = page.locator(".dt-row", { hasText: "$ seq 100" });
    const button = seqRow.locator(".dt-fold-button");
    assertEquals(await button.getAttribute("role"), "button");
    assertEquals(await button.getAttribute("aria-expanded"), "true");
    let rows = await visibleRows(page);
    for (const n of ["1", "50", "100"]) assert(rows.includes(n), n);
    await button.scrollIntoViewIfNeeded();
    const topBefore = (await seqRow.boundingBox())!.y;
    await button.click();
    assertEquals(await button.getAttribute("aria-expanded"), "false");
    // Scrolled back: the prompt row stays where it was on the screen.
    assertEquals((await seqRow.boundingBox())!.y, topBefore);
    rows = await visibleRows(page);
    const numbers = rows.filter((r) => /^\d+$/.test(r));
    assertEquals(numbers, [], "the output lines are hidden");
    assert(rows.includes("$ seq 100"), "the prompt stays");
    const summary = page.locator(".dt-fold-summary");
    assertEquals(await summary.getAttribute("data-label"), "100 lines hidden");
    const label = await summary.evaluate((el) =>
      getComputedStyle(el, "::before").content
    );
    assertMatch(label, /100 lines hidden/);
    // It covers the first output row; the other 99 are hidden.
    const hidden = await page.evaluate(() =>
      document.querySelectorAll("#terminal .dt-row[hidden]").length
    );
    assertEquals(hidden, 99);
    // The model is untouched.
    const modelHas100 = await page.evaluate(() => {
      // deno-lint-ignore no-explicit-any
      const buf = (globalThis as any).domtermInspect.term.normalBuffer;
      for (let i = 0; i < buf.length; i++) {
        if (buf.getLine(i).toString(true) === "100") return true;
      }
      return false;
    });
    assert(modelHas100, "folding does not change the model");
    await button.click();
    assertEquals(await button.getAttribute("aria-expanded"), "true");
    rows = await visibleRows(page);
    for (const n of ["1", "50", "100"]) assert(rows.includes(n), n);

    // Prompt navigation: Ctrl+Shift+Up brings the seq prompt to the top.
    const scrollTop = () =>
      page.evaluate(() =>
        document.querySelector<HTMLElement>(".dt-viewport")!.scrollTop
      );
    const topRowText = () =>
      page.evaluate(() => {
        const vp = document.querySelector<HTMLElement>(".dt-viewport")!;
        const top = vp.getBoundingClientRect().top +
          parseFloat(getComputedStyle(vp).paddingTop);
        for (const r of document.querySelectorAll<HTMLElement>(".dt-row")) {
          if (r.hidden) continue;
          const y = r.getBoundingClientRect().top;
          if (y >= top - 1) return (r.textContent ?? "").trim();
        }
        return "";
      });
    await page.evaluate(() =>
      // deno-lint-ignore no-explicit-any
      (globalThis as any).domtermInspect.scrollToBottom()
    );
    await page.waitForFunction(() => {
      const vp = document.querySelector<HTMLElement>(".dt-viewport")!;
      return vp.scrollTop > 0 &&
        vp.scrollHeight - vp.scrollTop - vp.clientHeight < 4;
    });
    const bottom = await scrollTop();
    await page.keyboard.press("Control+Shift+ArrowUp");
    const afterUp = await scrollTop();
    assert(afterUp < bottom, `scrolled up: ${bottom} -> ${afterUp}`);
    assertEquals(await topRowText(), "$ seq 100");
    await page.keyboard.press("Control+Shift+ArrowUp");
    assertEquals(await topRowText(), "$ false");
    await page.keyboard.press("Control+Shift+ArrowDown");
    assertEquals(await topRowText(), "$ seq 100");
    assertEquals(await scrollTop(), afterUp);
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("e2e shell: bash: true, false, seq 100 -> groups, failure mark, folding, navigation", async () => {
  await groupsFoldAndNavigate("bash");
});

Deno.test("e2e shell: zsh: the same", async () => {
  await groupsFoldAndNavigate("zsh");
});

Deno.test("e2e shell: fish: the same", async () => {
  await groupsFoldAndNavigate("fish");
});

Deno.test("e2e shell: error output, DomTerm fold buttons, copy, click to move", async () => {
  const { t, dir } = await start("bash");
  const page = t.page;
  try {
    await waitForRow(page, "$");
    // Error output in the error colour.
    await run(page, "printf 'a\\033[12uERR\\033[11ub\\n'", 2);
    await waitForRow(page, "aERRb");
    const colors = await page.evaluate(() => {
      const row = Array.from(document.querySelectorAll(".dt-row")).find((r) =>
        r.textContent?.trim() === "aERRb"
      )!;
      const err = row.querySelector<HTMLElement>(".dt-stderr");
      return {
        text: err?.textContent,
        err: err ? getComputedStyle(err).color : "",
        row: getComputedStyle(row).color,
      };
    });
    assertEquals(colors.text, "ERR");
    assert(colors.err !== colors.row, `error colour differs: ${colors.err}`);

    // A DomTerm button and span, from any program.
    await run(
      page,
      "printf '\\033[16u-\\033[17u head\\n\\033[83;1uone\\ntwo\\n\\033[83;0utail\\n'",
      3,
    );
    await waitForRow(page, "tail");
    const spanButton = page.locator(".dt-row", { hasText: "- head" }).locator(
      ".dt-span-button",
    );
    assertEquals(await spanButton.getAttribute("aria-expanded"), "true");
    await spanButton.click();
    let rows = await visibleRows(page);
    assert(!rows.includes("one") && !rows.includes("two"), rows.join("|"));
    assert(rows.includes("tail") && rows.includes("- head"));
    await spanButton.click();
    rows = await visibleRows(page);
    assert(rows.includes("one") && rows.includes("two"));

    // Copying one command's output (the copy button, then the shortcut).
    await page.context().grantPermissions([
      "clipboard-read",
      "clipboard-write",
    ]);
    await run(page, "seq 3", 4);
    await waitForRow(page, "3");
    const copied = await page.evaluate(async () => {
      // deno-lint-ignore no-explicit-any
      const ui = (globalThis as any).domtermInspect.shellUi;
      const g = ui.groups[ui.groups.length - 2];
      const ok = await ui.copyOutput(g);
      return { ok, text: await navigator.clipboard.readText() };
    });
    assertEquals(copied, { ok: true, text: "1\n2\n3\n" });
    await page.evaluate(() => navigator.clipboard.writeText(""));
    await page.keyboard.press("Control+Shift+O");
    await page.waitForFunction(async () =>
      (await navigator.clipboard.readText()) === "1\n2\n3\n"
    );

    // Click in the line being edited moves the cursor there (cl=m).
    await page.keyboard.type("echo abcdef");
    await waitForRow(page, "$ echo abcdef");
    const cursorX = () =>
      // deno-lint-ignore no-explicit-any
      page.evaluate(() => (globalThis as any).domtermInspect.term.cursorX);
    assertEquals(await cursorX(), 13);
    const row = page.locator(".dt-row", { hasText: "$ echo abcdef" });
    const box = (await row.boundingBox())!;
    const cellW = await page.evaluate(() =>
      // deno-lint-ignore no-explicit-any
      (globalThis as any).domtermInspect.cell().width
    );
    // The 'b' of abcdef is column 8.
    await page.mouse.click(box.x + cellW * 8.5, box.y + box.height / 2);
    await page.waitForFunction(
      // deno-lint-ignore no-explicit-any
      () => (globalThis as any).domtermInspect.term.cursorX === 8,
      undefined,
      { timeout: 5000 },
    );
    // Typing now inserts at the cursor: the shell really moved it.
    await page.keyboard.type("X");
    await waitForRow(page, "$ echo aXbcdef");
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("e2e shell: a folded output stays folded when the window is resized (reflow)", async () => {
  const { t, dir } = await start("bash");
  const page = t.page;
  try {
    await waitForRow(page, "$");
    await run(page, "seq 40; printf 'y%.0s' {1..70}; echo", 2);
    await waitForRow(page, "y".repeat(70));
    const button = page.locator(".dt-row", { hasText: "$ seq 40" }).locator(
      ".dt-fold-button",
    );
    await button.click();
    const summary = page.locator(".dt-fold-summary");
    assertEquals(await summary.getAttribute("data-label"), "41 lines hidden");
    // Narrower: the long line reflows into two rows, all still hidden.
    await page.setViewportSize({ width: 400, height: 480 });
    await page.waitForFunction(() =>
      // deno-lint-ignore no-explicit-any
      (globalThis as any).domtermInspect.term.cols < 60
    );
    await page.waitForFunction(() =>
      document.querySelector(".dt-fold-summary")?.getAttribute(
        "data-label",
      ) === "42 lines hidden"
    );
    const rows = await visibleRows(page);
    assert(
      !rows.some((r) => /^\d+$/.test(r) || r.startsWith("yyy")),
      rows.join("|"),
    );
    assert(rows.some((r) => r.startsWith("$ seq 40")), "the prompt stays");
    // Clicking the summary unfolds.
    await summary.click();
    assertEquals(await button.getAttribute("aria-expanded"), "true");
    const shown = await visibleRows(page);
    assert(shown.includes("40") && shown.includes("1"), shown.join("|"));
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("e2e shell: a long command's decoration sits after its text, or shows on hover only", async () => {
  const { t, dir } = await start("bash");
  const page = t.page;
  try {
    await waitForRow(page, "$");
    // The grid is the session's: wait until the fonts are in and the grid
    // is what fits the window (a refit comes back from the server).
    await page.evaluate(() => document.fonts.ready.then(() => {}));
    const settled = () =>
      page.waitForFunction(() => {
        // deno-lint-ignore no-explicit-any
        const d = (globalThis as any).domtermInspect;
        const fit = d.fit();
        return fit.cols === d.term.cols && fit.rows === d.term.rows;
      });
    await settled();
    await new Promise((r) => setTimeout(r, 300));
    await settled();
    const cols = await page.evaluate(() =>
      // deno-lint-ignore no-explicit-any
      (globalThis as any).domtermInspect.term.cols as number
    );
    // Wraps once; its second row ends well before the right edge.
    const long = `echo ${"x".repeat(cols)}; false`;
    await run(page, long, 2);
    // Wraps so that its last row is full up to the right edge.
    const full = `echo ${"y".repeat(2 * cols - 14)}; true`;
    await run(page, full, 3);
    // The shell UI reads the model; the rows are drawn on the next frame.
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll<HTMLElement>(".dt-cmd-deco"))
        .some((d) => d.parentElement?.textContent?.includes("; true"))
    ).catch(() => {});
    const decos = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>(".dt-cmd-deco")).map(
        (d) => {
          const row = d.parentElement!;
          const shown = getComputedStyle(d).visibility !== "hidden";
          return {
            row: (row.textContent ?? "").replace(/\s+$/, ""),
            crowded: d.classList.contains("dt-deco-crowded"),
            shown,
          };
        },
      )
    );
    // The first command: on its last row, after "; false", visible.
    const first = decos.find((d) => d.row.includes("; false"));
    assert(first, JSON.stringify(decos));
    assertEquals([first.crowded, first.shown], [false, true]);
    // The failure bar stays on the prompt row, which is not covered.
    const exitRow = await page.evaluate(() =>
      document.querySelector<HTMLElement>(".dt-row[data-dt-exit]")
        ?.textContent ?? ""
    );
    assert(exitRow.startsWith("$ echo xxx"), exitRow);
    // The second: its text reaches under the decoration: hidden until hover.
    const second = decos.find((d) => d.row.includes("; true"));
    assert(second, JSON.stringify(decos));
    assertEquals([second.crowded, second.shown], [true, false]);
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});
