/**
 * Accessibility of tabs and panes (client/layout/, client/a11y/; issue 35
 * §3): with two tabs and a split, the accessibility tree Chromium builds
 * (CDP `Accessibility.getFullAXTree`) has a named tab list whose tabs
 * control named tab panels, no control nested in a tab, and separators
 * that say where they are; a focused tab's focus ring is drawn whole (not
 * clipped by the tab bar); in a pane that is not the first, output is
 * announced in that pane's live region only, and the prompt keys say that
 * pane's commands.
 *
 * @module
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../assert.ts";
import type { Page } from "playwright-core";
import { startDomterm } from "./domterm.ts";
import { run, waitConnectedPanes, waitPaneRow } from "./panes_helpers.ts";

interface AXValue {
  value?: unknown;
}
interface AXNode {
  nodeId: string;
  role?: AXValue;
  name?: AXValue;
  value?: AXValue;
  ignored?: boolean;
  properties?: { name: string; value: AXValue }[];
  childIds?: string[];
}

/** The accessibility tree's nodes that are not ignored. */
async function axNodes(page: Page): Promise<AXNode[]> {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send("Accessibility.getFullAXTree") as {
    nodes: AXNode[];
  };
  await cdp.detach();
  return nodes.filter((n) => !n.ignored);
}

function prop(n: AXNode, name: string): unknown {
  return n.properties?.find((p) => p.name === name)?.value.value;
}

/**
 * Start recording what each pane's live region receives, by pane id (the
 * regions there are now; again: start over).
 */
async function record(page: Page): Promise<void> {
  await page.evaluate(() => {
    const g = globalThis as unknown as { __said: [string, string][] };
    const again = Array.isArray(g.__said);
    g.__said = [];
    if (again) return;
    for (const live of document.querySelectorAll(".dt-live")) {
      const pane = live.closest<HTMLElement>(".dt-pane")?.dataset.pane ?? "";
      new MutationObserver((records) => {
        for (const r of records) {
          for (const n of r.addedNodes) {
            g.__said.push([pane, n.textContent ?? ""]);
          }
        }
      }).observe(live, { childList: true });
    }
  });
}

/** What the live regions got, once they were quiet for `ms`. */
async function settle(page: Page, ms = 1500): Promise<[string, string][]> {
  const said = () =>
    page.evaluate(() =>
      (globalThis as unknown as { __said: [string, string][] }).__said.slice()
    );
  let last = -1;
  let since = Date.now();
  for (;;) {
    const got = await said();
    if (got.length !== last) {
      last = got.length;
      since = Date.now();
    } else if (Date.now() - since >= ms) return got;
    await new Promise((r) => setTimeout(r, 100));
  }
}

