/**
 * Restore after a crash, end to end: a bash session (shell integration
 * on) prints styled text, an OSC 72 table, an image (OSC 1337 File=), a
 * link, a failed command, a folded DomTerm span, a command folded by a
 * click on its button, changes directory and
 * starts a flood; the server is killed with SIGKILL mid-flood; the next
 * `domterm` brings the session back by itself, and a window attached to
 * it shows the scrollback as it was drawn (model and DOM), the divider,
 * and a new shell that answers `pwd` in the same directory. A screenshot
 * of the restored window goes to $DT_SCREENSHOT_DIR (default: a temporary
 * directory).
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { spawnServer, startDomterm, waitForRow } from "./domterm.ts";
import { request } from "../../server/control.ts";
import { seqFoldState } from "./fold_state.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

/** The DomTerm span's button and its rows as the window shows them (in the page). */
function spanState(): { expanded: string | null; shown: string[] } {
  const rows = Array.from(
    document.querySelectorAll<HTMLElement>("#terminal .dt-row"),
  );
  const button = rows.find((r) => (r.textContent ?? "").trimEnd() === "- head")
    ?.querySelector(".dt-span-button");
  return {
    expanded: button?.getAttribute("aria-expanded") ?? null,
    shown: rows.filter((r) =>
      !r.hidden && !r.querySelector(".dt-fold-summary") &&
      ["one", "two", "tail"].includes((r.textContent ?? "").trimEnd())
    ).map((r) => (r.textContent ?? "").trimEnd()),
  };
}

