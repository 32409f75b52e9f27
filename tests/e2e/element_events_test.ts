/**
 * Events from printed elements end to end (docs/interactive.md): a real
 * program (tests/e2e/fixtures/events/clicker.py) in a real bash on a real
 * PTY turns the mode ?7101 on and prints a button, a lazy inspector, a
 * checkbox, a text input, a select and a link; clicks in headless Chromium
 * deliver exactly the expected lines to it, and its OSC 721 answer
 * replaces the inspector's children. With the mode off, after the program
 * exited, and from elements another program printed, a click sends
 * nothing. The interactive payloads of the XSS corpus run nothing, load
 * nothing, navigate nowhere and reach no program that did not ask.
 */
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { assert, assertEquals } from "../assert.ts";
import { startDomterm, waitForRow } from "./domterm.ts";
import { XSS_CORPUS } from "./fixtures/xss_corpus.ts";

const CLICKER = new URL("./fixtures/events/clicker.py", import.meta.url)
  .pathname;

/** The line a program reads for an event. */
const line = (json: object) => `\x1b]7101;${JSON.stringify(json)}\x07\n`;

/** The file's text ("" when it does not exist yet). */
async function read(path: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return "";
  }
}

/** Wait until `path` holds `want`; fail with what it holds. */
async function waitFor(path: string, want: string, ms = 10_000) {
  const end = Date.now() + ms;
  let got = "";
  while (Date.now() < end) {
    got = await read(path);
    if (got === want) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assertEquals(got, want, path);
}

/** The `n`th (from 0; negative: from the end) `.clicker` fragment's element `sel`. */
function nth(page: Page, n: number, sel: string) {
  return page.locator(".dt-embed .clicker").nth(n).locator(sel);
}

Deno.test("e2e element events: clicks reach the program that asked, and only it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "domterm-e2e-events-" });
  await Deno.writeTextFile(join(dir, ".bashrc"), "PS1='$ '\n");
  const t = await startDomterm(["bash"], {
    env: { HOME: dir, INPUTRC: "/dev/null", LANG: "C.UTF-8" },
    viewport: { width: 900, height: 700 },
  });
  const page = t.page;
  const run = async (cmd: string, row: string) => {
    await page.keyboard.type(cmd);
    await page.keyboard.press("Enter");
    await waitForRow(page, row, 20_000);
  };
  const log = (name: string) => join(dir, name);
  const live = () =>
    page.evaluate(() =>
      // deno-lint-ignore no-explicit-any
      (globalThis as any).domtermInspect.term.modes.elementEvents as boolean
    );
  try {
    await waitForRow(page, "$");

    // 1. The mode on: every kind of element, exactly one line each.
    await run(`python3 ${CLICKER} ${log("a")}`, "READY a");
    const cursor = await nth(page, 0, "button").evaluate((b) =>
      getComputedStyle(b).cursor
    );
    assertEquals(cursor, "pointer");
    await nth(page, 0, "button").click();
    const go = line({ name: "go", key: null, event: "click", value: null });
    await waitFor(log("a"), go);
    await nth(page, 0, "summary").click();
    const open = line({
      name: "inspect",
      key: "root",
      event: "toggle",
      value: "open",
    });
    await waitFor(log("a"), go + open);
    // The answer (OSC 721) replaced the inspector's children; it is open.
    await page.waitForFunction(() =>
      document.querySelector(".clicker details .child")?.textContent ===
        "child of root"
    );
    assert(
      await nth(page, 0, "details").evaluate((d) => d.hasAttribute("open")),
    );
    let want = go + open;
    await nth(page, 0, "input[type=checkbox]").click();
    want += line({ name: "agree", key: null, event: "change", value: true });
    await waitFor(log("a"), want);
    await nth(page, 0, "input[type=text]").click();
    await page.keyboard.type("bob");
    await page.keyboard.press("Enter");
    want += line({ name: "who", key: null, event: "change", value: "bob" });
    await waitFor(log("a"), want);
    await nth(page, 0, "select").selectOption("b");
    want += line({ name: "pick", key: null, event: "change", value: "b" });
    await waitFor(log("a"), want);
    const url = page.url();
    await nth(page, 0, "a").click();
    want += line({ name: "more", key: null, event: "click", value: null });
    await waitFor(log("a"), want);
    assertEquals(
      page.url(),
      url,
      "a link with data-dt-event navigates nowhere",
    );
    // A reload attaches to the session again from a snapshot: the elements
    // are still there, still live, and the answered inspector still open.
    await page.reload();
    await page.waitForFunction(() =>
      // deno-lint-ignore no-explicit-any
      (globalThis as any).domtermInspect?.connected &&
      document.querySelector(".dt-embed .clicker details[open] .child") !== null
    );
    await nth(page, 0, "button").click();
    want += go;
    await waitFor(log("a"), want);
    // Closing the inspector says so.
    await nth(page, 0, "details > summary").click();
    want += line({
      name: "inspect",
      key: "root",
      event: "toggle",
      value: "closed",
    });
    await waitFor(log("a"), want);
    // The fragment is drawn again (its click counter replaced by key): the
    // inspector the user closed stays closed.
    await nth(page, 0, "button").click();
    want += go;
    await waitFor(log("a"), want);
    await page.waitForFunction(() =>
      document.querySelector('.clicker [replace-key="count"]')?.textContent ===
        "3"
    );
    assert(
      !(await nth(page, 0, "details").evaluate((d) => d.hasAttribute("open"))),
      "the closed inspector opened again",
    );
    await page.locator(".dt-input").focus();
    await page.keyboard.type("q");
    await waitForRow(page, "$");

    // 2. It exited without turning the mode off; cat reads now. A click on
    // its button reaches nothing, and the mode goes off everywhere.
    assert(await live(), "the page still thinks the mode is on");
    await run(`cat > ${log("cat")}`, "");
    await page.waitForTimeout(500);
    await nth(page, 0, "button").click();
    await page.waitForFunction(() =>
      // deno-lint-ignore no-explicit-any
      !(globalThis as any).domtermInspect.term.modes.elementEvents
    );
    await page.waitForTimeout(500);
    assertEquals(
      await nth(page, 0, "button").evaluate((b) => getComputedStyle(b).cursor),
      "default",
    );
    await page.locator(".dt-input").focus();
    await page.keyboard.press("Control+c");
    await waitForRow(page, "$");
    assertEquals(await read(log("cat")), "", "cat got an event");

    // 3. One program prints with the mode on and exits; the next one sets
    // it again: the first one's elements are inert, the second's live.
    await run(
      `python3 ${CLICKER} ${log("b1")} --exit; python3 ${CLICKER} ${log("b2")}`,
      "READY b2",
    );
    await nth(page, 1, "button").click();
    await nth(page, 1, "summary").click();
    assertEquals(await read(log("b2")), "", "an element of another program");
    // b2's own button, after them, is the barrier: its line is all the log
    // holds (events reach the program in order), so the two clicks before
    // it sent nothing.
    await nth(page, 2, "button").click();
    await waitFor(log("b2"), go);
    assertEquals(await read(log("b2")), go, "an element of another program");
    await page.locator(".dt-input").focus();
    await page.keyboard.type("q");
    await waitForRow(page, "$");

    // 4. The mode off: nothing is sent, nothing looks clickable.
    await run(`python3 ${CLICKER} ${log("c")} --off`, "READY c");
    await nth(page, 3, "button").click();
    await nth(page, 3, "summary").click();
    await nth(page, 3, "input[type=checkbox]").click();
    assertEquals(
      await nth(page, 3, "button").evaluate((b) => getComputedStyle(b).cursor),
      "default",
    );
    // The q that ends it is the barrier: it reaches the program after
    // anything the clicks sent, which the program logs before it exits.
    await page.locator(".dt-input").focus();
    await page.keyboard.type("q");
    await waitForRow(page, "$");
    assertEquals(await read(log("c")), "", "events with the mode off");
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("e2e element events: the XSS corpus's interactive payloads run nothing and reach no program that did not ask", async () => {
  const dir = await Deno.makeTempDir({ prefix: "domterm-e2e-events-xss-" });
  await Deno.writeTextFile(join(dir, ".bashrc"), "PS1='$ '\n");
  const t = await startDomterm(["bash"], {
    env: { HOME: dir, INPUTRC: "/dev/null", LANG: "C.UTF-8" },
    viewport: { width: 900, height: 700 },
  });
  const page = t.page;
  const origin = new URL(page.url()).origin;
  const requests: string[] = [];
  page.on("request", (req) => {
    const u = new URL(req.url());
    if (u.protocol === "data:" || u.protocol === "blob:") return;
    if (u.origin === origin) return;
    requests.push(req.url());
  });
  await page.route((u) => u.origin !== origin, (route) => route.abort());
  await page.evaluate(() => {
    const g = globalThis as unknown as { __hits: string[]; __xss(): void };
    g.__hits = [];
    g.__xss = () => g.__hits.push("hit");
  });
  const EXT = "http://evil.example";
  let corpus = "";
  for (const [i, p] of XSS_CORPUS.entries()) {
    if (!p.name.startsWith("dt-event")) continue;
    corpus += `\x1b]72;<div class="xss">` +
      p.html.replaceAll("{LEAK}", `${EXT}/leak/${i}`).replaceAll("{EXT}", EXT) +
      `</div>\x07\r\n`;
  }
  await Deno.writeTextFile(join(dir, "corpus"), corpus);
  /**
   * Whether something else (the sanitizer's ⚠ mark over a link it
   * stripped) would take a click at the middle of `el`: a click there
   * never reaches it, and Playwright would retry it for its whole timeout.
   */
  const covered = async (el: Locator) => {
    await el.scrollIntoViewIfNeeded({ timeout: 2000 }).catch(() => {});
    return await el.evaluate((e) => {
      const r = e.getBoundingClientRect();
      const hit = document.elementFromPoint(
        r.x + r.width / 2,
        r.y + r.height / 2,
      );
      return hit !== null && !e.contains(hit);
    });
  };
  /** Click, toggle and change everything in the `.xss` fragments. */
  const poke = async () => {
    const url = page.url();
    const els = page.locator(
      ".dt-embed .xss :is(button, a, summary, input, select, div)",
    );
    for (let i = 0; i < await els.count(); i++) {
      const el = els.nth(i);
      const tag = await el.evaluate((e) => e.localName);
      if (tag === "select") {
        await el.selectOption({ index: 0 }).catch(() => {});
      } else if (tag === "input") {
        await el.click({ timeout: 2000 }).catch(() => {});
        await page.keyboard.type("x");
        await page.keyboard.press("Enter");
      } else if (!await covered(el)) {
        await el.click({ timeout: 2000 }).catch(() => {});
      }
    }
    assertEquals(page.url(), url, "navigated");
  };
  const run = async (cmd: string, row: string) => {
    await page.locator(".dt-input").focus();
    await page.keyboard.type(cmd);
    await page.keyboard.press("Enter");
    await waitForRow(page, row, 20_000);
  };
  try {
    await waitForRow(page, "$");
    // Printed by cat (the mode off), while a program that did not ask reads.
    await run(
      `cat ${dir}/corpus; python3 ${CLICKER} ${dir}/off --off`,
      "READY off",
    );
    await poke();
    // The q that ends it is the barrier: it reaches the program after
    // anything the pokes sent, which the program logs before it exits.
    await page.locator(".dt-input").focus();
    await page.keyboard.type("q");
    await waitForRow(page, "$");
    assertEquals(await read(join(dir, "off")), "", "input without asking");
    // Printed by a program that asked: what it gets are event lines only.
    await run(
      `python3 ${CLICKER} ${dir}/on --corpus ${dir}/corpus`,
      "READY on",
    );
    await poke();
    // The q barrier again: what the pokes sent is in the log once it ends.
    await page.locator(".dt-input").focus();
    await page.keyboard.type("q");
    await waitForRow(page, "$");
    const got = (await read(join(dir, "on"))).split("\n").filter((l) => l);
    assert(got.length > 0, "the program that asked got nothing");
    for (const l of got) {
      assert(
        l.startsWith("\x1b]7101;{") && l.endsWith("}\x07"),
        JSON.stringify(l),
      );
      JSON.parse(l.slice(7, -1));
    }
    const hits = await page.evaluate(() =>
      (globalThis as unknown as { __hits: string[] }).__hits
    );
    assertEquals(hits, [], "script ran");
    assertEquals(requests, [], "network requests");
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("e2e element events: domterm inspect opens what is clicked, 100 at a time", async () => {
  const dir = await Deno.makeTempDir({ prefix: "domterm-e2e-inspect-" });
  const file = join(dir, "doc.json");
  await Deno.writeTextFile(
    file,
    JSON.stringify({
      name: "doc",
      list: Array.from({ length: 150 }, (_, i) => ({ i, tag: `t${i}` })),
    }),
  );
  const main = new URL("../../main.ts", import.meta.url).pathname;
  const t = await startDomterm([
    Deno.execPath(),
    "run",
    "-A",
    main,
    "inspect",
    file,
  ]);
  const page = t.page;
  try {
    await waitForRow(
      page,
      "domterm inspect: open what you want to see; q quits",
      30_000,
    );
    // The top level is open: its "list" is a closed inspector, nothing in it.
    const list = page.locator(".dt-json details details").first();
    assertEquals(
      await page.locator(".dt-json details details details").count(),
      0,
    );
    await list.locator("> summary").click();
    // The answer: 100 items (closed inspectors) and a "more" button.
    await page.waitForFunction(() =>
      document.querySelectorAll(".dt-json details details details").length ===
        100
    );
    await page.locator(".dt-json button", { hasText: "50 more" }).click();
    await page.waitForFunction(() =>
      document.querySelectorAll(".dt-json details details details").length ===
        150
    );
    // An item opens too.
    await page.locator(".dt-json details details details").nth(120).locator(
      "> summary",
    )
      .click();
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll(".dt-json .dt-json-leaf")).some((
        e,
      ) => e.textContent === 'tag: "t120"')
    );
  } finally {
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
});
