/**
 * Tabs and panes (client/layout/, client/window.ts; issue 33): the window's
 * layout lives in the server and the page draws it. Made by key, by the
 * pane prefix and by the menu; typing reaches only the focused pane;
 * dragging a splitter resizes only the panes beside it (their PTYs too:
 * `stty size`); dragging a tab onto a pane's edge splits it; a reload
 * brings back the same layout, sessions and scrollback; a tab not shown
 * draws nothing but marks its tab, and draws from the model at once when
 * shown; closing a pane where a program runs asks first.
 *
 * @module
 */
import { assert, assertEquals } from "../assert.ts";
import type { Page } from "playwright-core";
import { startDomterm } from "./domterm.ts";
import type { Inspected } from "../../client/inspect.ts";
import { run, waitPaneRow } from "./panes_helpers.ts";
import type { Layout } from "../../core/layout.ts";
import { panes, stacks } from "../../core/layout.ts";

const SH = ["sh"];
const ENV = { PS1: "$ ", ENV: "" };

function layoutOf(page: Page): Promise<Layout> {
  return page.evaluate(() =>
    (globalThis as unknown as Inspected).domtermInspect.layout()!
  );
}

/** Waits until the layout has `n` panes, every one connected and focused where the layout says. */
async function waitPanes(page: Page, n: number): Promise<Layout> {
  await page.waitForFunction(
    (n) => {
      const d = (globalThis as unknown as Inspected).domtermInspect;
      const layout = d.layout();
      if (!layout || d.views() !== n) return false;
      for (let i = 0; i < n; i++) if (!d.view(i).connected) return false;
      const active = d.activeView();
      return d.paneOf(active) === layout.focus &&
        document.activeElement?.closest(".dt-pane")?.getAttribute(
            "data-pane",
          ) === String(layout.focus);
    },
    n,
    { timeout: 15_000 },
  );
  return await layoutOf(page);
}

/** The view index of pane `pane`. */
function indexOf(page: Page, pane: number): Promise<number> {
  return page.evaluate((pane) => {
    const d = (globalThis as unknown as Inspected).domtermInspect;
    for (let i = 0; i < d.views(); i++) if (d.paneOf(i) === pane) return i;
    return -1;
  }, pane);
}

/** Pane `pane`'s screen (the model) and its drawn rows. */
function texts(page: Page, pane: number) {
  return page.evaluate((pane) => {
    const d = (globalThis as unknown as Inspected).domtermInspect;
    for (let i = 0; i < d.views(); i++) {
      if (d.paneOf(i) !== pane) continue;
      const v = d.view(i);
      return {
        screen: v.screenText().join("\n"),
        drawn: Array.from(v.root.querySelectorAll(".dt-row")).map((r) =>
          r.textContent ?? ""
        ).join("\n"),
      };
    }
    throw new Error(`no pane ${pane}`);
  }, pane);
}

/** Waits until pane `pane`'s screen has a row that is exactly `text`. */
function waitRow(page: Page, pane: number, text: string) {
  return waitPaneRow(page, pane, text, 15_000);
}

