/**
 * The package's `rich` module (rich/mod.ts) and what it shares with
 * `domterm inspect` (core/rich_output.ts): the sequences it prints, the
 * event-line parser (reports split across reads, typed input around
 * them), and the same module bundled and run by Node (no Deno API in it
 * but behind a check).
 */
import { assertEquals } from "../assert.ts";
import {
  disableEvents,
  display,
  displayImage,
  displaySvg,
  type ElementEvent,
  enableEvents,
  EventParser,
  events,
  lazyDetails,
  replace,
  setOutput,
  type TypedInput,
} from "../../rich/mod.ts";
import { bundleForBrowser } from "../e2e/bundle.ts";

Deno.test("rich: the sequences", () => {
  let out = "";
  setOutput((s) => out += s);
  try {
    enableEvents();
    display("<b>x</b>\x07\x1b[31m");
    displaySvg('<?xml version="1.0"?>\n<svg width="1"></svg>');
    displayImage(new Uint8Array([1, 2, 3]), { width: "10", height: "bad" });
    replace("k;1", "<i>y</i>");
    display(lazyDetails("inspect", 'a"b', "<b>s</b>"));
    disableEvents();
  } finally {
    setOutput(null);
  }
  assertEquals(
    out,
    "\x1b[?7101h" +
      "\x1b]72;<b>x</b>[31m\x07" +
      '\x1b]72;<svg width="1"></svg>\x07' +
      "\x1b]1337;File=name=aW1hZ2U=;size=3;inline=1;width=10:AQID\x07" +
      "\x1b]721;k1;<i>y</i>\x07" +
      '\x1b]72;<details data-dt-event="inspect" class="can-replace-children"' +
      ' replace-key="a&quot;b"><summary><b>s</b></summary></details>\x07' +
      "\x1b[?7101l",
  );
});

const EV = '{"name":"go","key":null,"event":"click","value":null}';

Deno.test("rich: EventParser splits reports from typed input, across pieces", () => {
  const whole = `ab\x1b]7101;${EV}\x07\nq\x1b[A\x1b]7101;{"bad\x07x`;
  const want: (ElementEvent | TypedInput)[] = [
    { event: "input", text: "ab" },
    { name: "go", key: null, event: "click", value: null },
    { event: "input", text: "q\x1b[A" + '\x1b]7101;{"bad\x07x' },
  ];
  // Whole, and cut at every offset.
  for (let cut = 0; cut <= whole.length; cut++) {
    const p = new EventParser();
    const got = [...p.push(whole.slice(0, cut)), ...p.push(whole.slice(cut))];
    const merged = got.reduce<typeof got>((acc, e) => {
      const last = acc.at(-1);
      if (e.event === "input" && last?.event === "input") {
        acc[acc.length - 1] = { event: "input", text: last.text + e.text };
      } else acc.push(e);
      return acc;
    }, []);
    assertEquals(merged, want, `cut at ${cut}`);
  }
});

Deno.test("rich: events() reads a stream of bytes", async () => {
  const bytes = new TextEncoder().encode(`\x1b]7101;${EV}\x07\n`);
  const stream = ReadableStream.from([bytes.slice(0, 5), bytes.slice(5)]);
  const got = [];
  for await (const e of events(stream)) got.push(e);
  assertEquals(got, [{ name: "go", key: null, event: "click", value: null }]);
});

Deno.test("rich: the module runs under Node", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const js = await bundleForBrowser(
      new URL("../../rich/mod.ts", import.meta.url),
    );
    await Deno.writeTextFile(`${dir}/rich.mjs`, js);
    await Deno.writeTextFile(
      `${dir}/main.mjs`,
      `import { display, enableEvents, events, isDomterm } from "./rich.mjs";
enableEvents();
display("<b>" + isDomterm() + "</b>");
for await (const e of events()) {
  if (e.event === "click") display("<i>" + e.name + "</i>");
}
`,
    );
    const child = new Deno.Command("node", {
      args: [`${dir}/main.mjs`],
      stdin: "piped",
      stdout: "piped",
      env: { DOMTERM: "version=x;session=1" },
    }).spawn();
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode(`\x1b]7101;${EV}\x07\n`));
    await w.close();
    const out = await child.output();
    assertEquals(out.code, 0);
    assertEquals(
      new TextDecoder().decode(out.stdout),
      "\x1b[?7101h\x1b]72;<b>true</b>\x07\x1b]72;<i>go</i>\x07",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