Deno.test("e2e a11y panes: tabs, panels and splitters are named in the AX tree; a tab's focus ring is whole; a second pane's output and commands are announced there", async () => {
  const dir = await Deno.makeTempDir({ prefix: "domterm-e2e-a11y-panes-" });
  await Deno.writeTextFile(join(dir, ".bashrc"), "PS1='$ '\n");
  const t = await startDomterm(["bash"], {
    env: { HOME: dir, INPUTRC: "/dev/null", LANG: "C.UTF-8" },
    viewport: { width: 1000, height: 600 },
  });
  const { page } = t;
  try {
    let layout = await waitConnectedPanes(page, 1);
    const first = layout.focus;
    await page.keyboard.press("Control+Shift+T");
    layout = await waitConnectedPanes(page, 2);
    const second = layout.focus;
    await page.keyboard.press("Control+Shift+N");
    layout = await waitConnectedPanes(page, 3);
    const third = layout.focus;
    assert(first !== second && second !== third);
    await waitPaneRow(page, third, "$");
    await page.waitForTimeout(500);

    // The pane that is not the first: its output in its own live region,
    // once, without the echo; the other panes' regions get nothing.
    await record(page);
    await run(page, "echo in-pane-three");
    await waitPaneRow(page, third, "in-pane-three");
    const out = await settle(page);
    assertEquals(out.length, 1, JSON.stringify(out));
    assertEquals(out[0][0], String(third));
    assertMatch(out[0][1], /^in-pane-three\n\$$/);
    await run(page, "true");
    await page.waitForTimeout(1500);
    // The prompt keys and Ctrl+Shift+H in that pane: its commands.
    await record(page);
    await page.keyboard.press("Control+Shift+ArrowUp");
    await page.keyboard.press("Control+Shift+ArrowUp");
    await page.keyboard.press("Control+Shift+H");
    assertEquals(await settle(page, 800), [
      [String(third), "true, exit 0, 0 lines"],
      [String(third), "echo in-pane-three, exit 0, 1 line"],
      [String(third), "echo in-pane-three, exit 0, 1 line:\nin-pane-three"],
    ]);

    // The tree: a named tab list of named tabs, each controlling the panel
    // it names; no control inside a tab (its children are presentational);
    // the separator between the split's two sides says where it is.
    const nodes = await axNodes(page);
    const byId = new Map(nodes.map((n) => [n.nodeId, n]));
    const lists = nodes.filter((n) => n.role?.value === "tablist");
    assertEquals(lists.map((n) => n.name?.value), ["Tabs", "Tabs"]);
    const tabs = nodes.filter((n) => n.role?.value === "tab");
    assertEquals(tabs.length, 3);
    for (const tab of tabs) {
      assertMatch(String(tab.name?.value), /^bash/);
      assertEquals(prop(tab, "keyshortcuts"), "Delete");
      const inside = (n: AXNode): AXNode[] =>
        (n.childIds ?? []).flatMap((id) => {
          const c = byId.get(id);
          return c ? [c, ...inside(c)] : [];
        });
      const nested = inside(tab).filter((n) =>
        ["button", "link", "textbox"].includes(String(n.role?.value))
      );
      assertEquals(nested.map((n) => n.role?.value), [], "nothing nested");
    }
    assertEquals(
      tabs.filter((n) => prop(n, "selected") === true).length,
      2,
      "the shown tab of each tab list is selected",
    );
    const panels = nodes.filter((n) => n.role?.value === "tabpanel");
    // The shown ones (the hidden tab's panel is not in the tree).
    assertEquals(panels.length, 2);
    for (const p of panels) assertMatch(String(p.name?.value), /^bash/);
    const ids = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>(".dt-tab")).map((
        t,
      ) => [
        t.getAttribute("aria-controls"),
        document.getElementById(t.getAttribute("aria-controls") ?? "")
          ?.getAttribute("aria-labelledby") === t.id,
      ])
    );
    assertEquals(ids.length, 3);
    for (const [controls, back] of ids) {
      assert(controls !== null && back, JSON.stringify(ids));
    }
    // One main landmark, the layout (the first terminal's tab is not
    // shown); each terminal shown a region in it.
    assertEquals(
      nodes.filter((n) => n.role?.value === "main").map((n) => n.name?.value),
      ["Terminals"],
    );
    assertEquals(
      nodes.filter((n) =>
        /^Terminal/.test(String(n.name?.value)) &&
        n.role?.value === "region"
      ).length,
      2,
    );
    const seps = nodes.filter((n) => n.role?.value === "separator");
    assertEquals(seps.length, 1);
    assertEquals(seps[0].name?.value, "Pane divider (arrow keys move it)");
    assertEquals(prop(seps[0], "orientation"), "vertical");
    assertEquals(prop(seps[0], "valuemin"), 0);
    assertEquals(prop(seps[0], "valuemax"), 100);
    // aria-valuenow: the node's value (50: the split is even).
    assertEquals(seps[0].value?.value, 50, JSON.stringify(seps[0]));

    // Focus visible: the focused tab's outline lies inside the tab bar
    // (which clips what overflows it), and the splitter's shows.
    for (const scheme of ["dark", "light"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.focus(`.dt-tab[data-pane="${second}"]`);
      await page.keyboard.press("ArrowLeft");
      await page.keyboard.press("ArrowRight");
      const ring = await page.evaluate(() => {
        const tab = document.activeElement as HTMLElement;
        const bar = tab.parentElement!.getBoundingClientRect();
        const r = tab.getBoundingClientRect();
        const cs = getComputedStyle(tab);
        const out = parseFloat(cs.outlineOffset) +
          parseFloat(cs.outlineWidth);
        return {
          role: tab.getAttribute("role"),
          style: cs.outlineStyle,
          inside: r.top - out >= bar.top && r.bottom + out <= bar.bottom &&
            r.left - out >= bar.left && r.right + out <= bar.right,
        };
      });
      assertEquals(ring, { role: "tab", style: "solid", inside: true });
      const dir = Deno.env.get("DT_SCREENSHOT_DIR");
      if (dir) {
        await page.screenshot({ path: join(dir, `panes-${scheme}-tab.png`) });
      }
      await page.focus(".dt-splitter");
      await page.keyboard.press("Shift");
      assertEquals(
        await page.evaluate(() =>
          getComputedStyle(document.activeElement!).outlineStyle
        ),
        "solid",
      );
      if (dir) {
        await page.screenshot({
          path: join(dir, `panes-${scheme}-splitter.png`),
        });
      }
    }
  } finally {
    await t.close();
  }
});