Deno.test("e2e panes: tabs and panes by key, prefix and menu; typing reaches the focused pane only", async () => {
  const dt = await startDomterm(SH, {
    env: ENV,
    viewport: { width: 1000, height: 600 },
  });
  const { page } = dt;
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  try {
    let layout = await waitPanes(page, 1);
    const first = layout.focus;
    // One pane: no tab bar, the terminal fills the window as it always did.
    assertEquals(
      await page.evaluate(() =>
        getComputedStyle(document.querySelector(".dt-tabbar")!).display
      ),
      "none",
    );
    // Ctrl+Shift+T: a new tab beside it, shown and focused.
    await page.keyboard.press("Control+Shift+T");
    layout = await waitPanes(page, 2);
    assertEquals(stacks(layout).length, 1);
    const tab = layout.focus;
    assert(tab !== first);
    assert(
      await page.locator(".dt-tab").first().isVisible(),
      "two tabs: the tab bar shows",
    );
    await run(page, "echo tab-$((1+1))");
    await waitRow(page, tab, "tab-2");

    // The menu's "New pane": a split, focused.
    await page.click(`.dt-pane[data-pane="${tab}"]`, { button: "right" });
    await page.click(".dt-menu-item:has-text('New pane')");
    layout = await waitPanes(page, 3);
    assertEquals(stacks(layout).length, 2);
    const right = layout.focus;
    await run(page, "echo right-$((2+1))");
    await waitRow(page, right, "right-3");

    // The pane prefix: Ctrl+Shift+A, then Ctrl+Down: a pane below.
    await page.keyboard.press("Control+Shift+A");
    await page.keyboard.press("Control+ArrowDown");
    layout = await waitPanes(page, 4);
    const below = layout.focus;
    assertEquals(stacks(layout).length, 3);
    await run(page, "echo below-$((3+1))");
    await waitRow(page, below, "below-4");

    // Ctrl+Shift+A, then Left: the pane to the left (the tab shown there).
    await page.keyboard.press("Control+Shift+A");
    await page.keyboard.press("ArrowLeft");
    await page.waitForFunction(
      (tab) =>
        (globalThis as unknown as Inspected).domtermInspect.layout()!.focus ===
          tab,
      tab,
    );
    layout = await waitPanes(page, 4);
    await run(page, "echo left-$((4+1))");
    await waitRow(page, tab, "left-5");

    // Each output went to its own pane only.
    const markers = new Map([
      [tab, "tab-2"],
      [right, "right-3"],
      [below, "below-4"],
    ]);
    for (const p of panes(layout)) {
      const t = await texts(page, p.id);
      for (const [q, m] of markers) {
        const echoed = p.id === tab && (m === "left-5");
        if (q === p.id) assert(t.screen.includes(m), `${p.id}: ${t.screen}`);
        else if (!echoed) {
          assert(!t.screen.includes(`\n${m}`), `${m} in ${p.id}: ${t.screen}`);
        }
      }
    }
    assert(!(await texts(page, first)).screen.includes("-"), "first tab");

    // Ctrl+PageUp: the previous tab of that area (the first pane).
    await page.keyboard.press("Control+PageUp");
    await page.waitForFunction(
      (first) =>
        (globalThis as unknown as Inspected).domtermInspect.layout()!.focus ===
          first,
      first,
    );
    await waitPanes(page, 4);
    await run(page, "echo first-$((5+1))");
    await waitRow(page, first, "first-6");
    // The tab not shown draws nothing, though its model has its output.
    const hidden = await texts(page, tab);
    assert(hidden.screen.includes("left-5"));

    // Ctrl+Shift+W: the focused pane closes (its shell runs nothing).
    await page.keyboard.press("Control+Shift+W");
    layout = await waitPanes(page, 3);
    assert(!panes(layout).some((p) => p.id === first));
    assertEquals(await indexOf(page, first), -1);
    assertEquals(errors, []);
  } finally {
    await dt.close();
  }
});

