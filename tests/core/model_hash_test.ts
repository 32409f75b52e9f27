/**
 * modelHash / modelDiff (core/serialize/model_hash.ts): equal for the same
 * state however it was reached (chunking, ext-table ids, dirty flags),
 * different after any one visible change, deterministic across processes.
 */
import { Terminal } from "../../core/emulator/terminal.ts";
import { modelDiff, modelHash } from "../../core/serialize/model_hash.ts";
import {
  assert,
  assertEquals,
  CSI,
  DCS,
  ESC,
  OSC,
  rng,
  ST,
  TINY_PNG,
} from "./helpers.ts";

const enc = new TextEncoder();

function term(cols = 40, rows = 10, scrollback = 100): Terminal {
  return new Terminal({ cols, rows, scrollback });
}

function fed(input: string | Uint8Array, cols = 40, rows = 10): Terminal {
  const t = term(cols, rows);
  t.write(input);
  return t;
}

/** Input that touches most of what the hash covers. */
const RICH = [
  `${OSC}2;a title${ST}${OSC}1;icon\x07${OSC}7;file://h/tmp${ST}`,
  `${OSC}4;1;#123456${ST}${OSC}10;#abcdef${ST}${OSC}11;rgb:10/20/30${ST}`,
  `${OSC}133;A${ST}$ ${OSC}133;B${ST}ls${OSC}133;C${ST}\r\n`,
  `plain ${CSI}1;31mbold red${CSI}0m ${CSI}38:2::1:2:3;48;5;200mrgb${CSI}m\r\n`,
  `${CSI}4:3;58:2::255:0:0mcurly${CSI}m ${OSC}8;id=x;http://a/${ST}link${OSC}8;;${ST}\r\n`,
  "wide 字中 emoji 😀 👨\u200d👩 flag 🇩🇪 e\u0301 \r\n",
  `${ESC}#6double\r\n`,
  "x".repeat(95) + "\r\n", // soft wraps
  `${OSC}72;<div>block</div>${ST}in${OSC}72;<b>line</b>${ST}e\r\n`,
  `${OSC}1337;File=inline=1;name=${btoa("a.png")}:${TINY_PNG}\x07`,
  `${DCS}0;1;0q"1;1;2;2#0;2;100;0;0#0~~${ST}`,
  `${OSC}110;"("\x07defun${OSC}116;"",""," "\x07body${OSC}111\x07\r\n`,
  Array.from({ length: 30 }, (_, i) => `history ${i}\r\n`).join(""),
  `${CSI}?1h${CSI}?2004h${CSI}3;8r${CSI}5 q${CSI}4h`,
  `${CSI}2;3Hend`,
].join("");

Deno.test("model hash: the same bytes in different chunkings give the same hash", () => {
  const bytes = enc.encode(RICH);
  const whole = fed(bytes);
  const h = modelHash(whole);
  assertEquals(h.length, 16);
  assert(/^[0-9a-f]{16}$/.test(h));
  const byByte = term();
  for (let i = 0; i < bytes.length; i++) byByte.write(bytes.subarray(i, i + 1));
  assertEquals(modelDiff(whole, byByte), null);
  assertEquals(modelHash(byByte), h);
  const random = rng(7);
  for (let round = 0; round < 5; round++) {
    const t = term();
    for (let i = 0; i < bytes.length;) {
      const n = 1 + Math.floor(random() * 40);
      t.write(bytes.subarray(i, i + n));
      i += n;
    }
    assertEquals(modelDiff(whole, t), null);
    assertEquals(modelHash(t), h);
  }
});

Deno.test("model hash: the alternate screen is covered while it is shown", () => {
  const input = `main${CSI}?1049halt ${CSI}1;32mscreen`;
  const a = fed(input), b = fed(input);
  assertEquals(modelDiff(a, b), null);
  assertEquals(modelHash(a), modelHash(b));
  const c = fed(input + "!");
  assert(modelHash(a) !== modelHash(c));
  const d = modelDiff(a, c)!;
  assert(d.startsWith("cursor x"), d);
  // Same cursor, other alternate-screen content.
  const e = fed(`main${CSI}?1049halt ${CSI}1;32mscreeN`);
  assert(modelHash(a) !== modelHash(e));
  assertEquals(
    modelDiff(a, e),
    "alternate buffer line 0 (screen row 0) cell 13: code 0x6e vs 0x4e",
  );
});

