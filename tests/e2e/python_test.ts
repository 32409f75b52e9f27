/**
 * The Python integration in a real window (docs/python.md): matplotlib's
 * `plt.show()` under domterm's backend, a pandas DataFrame at the plain
 * `python3` REPL with the display hook (through PYTHONSTARTUP), and IPython
 * with the extension drawing a plot. Debian's python3 and its packages
 * (scripts/provision_tests.ts). Set DT_SHOT_DIR to keep screenshots.
 */
import { assert, assertEquals } from "../assert.ts";
import type { Page } from "playwright-core";
import { type Running, startDomterm, waitForRow } from "./domterm.ts";
import type { Inspected } from "../../client/inspect.ts";

const PYPATH = new URL("../../integrations/python", import.meta.url).pathname;
const PYTHON = "/usr/bin/python3";

async function shot(page: Page, name: string): Promise<void> {
  const dir = Deno.env.get("DT_SHOT_DIR");
  if (dir) await page.screenshot({ path: `${dir}/python-${name}.png` });
}

/** Python's own state (matplotlib's font cache, IPython's profile) in `dir`. */
function pyEnv(dir: string, more: Record<string, string> = {}) {
  return {
    PYTHONPATH: PYPATH,
    PYTHONDONTWRITEBYTECODE: "1",
    MPLCONFIGDIR: `${dir}/mpl`,
    IPYTHONDIR: `${dir}/ipython`,
    HOME: dir,
    ...more,
  };
}

/** The inline images of the page: type, natural and shown size. */
function images(page: Page) {
  return page.evaluate(() =>
    Array.from(
      document.querySelectorAll<HTMLImageElement>(".dt-image img.dt-img"),
    ).filter((i) => i.complete && i.naturalWidth > 0).map((i) => {
      const b = i.getBoundingClientRect();
      return {
        type: i.src.slice(5, i.src.indexOf(";")),
        natural: [i.naturalWidth, i.naturalHeight],
        shown: [Math.round(b.width), Math.round(b.height)],
      };
    })
  );
}

async function waitForImages(page: Page, n: number, timeout = 60_000) {
  await page.waitForFunction(
    (n) =>
      Array.from(
        document.querySelectorAll<HTMLImageElement>(".dt-image img.dt-img"),
      ).filter((i) => i.complete && i.naturalWidth > 0).length >= n,
    n,
    { timeout },
  );
}

async function typeLine(t: Running, line: string): Promise<void> {
  await t.page.keyboard.type(line);
  await t.page.keyboard.press("Enter");
}

Deno.test("e2e python: plt.plot(); plt.show() under the domterm backend shows the plot inline", async () => {
  const dir = await Deno.makeTempDir();
  const t = await startDomterm([
    "sh",
    "-c",
    `${PYTHON} -c 'import matplotlib.pyplot as plt; plt.plot([1, 2, 3]); ` +
    `plt.show(); print("PLOT-DONE")'; exec cat`,
  ], {
    env: pyEnv(dir, { MPLBACKEND: "module://domterm.matplotlib_backend" }),
    viewport: { width: 900, height: 700 },
  });
  try {
    await waitForRow(t.page, "PLOT-DONE", 90_000);
    await waitForImages(t.page, 1);
    await shot(t.page, "matplotlib");
    // Drawn at twice the dpi, shown at the figure's size: 640x480.
    assertEquals(await images(t.page), [
      { type: "image/png", natural: [1280, 960], shown: [640, 480] },
    ]);
    // Below the plot, its own line: the text printed after it.
    const below = await t.page.evaluate(() => {
      const img = document.querySelector(".dt-image img.dt-img")!;
      const rows = Array.from(document.querySelectorAll("#terminal .dt-row"));
      const done = rows.find((r) => r.textContent?.trim() === "PLOT-DONE")!;
      return done.getBoundingClientRect().top >=
        img.getBoundingClientRect().bottom - 1;
    });
    assert(below, "PLOT-DONE is below the plot");
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("e2e python: a pandas DataFrame at the plain REPL shows as a table (PYTHONSTARTUP hook)", async () => {
  const dir = await Deno.makeTempDir();
  const t = await startDomterm([PYTHON, "-q"], {
    env: pyEnv(dir, { PYTHONSTARTUP: `${PYPATH}/domterm/startup.py` }),
    viewport: { width: 900, height: 600 },
  });
  try {
    await waitForRow(t.page, ">>>", 30_000);
    await typeLine(t, "import pandas as pd");
    await t.page.waitForFunction(
      () =>
        (globalThis as unknown as Inspected).domtermInspect.screenText()
          .filter((l) => l.startsWith(">>>")).length === 2,
      undefined,
      { timeout: 60_000 },
    );
    await typeLine(
      t,
      'pd.DataFrame({"name": ["alpha", "beta"], "n": [1, 22]})',
    );
    await t.page.waitForSelector(".dt-embed table", { timeout: 60_000 });
    await typeLine(t, "6 * 7");
    await waitForRow(t.page, "42", 20_000);
    await shot(t.page, "pandas");
    const table = await t.page.evaluate(() => {
      const tb = document.querySelector(".dt-embed table")!;
      const cells = (sel: string) =>
        Array.from(tb.querySelectorAll(sel)).map((c) => c.textContent?.trim());
      const box = tb.getBoundingClientRect();
      return {
        head: cells("thead th"),
        body: cells("tbody tr").length,
        data: cells("tbody td"),
        visible: box.width > 50 && box.height > 30,
      };
    });
    assertEquals(table, {
      head: ["", "name", "n"],
      body: 2,
      data: ["alpha", "1", "beta", "22"],
      visible: true,
    });
    // Only the table: no text repr of the frame, no notice of removed parts
    // (pandas' <style> is left out).
    const outside = await t.page.evaluate(() =>
      Array.from(document.querySelectorAll("#terminal .dt-row")).map((r) => {
        const copy = r.cloneNode(true) as HTMLElement;
        copy.querySelectorAll(".dt-embed").forEach((e) => e.remove());
        return copy.textContent ?? "";
      }).join("\n")
    );
    assert(!/0\s+alpha\s+1/.test(outside), outside);
    assertEquals(
      await t.page.evaluate(() =>
        document.querySelectorAll(".dt-html-partial")
          .length
      ),
      0,
    );
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("e2e python: IPython with the extension shows a plot inline", async () => {
  const dir = await Deno.makeTempDir();
  const t = await startDomterm([
    "/usr/bin/ipython3",
    "--no-banner",
    "--colors=NoColor",
    "--ext=domterm.ipython",
  ], {
    env: pyEnv(dir),
    viewport: { width: 900, height: 700 },
  });
  try {
    await waitForRow(t.page, "In [1]:", 90_000);
    await typeLine(t, "import matplotlib.pyplot as plt");
    await waitForRow(t.page, "In [2]:", 60_000);
    await typeLine(t, "plt.plot([3, 1, 2]); plt.show()");
    await waitForImages(t.page, 1, 60_000);
    await waitForRow(t.page, "In [3]:", 60_000);
    await shot(t.page, "ipython");
    assertEquals(await images(t.page), [
      { type: "image/png", natural: [1280, 960], shown: [640, 480] },
    ]);
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});