/** Focus pane `pane` by a click on it, and wait until the layout says so. */
async function clickPane(page: Page, pane: number) {
  const box = (await page.locator(`.dt-pane[data-pane="${pane}"]`)
    .boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.waitForFunction(
    (pane) =>
      (globalThis as unknown as Inspected).domtermInspect.layout()!.focus ===
        pane,
    pane,
  );
}

/** `stty size` in pane `pane` (focused by a click): [rows, cols]. */
async function sttySize(page: Page, pane: number, tag: string) {
  await clickPane(page, pane);
  await run(page, `echo "${tag}=$(stty size)"`);
  const row = await page.waitForFunction(
    ({ pane, tag }) => {
      const d = (globalThis as unknown as Inspected).domtermInspect;
      for (let i = 0; i < d.views(); i++) {
        if (d.paneOf(i) !== pane) continue;
        return d.view(i).screenText().find((r) => r.startsWith(`${tag}=`)) ??
          false;
      }
      return false;
    },
    { pane, tag },
    { timeout: 15_000 },
  );
  const text = (await row.jsonValue()) as string;
  const [rows, cols] = text.slice(tag.length + 1).trim().split(/\s+/).map(
    Number,
  );
  return { rows, cols };
}

Deno.test("e2e panes: dragging a splitter resizes the panes beside it only, and their PTYs", async () => {
  const dt = await startDomterm(SH, {
    env: ENV,
    viewport: { width: 1000, height: 640 },
  });
  const { page } = dt;
  try {
    let layout = await waitPanes(page, 1);
    const a = layout.focus;
    await page.evaluate(() =>
      (globalThis as unknown as Inspected).domtermInspect.runAction(
        "split-right",
      )
    );
    layout = await waitPanes(page, 2);
    const b = layout.focus;
    await page.evaluate(() =>
      (globalThis as unknown as Inspected).domtermInspect.runAction(
        "split-down",
      )
    );
    layout = await waitPanes(page, 3);
    const c = layout.focus;
    const before = {
      a: await sttySize(page, a, "A1"),
      b: await sttySize(page, b, "B1"),
      c: await sttySize(page, c, "C1"),
    };
    // The splitter between b (above) and c (below): 120 px down.
    const splitter = page.locator(
      ".dt-split-column > .dt-splitter",
    );
    const box = (await splitter.boundingBox())!;
    const x = box.x + box.width / 2, y = box.y + box.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x, y + 60, { steps: 5 });
    await page.mouse.move(x, y + 120, { steps: 5 });
    await page.mouse.up();
    // The server keeps the new sizes: the split's share moved.
    await page.waitForFunction(() => {
      const l = (globalThis as unknown as Inspected).domtermInspect.layout()!;
      const find = (n: Layout["root"]): number[] | null =>
        n.kind === "split"
          ? n.direction === "column" ? n.sizes : n.children.map(find).find((
            s,
          ) => s) ?? null
          : null;
      const s = find(l.root);
      return s !== null && s[0] > 0.6;
    });
    const after = {
      a: await sttySize(page, a, "A2"),
      b: await sttySize(page, b, "B2"),
      c: await sttySize(page, c, "C2"),
    };
    assertEquals(after.a, before.a, "the pane left of the split kept its size");
    assertEquals(after.b.cols, before.b.cols);
    assertEquals(after.c.cols, before.c.cols);
    assert(after.b.rows > before.b.rows + 3, JSON.stringify({ before, after }));
    assert(after.c.rows < before.c.rows - 3, JSON.stringify({ before, after }));
  } finally {
    await dt.close();
  }
});

Deno.test("e2e panes: dragging a tab onto a pane's edge splits it", async () => {
  const dt = await startDomterm(SH, {
    env: ENV,
    viewport: { width: 1000, height: 600 },
  });
  const { page } = dt;
  try {
    let layout = await waitPanes(page, 1);
    const first = layout.focus;
    await page.keyboard.press("Control+Shift+T");
    layout = await waitPanes(page, 2);
    const second = layout.focus;
    assertEquals(stacks(layout).length, 1);
    // Drag the second tab to the bottom edge of the area.
    const tab = (await page.locator(`.dt-tab[data-pane="${second}"]`)
      .boundingBox())!;
    const body = (await page.locator(".dt-stack-body").boundingBox())!;
    await page.mouse.move(tab.x + tab.width / 2, tab.y + tab.height / 2);
    await page.mouse.down();
    await page.mouse.move(body.x + body.width / 2, body.y + body.height / 2, {
      steps: 8,
    });
    const target = {
      x: body.x + body.width / 2,
      y: body.y + body.height - 20,
    };
    await page.mouse.move(target.x, target.y, { steps: 8 });
    // The place it would go is marked: the lower half.
    const mark = (await page.locator(".dt-drop-mark").boundingBox())!;
    assert(
      Math.abs(mark.y - (body.y + body.height / 2)) < 3 &&
        Math.abs(mark.height - body.height / 2) < 3,
      JSON.stringify({ mark, body }),
    );
    await page.mouse.up();
    await page.waitForFunction(() =>
      (globalThis as unknown as Inspected).domtermInspect.layout()!.root
        .kind === "split"
    );
    layout = await waitPanes(page, 2);
    const root = layout.root;
    assert(root.kind === "split" && root.direction === "column");
    const [top, bottom] = root.children;
    assert(top.kind === "stack" && bottom.kind === "stack");
    assertEquals(top.panes.map((p) => p.id), [first]);
    assertEquals(bottom.panes.map((p) => p.id), [second]);
    // Drawn so: the second pane below the first, each shown.
    const rects = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>(".dt-pane")].map((e) => ({
        pane: Number(e.dataset.pane),
        top: e.getBoundingClientRect().top,
        height: e.getBoundingClientRect().height,
      }))
    );
    const r1 = rects.find((r) => r.pane === first)!;
    const r2 = rects.find((r) => r.pane === second)!;
    assert(r1.height > 100 && r2.height > 100 && r2.top > r1.top + 100);
    // A press that does not move is a click: that tab is focused.
    await page.click(`.dt-tab[data-pane="${first}"]`);
    await page.waitForFunction(
      (first) =>
        (globalThis as unknown as Inspected).domtermInspect.layout()!.focus ===
          first,
      first,
    );
  } finally {
    await dt.close();
  }
});

