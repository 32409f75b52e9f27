/**
 * Links end to end: OSC 8 hyperlinks and detected URLs, e-mail addresses
 * and file:line:col references in real output; hovering underlines them,
 * Ctrl+click sends the `open` message and the real server runs the opener
 * (a fake one through DOMTERM_OPENER) with the URL or the resolved path.
 * Plus the text detection itself, table-driven.
 */
import { assert, assertEquals } from "../assert.ts";
import type { Page } from "playwright-core";
import { findTextLinks } from "../../client/links.ts";
import { startDomterm, waitForRow } from "./domterm.ts";

const DETECT: [string, { text: string; target: Record<string, unknown> }[]][] =
  [
    ["see https://example.org/a?b=1.", [
      {
        text: "https://example.org/a?b=1",
        target: { url: "https://example.org/a?b=1" },
      },
    ]],
    ["mail me@example.com now", [
      { text: "me@example.com", target: { url: "mailto:me@example.com" } },
    ]],
    ["src/main.ts:12:5: error", [
      {
        text: "src/main.ts:12:5",
        target: { path: "src/main.ts", line: 12, column: 5 },
      },
    ]],
    ["/etc/hosts:3 and ./a.c:1", [
      { text: "/etc/hosts:3", target: { path: "/etc/hosts", line: 3 } },
      { text: "./a.c:1", target: { path: "./a.c", line: 1 } },
    ]],
    ["at 12:30:00 version 1.2:3 word:4", []],
    ["plain text", []],
  ];

Deno.test("links: detection in text", () => {
  for (const [text, want] of DETECT) {
    const got = findTextLinks(text).map((f) => ({
      text: text.slice(f.start, f.end),
      target: f.target,
    }));
    assertEquals(got, want, text);
  }
});

/** Page coordinates of the middle of cell `col` in the row whose text starts with `prefix`. */
function cellPoint(
  page: Page,
  prefix: string,
  col: number,
): Promise<{ x: number; y: number }> {
  return page.evaluate(([prefix, col]) => {
    const row = Array.from(document.querySelectorAll("#terminal .dt-row"))
      .find((r) => (r.textContent ?? "").startsWith(prefix as string))!;
    const r = row.getBoundingClientRect();
    const w = parseFloat(
      getComputedStyle(document.getElementById("terminal")!).getPropertyValue(
        "--dt-cell-w",
      ),
    );
    return { x: r.left + ((col as number) + 0.5) * w, y: r.top + r.height / 2 };
  }, [prefix, col] as const);
}

/** A URL longer than a row: it wraps onto the next one. */
const LONG = "https://example.net/" + "x".repeat(100) + "/end";

/** Page coordinates of cell `col` in the row after the one whose text starts with `prefix`. */
function nextRowPoint(
  page: Page,
  prefix: string,
  col: number,
): Promise<{ x: number; y: number }> {
  return page.evaluate(([prefix, col]) => {
    const rows = Array.from(document.querySelectorAll("#terminal .dt-row"));
    const i = rows.findIndex((r) =>
      (r.textContent ?? "").startsWith(prefix as string)
    );
    const r = rows[i + 1].getBoundingClientRect();
    const w = parseFloat(
      getComputedStyle(document.getElementById("terminal")!).getPropertyValue(
        "--dt-cell-w",
      ),
    );
    return { x: r.left + ((col as number) + 0.5) * w, y: r.top + r.height / 2 };
  }, [prefix, col] as const);
}

async function readLines(file: string, n: number): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  let lines: string[] = [];
  while (Date.now() < deadline) {
    const text = await Deno.readTextFile(file).catch(() => "");
    lines = text.split("\n").filter((l) => l !== "");
    if (lines.length >= n) return lines;
    await new Promise((r) => setTimeout(r, 50));
  }
  return lines;
}