Deno.test("model hash: ext-table ids do not count, what they point to does", () => {
  // In `a` the link gets a later ext id than in `b` (other entries first).
  const a = fed(
    `${CSI}58;5;1mx${CSI}58;5;2my${CSI}m\r${CSI}K` +
      `${OSC}8;;http://l/${ST}L${OSC}8;;${ST}`,
  );
  const b = fed(`${OSC}8;;http://l/${ST}L${OSC}8;;${ST}`);
  const ida = a.buffer.getLine(0).attr(0) >>> 16;
  const idb = b.buffer.getLine(0).attr(0) >>> 16;
  assert(ida !== idb, `ids ${ida} ${idb}`);
  assertEquals(modelDiff(a, b), null);
  assertEquals(modelHash(a), modelHash(b));
  // Another link id is a difference.
  const c = fed(`${OSC}8;id=2;http://l/${ST}L${OSC}8;;${ST}`);
  const d = modelDiff(b, c)!;
  assert(d.includes("cell 0: ext") && d.includes('"linkId":"2"'), d);
  assert(modelHash(b) !== modelHash(c));
});

Deno.test("model hash: dirty flags do not count", () => {
  const a = fed(RICH), b = fed(RICH);
  const buf = b.normalBuffer;
  for (let i = 0; i < buf.length; i++) buf.getLine(i).dirty = false;
  assertEquals(modelDiff(a, b), null);
  assertEquals(modelHash(a), modelHash(b));
});

Deno.test("model hash: a message names the line, the cell and both values", () => {
  const a = fed("xA"), b = fed("xB");
  assertEquals(
    modelDiff(a, b),
    "normal buffer line 0 (screen row 0) cell 1: code 0x41 vs 0x42",
  );
  const c = fed(`${"h\r\n".repeat(12)}A`), d = fed(`${"h\r\n".repeat(12)}B`);
  assertEquals(
    modelDiff(c, d),
    "normal buffer line 12 (screen row 9) cell 0: code 0x41 vs 0x42",
  );
  const e = fed(`${"h\r\n".repeat(12)}`), f = fed(`H\r\n${"h\r\n".repeat(11)}`);
  assertEquals(
    modelDiff(e, f),
    "normal buffer line 0 cell 0: code 0x68 vs 0x48",
  );
  assertEquals(
    modelDiff(fed(`${OSC}2;one${ST}`), fed(`${OSC}2;two${ST}`)),
    'title: "one" vs "two"',
  );
});

/** A pretty-printed block of eight words with newline `nl` between them. */
const pretty = (nl: string) =>
  `${OSC}110;\x07${"abcdefgh".split("").map((c) => c.repeat(8)).join(nl)}` +
  `${OSC}111\x07`;

/**
 * One visible change each: `a` and `b` differ only in it. `expect` is a
 * part of the diff message.
 */