Deno.test("e2e journal: kill -9 mid-flood, the next domterm restores the session as it was drawn", async () => {
  const dir = Deno.realPathSync(
    await Deno.makeTempDir({ prefix: "domterm-e2e-journal-" }),
  );
  const run = join(dir, "run");
  Deno.mkdirSync(run, { mode: 0o700 });
  await Deno.writeTextFile(join(dir, ".bashrc"), `PS1='$ '\n`);
  const env = {
    HOME: dir,
    INPUTRC: "/dev/null",
    LANG: "C.UTF-8",
    DOMTERM_RUNTIME_DIR: run,
  };
  const where = join(dir, "some where");
  const t = await startDomterm(["bash"], {
    env,
    viewport: { width: 800, height: 480 },
  });
  let page = t.page;
  const type = async (cmd: string, row: string, timeout = 15_000) => {
    await page.keyboard.type(cmd);
    await page.keyboard.press("Enter");
    await waitForRow(page, row, timeout);
  };
  let second: Deno.ChildProcess | null = null;
  try {
    await waitForRow(page, "$");
    const png = await page.evaluate(() => {
      const c = document.createElement("canvas");
      c.width = 40;
      c.height = 24;
      const ctx = c.getContext("2d")!;
      ctx.fillStyle = "#3a7";
      ctx.fillRect(0, 0, 40, 24);
      return c.toDataURL("image/png");
    });
    await Deno.writeTextFile(
      join(dir, "a.b64"),
      png.slice(png.indexOf(",") + 1),
    );
    await type(`mkdir -p '${where}'; cd '${where}'`, "$");
    await type("printf '\\e[1;31mRED\\e[0m plain\\n'", "RED plain");
    await type(
      `printf '\\e]72;<table class="t72"><tr><td>cell-a</td><td>cell-b</td></tr></table>\\a\\n'; echo TABLE-DONE`,
      "TABLE-DONE",
    );
    await type(
      `printf '\\e]1337;File=inline=1:%s\\a\\n' "$(cat ../a.b64)"; echo IMG-DONE`,
      "IMG-DONE",
    );
    await type(
      "printf '\\e]8;;https://example.com/x\\e\\\\LINK\\e]8;;\\e\\\\\\n'",
      "LINK",
    );
    await type("false", "$");
    await type(
      "printf '\\033[16u-\\033[17u head\\n\\033[83;2uone\\ntwo\\n\\033[83;0utail\\n'",
      "tail",
    );
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll<HTMLImageElement>("img.dt-img"))
        .some((i) => i.complete && i.naturalWidth === 40)
    );
    const before = await page.evaluate(spanState);
    // A command folded by hand (the session's: the journal keeps it).
    await type("seq 3", "3");
    await page.locator(".dt-row", { hasText: "$ seq 3" })
      .locator(".dt-fold-button").click();
    assertEquals(
      await page.evaluate(seqFoldState, 3),
      { expanded: "false", shown: [] },
      "folded by the click",
    );
    // A flood (paced: the history keeps it and what came before), killed
    // in the middle with the server.
    await type(
      "i=0; while :; do echo flood-$i; i=$((i+1)); sleep 0.02; done",
      "flood-20",
    );
    await new Promise((r) => setTimeout(r, 1500));
    t.child.kill("SIGKILL");
    await t.child.status;
    await page.close();

    // The next domterm: the session is back by itself.
    const next = await spawnServer(["--", "bash"], env);
    second = next.child;
    const sock = join(run, "server.sock");
    let sessions: Any[] = [];
    for (let i = 0; i < 200 && sessions.length === 0; i++) {
      sessions = (await request(sock, { op: "list" }))?.sessions ?? [];
      if (sessions.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    assertEquals(sessions.length, 1);
    assertEquals(sessions[0].command, ["bash"]);
    page = await t.browser.newPage({ viewport: { width: 800, height: 480 } });
    page.on("pageerror", (e) => console.error("page error:", e.message));
    await page.goto(`${next.url}&session=${sessions[0].id}`);
    await page.waitForFunction(() =>
      "domtermInspect" in globalThis &&
      (globalThis as Any).domtermInspect.connected
    );
    await waitForRow(page, "$");
    const model = await page.evaluate(() => {
      const term = (globalThis as Any).domtermInspect.term;
      const b = term.normalBuffer;
      const lines: string[] = [];
      for (let i = 0; i < b.length; i++) {
        lines.push(b.getLine(i).toString(true));
      }
      return {
        lines,
        snapshot: JSON.stringify(term.snapshot()),
        groups: (globalThis as Any).domtermInspect.groups().map((g: Any) => ({
          exit: g.exitCode,
        })),
      };
    });
    const text = model.lines.join("\n");
    assert(text.includes("RED plain"), text.slice(0, 400));
    assert(text.includes("LINK"));
    assert(model.snapshot.includes("https://example.com/x"), "the link");
    assert(model.snapshot.includes('class=\\"t72\\"'), "the OSC 72 table");
    const floods = [...text.matchAll(/^flood-(\d+)$/gm)].map((m) => +m[1]);
    assert(floods.length > 20, `${floods.length} flood lines`);
    assertEquals(floods, floods.map((_, i) => i), "no gap in the flood");
    assertMatch(
      text,
      /── session restored: the server stopped at \d\d:\d\d:\d\d ──/,
    );
    assert(
      model.groups.some((g: Any) => g.exit === 1),
      `the failed command's mark: ${JSON.stringify(model.groups)}`,
    );
    // Drawn: the styles, the table, the image, the folded span, the divider.
    await page.evaluate(() => (globalThis as Any).domtermInspect.scrollToTop());
    await page.waitForFunction(() =>
      document.querySelector("table.t72") !== null &&
      Array.from(document.querySelectorAll<HTMLImageElement>("img.dt-img"))
        .some((i) => i.complete && i.naturalWidth === 40)
    );
    assertEquals(await page.evaluate(spanState), before, "the span as it was");
    assertEquals(
      await page.evaluate(seqFoldState, 3),
      { expanded: "false", shown: [] },
      "the command folded by hand comes back folded",
    );
    const drawn = await page.evaluate(() => {
      const rows = Array.from(
        document.querySelectorAll<HTMLElement>(".dt-row"),
      );
      const row = (t: string) =>
        rows.find((r) => (r.textContent ?? "").trimEnd() === t);
      const red = row("RED plain")?.querySelector("span");
      const span = row("- head")?.querySelector(".dt-span-button");
      return {
        redColor: red ? getComputedStyle(red).color : "",
        redWeight: red ? getComputedStyle(red).fontWeight : "",
        plainColor: row("RED plain")
          ? getComputedStyle(row("RED plain")!).color
          : "",
        spanExpanded: span?.getAttribute("aria-expanded") ?? null,
        cell: document.querySelector("table.t72 td")?.textContent,
      };
    });
    assert(
      drawn.redColor !== "" && drawn.redColor !== drawn.plainColor,
      JSON.stringify(drawn),
    );
    assert(Number(drawn.redWeight) >= 600, JSON.stringify(drawn));
    assertEquals(drawn.spanExpanded, "false", "the span comes back folded");
    assertEquals(drawn.cell, "cell-a");
    await page.evaluate(() =>
      (globalThis as Any).domtermInspect.scrollToBottom()
    );
    await waitForRow(
      page,
      (await page.evaluate(() =>
        (globalThis as Any).domtermInspect.screenText().find((l: string) =>
          l.startsWith("── session restored")
        )
      )) ?? "── session restored",
    );
    // A new shell, in the same directory.
    await page.evaluate(() => (globalThis as Any).domtermInspect.focus());
    await type("pwd", where);
    const shots = Deno.env.get("DT_SCREENSHOT_DIR") ?? dir;
    await page.screenshot({ path: join(shots, "journal-restored.png") });
    console.log(`screenshot: ${join(shots, "journal-restored.png")}`);
  } finally {
    await t.browser.close();
    if (second) {
      try {
        second.kill("SIGTERM");
      } catch { /* gone */ }
      await second.status;
    }
  }
});
