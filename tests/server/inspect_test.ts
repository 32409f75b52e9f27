/**
 * `domterm inspect` (server/commands/inspect.ts): the top level printed
 * open, containers as closed lazy inspectors, a node's children as the
 * answer to its "open" toggle, pages of 100 behind "more" buttons, and
 * the file's problems said. (Clicking in Chromium: tests/e2e/inspect_test.ts.)
 */
import { assert, assertEquals, assertRejects } from "../assert.ts";
import { JsonInspector, readJson } from "../../server/commands/inspect.ts";
import type { ElementEvent } from "../../core/rich_output.ts";
import { LazyJson, type Span } from "../../server/commands/lazy_json.ts";

/** The value a span stands for, rebuilt through the lazy reader only. */
function build(doc: LazyJson, s: Span): unknown {
  const kind = doc.kind(s);
  if (kind === "leaf") return doc.leaf(s);
  const { keys, values } = doc.entries(s);
  if (keys === null) return values.map((v) => build(doc, v));
  return Object.fromEntries(keys.map((k, i) => [k, build(doc, values[i])]));
}

Deno.test("lazy JSON: what it reads is what JSON.parse reads", () => {
  const docs = [
    '{"a":1,"b":[true,false,null],"c":{"d":"e"}}',
    ' { "q\\"" : "x\\\\" , "\\u00e9" : [ [ ] , { } , -1.5e3 ] } ',
    '["a]b", "{", "\\\\", "\\"]"]',
    "[]",
    "{}",
    '"just a string"',
    "42",
    JSON.stringify({ deep: [[[{ x: [1, 2, { y: "z" }] }]]], s: 'q"\\' }),
  ];
  for (const text of docs) {
    const doc = new LazyJson(text);
    assertEquals(build(doc, doc.root), JSON.parse(text), text);
  }
  for (
    const bad of ['{"a":1', '["x]', "[1 2]", '{"a" 1}', "[1]]", "{a:1}", ""]
  ) {
    let threw = false;
    try {
      const doc = new LazyJson(bad);
      build(doc, doc.root);
    } catch {
      threw = true;
    }
    assert(threw, bad);
  }
});

const open = (key: string): ElementEvent => ({
  name: "inspect",
  key,
  event: "toggle",
  value: "open",
});
const more = (key: string): ElementEvent => ({
  name: "more",
  key,
  event: "click",
  value: null,
});
const count = (s: string, sub: string) => s.split(sub).length - 1;

Deno.test("inspect: the top level, then what is opened, in pages", () => {
  const doc = {
    n: 1,
    s: "a<b",
    list: Array.from({ length: 250 }, (_, i) => ({ i })),
    none: null,
  };
  const ins = new JsonInspector(new LazyJson(JSON.stringify(doc)), "f.json");
  const top = ins.top();
  assert(top.startsWith('\x1b]72;<div class="dt-json"><details open'), top);
  assert(top.endsWith("</details></div>\x07"), top);
  assert(top.includes('replace-key="n1"'), top);
  assert(
    top.includes('<span class="dt-json-string">&quot;a&lt;b&quot;</span>'),
    top,
  );
  assert(top.includes('<span class="dt-json-null">null</span>'), top);
  // The list is a closed lazy inspector: none of its items was printed.
  assert(
    top.includes(
      '<details data-dt-event="inspect" class="can-replace-children" ' +
        'replace-key="n2"><summary><span class="dt-json-key">list</span>: ' +
        '[…] <span class="dt-json-count">250 items</span></summary></details>',
    ),
    top,
  );
  assertEquals(count(top, "dt-json-leaf"), 3);
  const page1 = ins.answer(open("n2"));
  assert(page1.startsWith("\x1b]721;n2;<summary>"), page1);
  assertEquals(count(page1, 'data-dt-event="inspect"'), 100);
  assert(page1.includes('replace-key="n2@100"><button data-dt-event="more">'));
  assert(page1.includes("100 more (150 left)"), page1);
  const page2 = ins.answer(more("n2@100"));
  assert(page2.startsWith("\x1b]721;n2@100;"), page2);
  assertEquals(count(page2, 'data-dt-event="inspect"'), 100);
  assert(page2.includes("50 more (50 left)"), page2);
  const page3 = ins.answer(more("n2@200"));
  assertEquals(count(page3, 'data-dt-event="inspect"'), 50);
  assert(!page3.includes("more"), page3);
  // An item: {i: 0}.
  const item = ins.answer(open("n3"));
  assert(
    item.includes(
      '<span class="dt-json-key">i</span>: <span class="dt-json-number">0</span>',
    ),
    item,
  );
  // Closing, unknown keys, other events: nothing.
  assertEquals(ins.answer({ ...open("n2"), value: "closed" }), "");
  assertEquals(ins.answer(open("n999")), "");
  assertEquals(ins.answer(more("n2@x")), "");
});

Deno.test("inspect: a leaf document, and what is wrong with a file", async () => {
  assertEquals(
    new JsonInspector(new LazyJson(JSON.stringify("x".repeat(400))), "s.json")
      .top().includes(
        "… (400 characters)",
      ),
    true,
  );
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/bad.json`, "{nope");
    await assertRejects(() => readJson(`${dir}/bad.json`), /not JSON/);
    await assertRejects(() => readJson(`${dir}/none.json`), /no such file/);
    await assertRejects(() => readJson(dir), /is a directory/);
    await Deno.writeTextFile(`${dir}/ok.json`, '{"a":[1]}');
    assertEquals((await readJson(`${dir}/ok.json`)).root, { start: 0, end: 9 });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
