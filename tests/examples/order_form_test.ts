/**
 * examples/order_form.ts (docs/interactive.md's example) as a program: the
 * form printed with the mode on, each event answered by replacing the
 * summary, Order printing the order and ending with the mode off. Event
 * lines come on its standard input as domterm writes them.
 */
import { assert, assertEquals } from "../assert.ts";

const EXAMPLE = new URL("../../examples/order_form.ts", import.meta.url)
  .pathname;
const ev = (name: string, event: string, value: unknown) =>
  `\x1b]7101;${JSON.stringify({ name, key: null, event, value })}\x07\n`;

Deno.test("example order form: events in, summary replaced, order out", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-env", EXAMPLE],
    env: { DOMTERM: "version=test" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const w = child.stdin.getWriter();
  await w.write(new TextEncoder().encode(
    ev("drink:tea", "click", null) + ev("sugar", "change", true) +
      ev("size", "change", "large") + ev("name", "change", "Ann <3") +
      ev("order", "click", null),
  ));
  const out = await child.output();
  const text = new TextDecoder().decode(out.stdout);
  assertEquals(out.code, 0, new TextDecoder().decode(out.stderr));
  assert(text.startsWith('\x1b[?7101h\x1b]72;<div class="order">'), text);
  assert(text.includes('<button data-dt-event="drink:tea">tea</button>'));
  const summaries = text.split("\x1b]721;summary;").slice(1).map((p) =>
    p.slice(0, p.indexOf("\x07"))
  );
  assertEquals(summaries, [
    "Your order: <b>medium tea</b>",
    "Your order: <b>medium tea with sugar</b>",
    "Your order: <b>large tea with sugar</b>",
    "Your order: <b>large tea with sugar</b> for <i>Ann &lt;3</i>",
  ]);
  assert(
    text.endsWith(
      "\x1b]72;<p>Ordered: <b>large tea with sugar</b> for <i>Ann &lt;3</i></p>\x07\x1b[?7101l",
    ),
    JSON.stringify(text.slice(-200)),
  );
});

Deno.test("example order form: refuses to run outside domterm", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-env", EXAMPLE],
    env: { DOMTERM: "" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(out.code, 1);
  assertEquals(out.stdout.length, 0);
});