Deno.test("e2e panes: a reload brings back the same layout, sessions and scrollback", async () => {
  const dt = await startDomterm(SH, {
    env: ENV,
    viewport: { width: 1000, height: 600 },
  });
  const { page } = dt;
  try {
    let layout = await waitPanes(page, 1);
    const a = layout.focus;
    await run(page, "seq -f 'a-%g' 1 300");
    await waitRow(page, a, "a-300");
    await page.keyboard.press("Control+Shift+T");
    layout = await waitPanes(page, 2);
    const b = layout.focus;
    await run(page, "echo b-$((6*7))");
    await waitRow(page, b, "b-42");
    await page.keyboard.press("Control+Shift+N");
    layout = await waitPanes(page, 3);
    const c = layout.focus;
    await run(page, "echo c-$((6*8))");
    await waitRow(page, c, "c-48");
    const window = await page.evaluate(() =>
      (globalThis as unknown as Inspected).domtermInspect.window()
    );
    const history = () =>
      page.evaluate((a) => {
        const d = (globalThis as unknown as Inspected).domtermInspect;
        for (let i = 0; i < d.views(); i++) {
          if (d.paneOf(i) !== a) continue;
          const buf = d.view(i).term.normalBuffer;
          const out: string[] = [];
          for (let y = 0; y < buf.length; y++) {
            out.push(buf.getLine(y).toString(true));
          }
          return out.filter((l) => l.startsWith("a-")).length;
        }
        return -1;
      }, a);
    assertEquals(await history(), 300);

    await page.reload();
    await page.waitForFunction(() => "domtermInspect" in globalThis);
    const again = await waitPanes(page, 3);
    assertEquals(again, layout, "the same layout, panes and sessions");
    assertEquals(
      await page.evaluate(() =>
        (globalThis as unknown as Inspected).domtermInspect.window()
      ),
      window,
    );
    await waitRow(page, b, "b-42");
    await waitRow(page, c, "c-48");
    assertEquals(await history(), 300, "pane a's scrollback, all of it");
    // And the shells go on, each in its pane.
    await run(page, "echo c-again");
    await waitRow(page, c, "c-again");
  } finally {
    await dt.close();
  }
});