const CHANGES: {
  name: string;
  cols?: number;
  a: string;
  b: string;
  expect: string;
}[] = [
  { name: "text", a: "hello", b: "hellp", expect: "cell 4: code" },
  { name: "foreground", a: `${CSI}31mx`, b: `${CSI}32mx`, expect: "fg" },
  {
    name: "background",
    a: `${CSI}41mx`,
    b: `${CSI}48;2;1;2;3mx`,
    expect: "bg",
  },
  { name: "attribute", a: `${CSI}1mx`, b: `${CSI}3mx`, expect: "attr" },
  {
    name: "underline colour",
    a: `${CSI}4;58;5;1mx`,
    b: `${CSI}4;58;5;2mx`,
    expect: "ext",
  },
  {
    name: "soft wrap vs hard newline",
    a: "x".repeat(40) + "y",
    b: "x".repeat(40) + "\r\ny",
    expect: "wrapped true vs false",
  },
  { name: "cursor position", a: "ab", b: `ab${CSI}D`, expect: "cursor x" },
  {
    name: "pending wrap",
    a: "x".repeat(40),
    b: "x".repeat(39) + `${CSI}40Gx${CSI}40G`,
    expect: "wrap pending",
  },
  {
    name: "mode",
    a: "",
    b: `${CSI}?1h`,
    expect: "modes.applicationCursorKeys",
  },
  { name: "insert mode", a: "", b: `${CSI}4h`, expect: "modes.insert" },
  { name: "cursor visible", a: "", b: `${CSI}?25l`, expect: "cursor visible" },
  { name: "cursor style", a: "", b: `${CSI}5 q`, expect: "cursor style" },
  { name: "title", a: `${OSC}2;a${ST}`, b: `${OSC}2;b${ST}`, expect: "title" },
  {
    name: "icon title",
    a: `${OSC}1;a${ST}`,
    b: `${OSC}1;b${ST}`,
    expect: "icon title",
  },
  { name: "cwd", a: "", b: `${OSC}7;file://h/x${ST}`, expect: "cwd" },
  {
    name: "palette",
    a: `${OSC}4;3;#010203${ST}`,
    b: `${OSC}4;3;#010204${ST}`,
    expect: "palette overrides",
  },
  {
    name: "dynamic colour",
    a: "",
    b: `${OSC}11;#102030${ST}`,
    expect: "background override",
  },
  { name: "scroll region", a: "", b: `${CSI}2;5r`, expect: "scroll region" },
  {
    name: "margins",
    a: `${CSI}?69h`,
    b: `${CSI}?69h${CSI}3;20s`,
    expect: "margins",
  },
  {
    name: "link",
    a: "L",
    b: `${OSC}8;;http://x/${ST}L${OSC}8;;${ST}`,
    expect: "cell 0: ext none vs",
  },
  {
    name: "link target",
    a: `${OSC}8;;http://x/${ST}L${OSC}8;;${ST}`,
    b: `${OSC}8;;http://y/${ST}L${OSC}8;;${ST}`,
    expect: "http://x/",
  },
  {
    name: "mark",
    a: `$ `,
    b: `${OSC}133;A${ST}$ `,
    expect: "extras",
  },
  {
    name: "mark attributes",
    a: `${OSC}133;D;0${ST}`,
    b: `${OSC}133;D;1${ST}`,
    expect: "extras.marks",
  },
  {
    name: "block embed",
    a: `${OSC}72;<div>a</div>${ST}`,
    b: `${OSC}72;<div>b</div>${ST}`,
    expect: "extras.block",
  },
  {
    name: "inline embed",
    a: `x${OSC}72;<b>a</b>${ST}`,
    b: `x${OSC}72;<b>b</b>${ST}`,
    expect: "extras.inline",
  },
  {
    name: "image name",
    a: `${OSC}1337;File=inline=1;name=${btoa("a")}:${TINY_PNG}${ST}`,
    b: `${OSC}1337;File=inline=1;name=${btoa("b")}:${TINY_PNG}${ST}`,
    expect: "extras.block",
  },
  {
    name: "image data",
    a: `${DCS}q#0~${ST}`,
    b: `${DCS}q#0}${ST}`,
    expect: "extras.block",
  },
  {
    name: "pretty block structure (same text at this width)",
    cols: 100,
    a: pretty(`${OSC}116;"",""," "\x07`),
    b: pretty(`${OSC}115;"",""," "\x07`),
    expect: "extras.pretty",
  },
  {
    name: "cluster text",
    a: "e\u0301",
    b: "e\u0300",
    expect: "cluster",
  },
  { name: "line size", a: `${ESC}#6x`, b: `${ESC}#3x`, expect: "size 1 vs 2" },
  {
    name: "history line",
    a: "a\r\n".repeat(10) + "\r\n".repeat(5),
    b: "b\r\n" + "a\r\n".repeat(9) + "\r\n".repeat(5),
    expect: "normal buffer line 0 cell 0",
  },
  {
    name: "alternate screen",
    a: "",
    b: `${CSI}?1049h`,
    expect: "modes.altScreen",
  },
  {
    name: "reverse video",
    a: "",
    b: `${CSI}?5h`,
    expect: "modes.reverseVideo",
  },
  { name: "kitty flags", a: "", b: `${CSI}=5u`, expect: "modes.kittyFlags" },
];

for (const c of CHANGES) {
  Deno.test(`model hash: differs after one change: ${c.name}`, () => {
    const a = fed(c.a, c.cols), b = fed(c.b, c.cols);
    const d = modelDiff(a, b);
    assert(d !== null, "modelDiff found no difference");
    assert(d.includes(c.expect), `diff ${JSON.stringify(d)} lacks ${c.expect}`);
    assert(modelHash(a) !== modelHash(b), "same hash");
    // And each side is equal to itself fed again.
    assertEquals(modelDiff(b, fed(c.b, c.cols)), null);
    assertEquals(modelHash(b), modelHash(fed(c.b, c.cols)));
  });
}

Deno.test("model hash: scrollback limit and the trimmed count are covered", () => {
  const a = new Terminal({ cols: 10, rows: 3, scrollback: 5 });
  const b = new Terminal({ cols: 10, rows: 3, scrollback: 6 });
  assert(modelDiff(a, b)!.includes("scrollback"));
  assert(modelHash(a) !== modelHash(b));
});

Deno.test("model hash: the same in another process", async () => {
  const code = `
    import { Terminal } from ${
    JSON.stringify(
      new URL("../../core/emulator/terminal.ts", import.meta.url).href,
    )
  };
    import { modelHash } from ${
    JSON.stringify(
      new URL("../../core/serialize/model_hash.ts", import.meta.url).href,
    )
  };
    const t = new Terminal({ cols: 40, rows: 10, scrollback: 100 });
    t.write(${JSON.stringify(RICH)});
    console.log(modelHash(t));
  `;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--quiet", code],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert(out.success, stderr);
  assertEquals(
    new TextDecoder().decode(out.stdout).trim(),
    modelHash(fed(RICH)),
  );
});