Deno.test("e2e links: hover underlines, Ctrl+click opens through the server's opener", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  const out = `${dir}/opened`;
  const opener = `${dir}/fake-opener`;
  await Deno.writeTextFile(
    opener,
    `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a" >> '${out}'; done\n`,
  );
  await Deno.chmod(opener, 0o755);
  const line1 =
    "\x1b]8;id=a;https://example.com/osc8\x1b\\LINK8\x1b]8;;\x1b\\" +
    " \x1b]8;;javascript:alert(1)\x1b\\BAD\x1b]8;;\x1b\\ https://example.org/detected";
  const line2 = "err src/app.ts:12:5 here";
  // One link split over two lines, tied by its id.
  const wrap = (t: string) =>
    `\x1b]8;id=w;https://wrap.example/\x1b\\${t}\x1b]8;;\x1b\\`;
  const line3 = `x ${wrap("PART1")}`;
  const line4 = `${wrap("PART2")} y ${wrap("PART3")}`;
  // A link in embedded HTML (OSC 72).
  const line5 =
    `\x1b]72;<p>see <a href="https://embed.example/e">EMBEDLINK</a></p>\x07`;
  await Deno.writeTextFile(
    `${dir}/out`,
    `${line1}\r\n${line2}\r\n${line3}\r\n${line4}\r\n${LONG}\r\n${line5}`,
  );
  const t = await startDomterm([
    "sh",
    "-c",
    `cd '${dir}' && cat out && echo LINKS-DONE && sleep 60`,
  ], { env: { DOMTERM_OPENER: opener } });
  try {
    await waitForRow(t.page, "LINKS-DONE");
    const page = t.page;
    // OSC 8 cells are drawn as links.
    assertEquals(
      await page.evaluate(() =>
        Array.from(document.querySelectorAll("#terminal span.dt-link")).map((
          e,
        ) => e.textContent)
      ),
      ["LINK8", "BAD", "PART1", "PART2", "PART3"],
    );
    // Hovering one part of an id= link underlines every part.
    // The rows may still move when the embedded HTML below them lays out:
    // point again until the pointer is over the link.
    for (let attempt = 0;; attempt++) {
      const part1 = await cellPoint(page, "x PART1", 3);
      await page.mouse.move(part1.x, part1.y);
      try {
        await page.waitForFunction(
          () => document.querySelectorAll(".dt-link-hover").length === 3,
          undefined,
          { timeout: 2000 },
        );
        break;
      } catch (e) {
        if (attempt === 4) throw e;
        await page.mouse.move(0, 0);
      }
    }
    assertEquals(
      await page.evaluate(() =>
        Array.from(document.querySelectorAll<HTMLElement>(".dt-link-hover"))
          .map((h) => `${h.closest(".dt-row")!.textContent}|${h.style.left}`)
          .sort()
      ),
      [
        "PART2 y PART3|calc(0 * var(--dt-cell-w))",
        "PART2 y PART3|calc(8 * var(--dt-cell-w))",
        "x PART1|calc(2 * var(--dt-cell-w))",
      ],
    );
    // Hover over the detected URL: an underline of its length.
    const url = await cellPoint(page, "LINK8", 14);
    await page.mouse.move(url.x, url.y);
    await page.waitForSelector(".dt-row .dt-link-hover");
    const hover = await page.evaluate(() => {
      const h = document.querySelector<HTMLElement>(".dt-link-hover")!;
      const w = parseFloat(
        getComputedStyle(document.getElementById("terminal")!)
          .getPropertyValue("--dt-cell-w"),
      );
      return {
        cells: Math.round(h.getBoundingClientRect().width / w),
        href: h.dataset.href,
        pointer: getComputedStyle(document.getElementById("terminal")!).cursor,
      };
    });
    assertEquals(hover, {
      cells: "https://example.org/detected".length,
      href: "https://example.org/detected",
      pointer: "pointer",
    });
    // A detected URL that wraps: hovering its second row underlines both rows.
    const long = await nextRowPoint(page, "https://example.net/", 2);
    await page.mouse.move(long.x, long.y);
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll<HTMLElement>(".dt-link-hover"))
        .filter((h) => h.dataset.href?.startsWith("https://example.net/"))
        .length === 2
    );
    // A plain click opens nothing.
    const osc8 = await cellPoint(page, "LINK8", 2);
    await page.mouse.click(osc8.x, osc8.y);
    // Nor on a link in embedded HTML (and the page stays), whose hover
    // says how to open it.
    const embedded = page.locator(".dt-embed a", { hasText: "EMBEDLINK" });
    await embedded.hover();
    await page.waitForFunction(() =>
      document.querySelector(".dt-embed a")?.getAttribute("title") ===
        "https://embed.example/e\n(Ctrl+click to open)"
    );
    await embedded.click();
    assert(page.url().startsWith("http://127.0.0.1"), page.url());
    // Ctrl+click: OSC 8, the javascript: one (ignored), detected URL, file reference.
    const bad = await cellPoint(page, "LINK8", 7);
    const file = await cellPoint(page, "err src", 8);
    await page.keyboard.down("Control");
    for (const p of [osc8, bad, url, file, long]) {
      await page.mouse.click(p.x, p.y);
    }
    await embedded.click();
    await page.keyboard.up("Control");
    const lines = await readLines(out, 5);
    await page.waitForTimeout(300);
    assertEquals(await readLines(out, 5), lines, "nothing more arrived");
    assertEquals(
      lines.sort(),
      [
        `${dir}/src/app.ts`,
        "https://embed.example/e",
        "https://example.com/osc8",
        "https://example.org/detected",
        LONG,
      ].sort(),
    );
    assert(!lines.some((l) => l.includes("javascript")));
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("e2e links: an opener that fails says so in the window", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  const opener = `${dir}/failing-opener`;
  await Deno.writeTextFile(opener, "#!/bin/sh\nexit 3\n");
  await Deno.chmod(opener, 0o755);
  const t = await startDomterm([
    "sh",
    "-c",
    "echo 'go https://example.org/x now'; echo OPEN-READY; sleep 60",
  ], { env: { DOMTERM_OPENER: opener } });
  try {
    const page = t.page;
    await waitForRow(page, "OPEN-READY");
    const p = await cellPoint(page, "go https", 5);
    await page.keyboard.down("Control");
    await page.mouse.click(p.x, p.y);
    await page.keyboard.up("Control");
    await page.waitForFunction(
      () => document.querySelector<HTMLElement>(".dt-status:not([hidden])"),
    );
    assertEquals(
      await page.textContent(".dt-status"),
      `Could not open it: ${opener} failed (exit status 3)`,
    );
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});