Deno.test("e2e panes: a tab not shown draws nothing, marks its tab, and draws at once when shown", async () => {
  const dt = await startDomterm(SH, {
    env: ENV,
    viewport: { width: 900, height: 500 },
  });
  const { page } = dt;
  // Pane a prints once this file exists: after its tab went behind the new
  // one (a fixed sleep 1.5 before: slower, and too short under load).
  const dir = await Deno.makeTempDir({ prefix: "domterm-e2e-panes-" });
  const gate = `${dir}/go`;
  try {
    let layout = await waitPanes(page, 1);
    const a = layout.focus;
    await run(
      page,
      `while [ ! -e ${gate} ]; do sleep 0.05; done; seq -f 'late-%g' 1 5`,
    );
    await page.keyboard.press("Control+Shift+T");
    layout = await waitPanes(page, 2);
    await Deno.writeTextFile(gate, "");
    // Pane a's output comes while its tab is behind the new one.
    await waitRow(page, a, "late-5");
    const hidden = await texts(page, a);
    assert(hidden.screen.includes("late-5"), "the model has it");
    assert(!hidden.drawn.includes("late-5"), `not drawn: ${hidden.drawn}`);
    const tab = await page.evaluate(
      (a) => (globalThis as unknown as Inspected).domtermInspect.tab(a),
      a,
    );
    assert(tab !== null && tab.marks.includes("\u25cf"), JSON.stringify(tab));
    // Shown again: drawn in the same task that shows it, no frame later.
    const drawnAtOnce = page.evaluate((a) =>
      new Promise<boolean>((resolve) => {
        const d = (globalThis as unknown as Inspected).domtermInspect;
        const check = () => {
          if (d.layout()!.focus !== a) return setTimeout(check, 0);
          const el = document.querySelector(`.dt-pane[data-pane="${a}"]`)!;
          resolve(el.textContent!.includes("late-5"));
        };
        check();
      }), a);
    await page.keyboard.press("Control+PageUp");
    assert(await drawnAtOnce, "drawn when shown");
    const seen = await page.evaluate(
      (a) => (globalThis as unknown as Inspected).domtermInspect.tab(a),
      a,
    );
    assert(!seen!.marks.includes("\u25cf"), "the mark goes once seen");
  } finally {
    await dt.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("e2e panes: closing a pane where a program runs asks first", async () => {
  const dt = await startDomterm(SH, {
    env: ENV,
    viewport: { width: 900, height: 500 },
  });
  const { page } = dt;
  try {
    await waitPanes(page, 1);
    await page.keyboard.press("Control+Shift+T");
    let layout = await waitPanes(page, 2);
    const busy = layout.focus;
    // A program on the alternate screen (as an editor or pager would be).
    await run(page, "printf '\\033]2;editing\\007\\033[?1049h'; sleep 60");
    await page.waitForFunction(() =>
      (globalThis as unknown as Inspected).domtermInspect.activeView() >= 0 &&
      (globalThis as unknown as Inspected).domtermInspect.view(
        (globalThis as unknown as Inspected).domtermInspect.activeView(),
      ).term.buffer.isAlt
    );
    const dialogs: string[] = [];
    page.once("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.keyboard.press("Control+Shift+W");
    await page.waitForFunction(() => true);
    await page.waitForTimeout(500);
    assertEquals(dialogs.length, 1);
    assert(dialogs[0].includes("editing"), dialogs[0]);
    layout = await layoutOf(page);
    assertEquals(panes(layout).length, 2, "dismissed: the pane stays");
    page.once("dialog", (d) => void d.accept());
    await page.keyboard.press("Control+Shift+W");
    layout = await waitPanes(page, 1);
    assert(!panes(layout).some((p) => p.id === busy));
  } finally {
    await dt.close();
  }
});

Deno.test("e2e panes: tabs and splitters work from the keyboard (arrows, Enter, Delete)", async () => {
  const dt = await startDomterm(SH, {
    env: ENV,
    viewport: { width: 1000, height: 600 },
  });
  const { page } = dt;
  try {
    let layout = await waitPanes(page, 1);
    const a = layout.focus;
    await page.keyboard.press("Control+Shift+T");
    layout = await waitPanes(page, 2);
    const b = layout.focus;
    // The shown tab is the tab list's one stop; the left arrow reaches the
    // other, Enter shows it.
    const tabs = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>(".dt-tab")).map((
        t,
      ) => ({ pane: Number(t.dataset.pane), tabIndex: t.tabIndex }))
    );
    assertEquals(tabs, [{ pane: a, tabIndex: -1 }, { pane: b, tabIndex: 0 }]);
    await page.focus(`.dt-tab[data-pane="${b}"]`);
    await page.keyboard.press("ArrowLeft");
    assertEquals(
      await page.evaluate(() =>
        (document.activeElement as HTMLElement).dataset.pane
      ),
      String(a),
    );
    await page.keyboard.press("Enter");
    await page.waitForFunction(
      (a) =>
        (globalThis as unknown as Inspected).domtermInspect.layout()?.focus ===
          a,
      a,
    );
    // A split: its divider moves by 5% a key press, and says where it is.
    await page.keyboard.press("Control+Shift+N");
    layout = await waitPanes(page, 3);
    const c = layout.focus;
    assert(layout.root.kind === "split");
    const before = layout.root.sizes[0];
    await page.focus(".dt-splitter");
    assertEquals(
      await page.getAttribute(".dt-splitter", "aria-orientation"),
      "vertical",
    );
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction(
      (before) => {
        const l = (globalThis as unknown as Inspected).domtermInspect.layout();
        return l?.root.kind === "split" &&
          Math.abs(l.root.sizes[0] - (before + 0.05)) < 0.001;
      },
      before,
    );
    await page.waitForFunction(
      (want) =>
        document.querySelector(".dt-splitter")?.getAttribute(
          "aria-valuenow",
        ) === want,
      String(Math.round((before + 0.05) * 100)),
    );
    // Delete on a tab closes it (a shell with nothing running: no question).
    await page.focus(`.dt-tab[data-pane="${c}"]`);
    await page.keyboard.press("Delete");
    layout = await waitPanes(page, 2);
    assert(!panes(layout).some((p) => p.id === c), "pane c is gone");
  } finally {
    await dt.close();
  }
});
