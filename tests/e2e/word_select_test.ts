/**
 * Double-click selects a terminal word: `root@vm:/tmp/x-y.z` whole, not
 * the `@` the browser would stop at; spaces and quotes still end it.
 */
import { assertEquals } from "../assert.ts";
import { startDomterm, waitForRow } from "./domterm.ts";
import { wordAround } from "../../client/word_select.ts";

Deno.test("word select: the word around an index", () => {
  const cases: [string, number, string][] = [
    ["user root@vm:/tmp/x-y.z end", 9, "root@vm:/tmp/x-y.z"],
    ["user root@vm:/tmp/x-y.z end", 5, "root@vm:/tmp/x-y.z"],
    ["see 'https://a.example/p?q=1#f' now", 10, "https://a.example/p?q=1#f"],
    ["a (b) c", 3, "b"],
    ["a  b", 2, ""],
    ["日本語 text", 1, "日本語"],
  ];
  for (const [text, at, want] of cases) {
    const [s, e] = wordAround(text, at);
    assertEquals(text.slice(s, e), want, `${text} @${at}`);
  }
});

Deno.test("e2e word select: double-click on the @ of root@vm selects the whole name", async () => {
  const t = await startDomterm([
    "sh",
    "-c",
    "echo 'user root@vm:/tmp/x-y.z end'; echo WORD-READY; exec sleep 60",
  ]);
  try {
    await waitForRow(t.page, "WORD-READY");
    const box = await t.page.evaluate(() => {
      const row = [...document.querySelectorAll(".dt-row")].find((r) =>
        (r.textContent ?? "").includes("root@vm")
      )!;
      const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const i = (n.textContent ?? "").indexOf("@");
        if (i < 0) continue;
        const r = document.createRange();
        r.setStart(n, i);
        r.setEnd(n, i + 1);
        const b = r.getBoundingClientRect();
        return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
      }
      throw new Error("no @");
    });
    await t.page.mouse.dblclick(box.x, box.y);
    assertEquals(
      await t.page.evaluate(() => getSelection()?.toString()),
      "root@vm:/tmp/x-y.z",
    );
  } finally {
    await t.close();
  }
});
