/**
 * OSC 72 / 721 (HTML fragments), OSC 1337 File= and sixel images in the
 * model: table-driven, input bytes -> screen text, cursor and the embeds
 * on each line.
 */
import { Terminal } from "../../core/emulator/terminal.ts";
import {
  EVICTED_HTML,
  isBlockHtml,
  MAX_HTML_LENGTH,
  replaceChildren,
} from "../../core/emulator/html_embed.ts";
import {
  MAX_IMAGE_BYTES,
  rasterSize,
  sniffImageType,
} from "../../core/emulator/images.ts";
import {
  assertEquals,
  CSI,
  DCS,
  expectEqual,
  OSC,
  runCases,
  ST,
} from "./helpers.ts";

/** The embeds of every line of the active buffer, as short strings with the line index. */
function embeds(term: Terminal): string[] {
  const buf = term.buffer;
  const out: string[] = [];
  const top = buf.length - term.rows;
  for (let i = 0; i < buf.length; i++) {
    const e = buf.getLine(i).extras;
    if (!e) continue;
    const y = i - top;
    if (e.block?.image) {
      const im = e.block.image;
      out.push(
        `${y} image ${im.mime} ${im.inline ? "inline" : "file"} ${im.name} ` +
          `${im.width}x${im.height}${
            im.preserveAspectRatio ? "" : " fill"
          } ${im.bytes}`,
      );
    } else if (e.block) out.push(`${y} block ${e.block.html}`);
    for (const i of e.inline ?? []) out.push(`${y} inline@${i.x} ${i.html}`);
  }
  return out;
}

const b64 = (s: string | Uint8Array) =>
  btoa(typeof s === "string" ? s : String.fromCharCode(...s));
const PNG_HEAD = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13];
const png = b64(new Uint8Array(PNG_HEAD));

runCases("embed", [
  {
    name: "block fragment at column 0 takes the cursor's line; cursor below it",
    input: `${OSC}72;<div>hi</div>\x07`,
    cursor: [0, 1],
    check: (t) =>
      expectEqual(embeds(t.term), ["0 block <div>hi</div>"], "embeds"),
  },
  {
    name: "block fragment after text goes on a fresh line",
    input: `$ ${OSC}72;<p>para</p>${ST}next`,
    screen: "$ \n\nnext",
    cursor: [4, 2],
    check: (t) =>
      expectEqual(embeds(t.term), ["1 block <p>para</p>"], "embeds"),
  },
  {
    name: "img, svg, table and pre are block content",
    input: `${OSC}72;<img src="data:image/png;base64,AA">${ST}` +
      `${OSC}72;<svg width="4"></svg>${ST}${OSC}72;<table></table>${ST}` +
      `${OSC}72;<pre>x</pre>${ST}`,
    cursor: [0, 4],
    check: (t) => expectEqual(embeds(t.term).length, 4, "four blocks"),
  },
  {
    name: "inline fragment anchors at the cursor column; cursor stays",
    input: `ab${OSC}72;<b>bold</b>${ST}cd`,
    screen: "abcd",
    cursor: [4, 0],
    check: (t) =>
      expectEqual(embeds(t.term), ["0 inline@2 <b>bold</b>"], "embeds"),
  },
  {
    name: "OSC 721 replaces the children of the keyed element (block)",
    input:
      `${OSC}72;<div class="can-replace-children" replace-key="k1"><i>old</i></div>${ST}` +
      `text\r\n${OSC}721;k1;<b>new</b>${ST}`,
    check: (t) =>
      expectEqual(embeds(t.term), [
        '0 block <div class="can-replace-children" replace-key="k1"><b>new</b></div>',
      ], "embeds"),
  },
  {
    name: "OSC 721 replaces nested same-name elements as a whole",
    input: `${OSC}72;<div><div class='x can-replace-children' replace-key=k>` +
      `<div>a</div><div>b</div></div><p>keep</p></div>${ST}` +
      `${OSC}721;k;Z${ST}`,
    check: (t) =>
      expectEqual(embeds(t.term), [
        "0 block <div><div class='x can-replace-children' replace-key=k>Z</div><p>keep</p></div>",
      ], "embeds"),
  },
  {
    name: "OSC 721 on an inline fragment",
    input:
      `x${OSC}72;<span class="can-replace-children" replace-key="p">0%</span>${ST}` +
      `${OSC}721;p;50%${ST}`,
    check: (t) =>
      expectEqual(embeds(t.term), [
        '0 inline@1 <span class="can-replace-children" replace-key="p">50%</span>',
      ], "embeds"),
  },
  {
    name: "OSC 721 finds a key that scrolled into history",
    rows: 3,
    input:
      `${OSC}72;<div class="can-replace-children" replace-key="h">1</div>${ST}` +
      "a\r\nb\r\nc\r\nd\r\n" + `${OSC}721;h;2${ST}`,
    history: ["", "a", "b"],
    check: (t) =>
      expectEqual(embeds(t.term), [
        '-3 block <div class="can-replace-children" replace-key="h">2</div>',
      ], "embeds"),
  },
  {
    name: "OSC 721 with an unknown key, or without the class, changes nothing",
    input: `${OSC}72;<div replace-key="k">1</div>${ST}${OSC}721;k;2${ST}` +
      `${OSC}721;nope;3${ST}${OSC}721;noseparator${ST}`,
    check: (t) =>
      expectEqual(
        embeds(t.term),
        ['0 block <div replace-key="k">1</div>'],
        "embeds",
      ),
  },
  {
    name: "blank fragment and oversized fragment are dropped",
    input: `${OSC}72;   ${ST}${OSC}72;<div>${
      "x".repeat(MAX_HTML_LENGTH)
    }</div>${ST}ok`,
    screen: "ok",
    check: (t) => expectEqual(embeds(t.term), [], "embeds"),
  },
  {
    name: "in the alternate screen block content is inline",
    input: `${CSI}?1049h${OSC}72;<div>alt</div>${ST}`,
    cursor: [0, 0],
    check: (t) =>
      expectEqual(embeds(t.term), ["0 inline@0 <div>alt</div>"], "embeds"),
  },
  {
    name: "block at the bottom scrolls; the block line goes to history",
    rows: 2,
    input: `a\r\nb${OSC}72;<div>d</div>${ST}`,
    history: ["a", "b"],
    cursor: [0, 1],
    check: (t) =>
      expectEqual(embeds(t.term), ["0 block <div>d</div>"], "embeds"),
  },
  {
    name: "OSC 1337 File= inline PNG with sizes and name",
    input: `${OSC}1337;File=name=${b64("dir/pic.png")};inline=1;width=10;` +
      `height=50px;preserveAspectRatio=0:${png}\x07`,
    cursor: [0, 1],
    check: (t) =>
      expectEqual(embeds(t.term), [
        "0 image image/png inline pic.png 10x50px fill 12",
      ], "embeds"),
  },
  {
    name:
      "OSC 1337 File= inline=0 offers a file, type octet-stream for non-images",
    input: `${OSC}1337;File=name=${b64("a.txt")};size=5:${b64("hello")}\x07`,
    check: (t) =>
      expectEqual(embeds(t.term), [
        "0 image application/octet-stream file a.txt autoxauto 5",
      ], "embeds"),
  },
  {
    name: "OSC 1337 File= percent and auto sizes; bad sizes ignored",
    input: `${OSC}1337;File=inline=1;width=50%;height=auto:${png}\x07` +
      `${OSC}1337;File=inline=1;width=-3;height=1e9:${png}\x07`,
    check: (t) =>
      expectEqual(embeds(t.term), [
        "0 image image/png inline  50%xauto 12",
        "1 image image/png inline  autoxauto 12",
      ], "embeds"),
  },
  {
    name: "OSC 1337 File= refuses non-base64, non-images shown inline, no data",
    input: `${OSC}1337;File=inline=1:!!!!\x07${OSC}1337;File=inline=1:${
      b64("just text")
    }\x07${OSC}1337;File=inline=1:\x07${OSC}1337;SetMark\x07x`,
    // Each refusal leaves a notice saying why (SetMark is no image).
    check: (t) => {
      expectEqual(embeds(t.term), [
        "0 image text/x-domterm-notice inline image not shown: File=: data is not base64 autoxauto 0",
        "1 image text/x-domterm-notice inline image not shown: File=: inline data is not a known image type autoxauto 0",
        "2 image text/x-domterm-notice inline image not shown: File=: no data autoxauto 0",
      ], "embeds");
      assertEquals(t.term.buffer.getLine(3).toString(true), "x");
    },
  },
  {
    name: "sixel DCS becomes an image block with its payload",
    input: `${DCS}0;1;0q"1;1;2;2#0;2;100;0;0#0~~${ST}`,
    cursor: [0, 1],
    check: (t) => {
      const im = t.term.buffer.getLine(0).extras?.block?.image;
      assertEquals(im?.mime, "image/x-sixel");
      assertEquals(im?.data, '0;1;0q"1;1;2;2#0;2;100;0;0#0~~');
    },
  },
  {
    name: "embeds survive a clone of the line (deep copy)",
    input: `${OSC}72;<div>c</div>${ST}`,
    check: (t) => {
      const l = t.term.buffer.getLine(0);
      const c = l.clone();
      assertEquals(c.extras?.block?.html, "<div>c</div>");
      c.extras!.block = { html: "other", key: null };
      assertEquals(l.extras?.block?.html, "<div>c</div>");
    },
  },
]);

Deno.test("embed: block detection", () => {
  const cases: [string, boolean][] = [
    ["<b>x</b>", false],
    ["text only", false],
    ["<span title='<div>'>x</span>", false],
    ["<DIV>x</DIV>", true],
    ["a<img src=x>", true],
    ["<svg></svg>", true],
    ["<ul><li>1</li></ul>", true],
    ["<!-- <div> --><i>x</i>", false],
  ];
  for (const [html, want] of cases) {
    expectEqual(isBlockHtml(html), want, html);
  }
});

Deno.test("embed: replaceChildren edge cases", () => {
  const cases: [string, string, string | null][] = [
    [
      '<div class="can-replace-children" replace-key="k">open',
      "k",
      '<div class="can-replace-children" replace-key="k">NEW',
    ],
    ['<img class="can-replace-children" replace-key="k">', "k", null],
    ['<p class="can-replace-children" replace-key="k2">x</p>', "k", null],
    [
      '<p class="can-replace-children" replace-key="a&amp;b">x</p>',
      "a&b",
      '<p class="can-replace-children" replace-key="a&amp;b">NEW</p>',
    ],
  ];
  for (const [html, key, want] of cases) {
    expectEqual(replaceChildren(html, key, "NEW"), want, html);
  }
});

Deno.test("embed: image type from content", () => {
  const bytes = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
  const cases: [Uint8Array, string | null][] = [
    [new Uint8Array(PNG_HEAD), "image/png"],
    [new Uint8Array([0xff, 0xd8, 0xff, 0xe0]), "image/jpeg"],
    [bytes("GIF89a"), "image/gif"],
    [bytes("RIFF\0\0\0\0WEBPVP8 "), "image/webp"],
    [bytes('<?xml version="1.0"?>\n<svg xmlns="x">'), "image/svg+xml"],
    [bytes("<!-- c --><svg>"), "image/svg+xml"],
    [bytes("<html><svg>"), null],
    [bytes("hello"), null],
  ];
  for (const [b, want] of cases) {
    expectEqual(sniffImageType(b), want, want ?? "none");
  }
});

Deno.test("embed: a File= image over the byte cap is refused", () => {
  const term = new Terminal({ cols: 10, rows: 3 });
  const big = "A".repeat(Math.ceil((MAX_IMAGE_BYTES + 3) / 3) * 4);
  term.write(`${OSC}1337;File=inline=1:${big}\x07z`);
  assertEquals(
    term.buffer.getLine(0).extras?.block?.image?.name,
    // The parser's cap (8 MiB of base64) comes before the decoded-size check.
    "image (OSC 1337) not shown: larger than the 8 MiB a sequence may carry",
  );
  assertEquals(term.buffer.getLine(1).toString(true), "z");
});

Deno.test("embed: pixel size from image headers", () => {
  const u8 = (...parts: (number[] | string)[]) =>
    Uint8Array.from(
      parts.flatMap((p) =>
        typeof p === "string" ? Array.from(p, (c) => c.charCodeAt(0)) : p
      ),
    );
  const png = (w: number, h: number) =>
    u8(PNG_HEAD, "IHDR", [
      w >>> 24,
      (w >> 16) & 255,
      (w >> 8) & 255,
      w & 255,
      h >>> 24,
      (h >> 16) & 255,
      (h >> 8) & 255,
      h & 255,
    ]);
  const cases: [string, Uint8Array, string, unknown][] = [
    ["png", png(40, 24), "image/png", { width: 40, height: 24 }],
    ["gif", u8("GIF89a", [12, 0, 6, 0]), "image/gif", { width: 12, height: 6 }],
    [
      "jpeg after an APP0 segment",
      u8([0xff, 0xd8, 0xff, 0xe0, 0, 4, 1, 2], [
        0xff,
        0xc0,
        0,
        17,
        8,
        0,
        20,
        0,
        30,
        3,
      ]),
      "image/jpeg",
      { width: 30, height: 20 },
    ],
    [
      "webp VP8X",
      u8("RIFF", [0, 0, 0, 0], "WEBPVP8X", [0, 0, 0, 0, 0, 0, 0, 0], [
        99,
        0,
        0,
        49,
        0,
        0,
      ]),
      "image/webp",
      { width: 100, height: 50 },
    ],
    ["truncated png", u8(PNG_HEAD), "image/png", null],
    ["svg has none", u8("<svg>"), "image/svg+xml", null],
  ];
  for (const [name, bytes, mime, want] of cases) {
    expectEqual(rasterSize(bytes, mime), want, name);
  }
  // A PNG header claiming 10000 x 10000 pixels is refused; a small one is kept with its size.
  const term = new Terminal({ cols: 10, rows: 3 });
  term.write(`${OSC}1337;File=inline=1:${b64(png(10000, 10000))}\x07`);
  assertEquals(
    term.buffer.getLine(0).extras?.block?.image?.name,
    "image not shown: File=: 10000x10000 pixels is more than the 50000000 allowed",
  );
  term.write(`${OSC}1337;File=inline=1:${b64(png(40, 24))}\x07`);
  const im = term.buffer.getLine(1).extras?.block?.image;
  assertEquals([im?.pixelWidth, im?.pixelHeight], [40, 24]);
});

Deno.test("embed: past the image memory cap the oldest images lose their data", () => {
  const png = b64(new Uint8Array([...PNG_HEAD, ...new Array(300).fill(0)]));
  const term = new Terminal({
    cols: 10,
    rows: 10,
    maxImageMemory: png.length * 3,
  });
  for (let i = 0; i < 5; i++) term.write(`${OSC}1337;File=inline=1:${png}\x07`);
  const images = [0, 1, 2, 3, 4].map((i) =>
    term.buffer.getLine(i).extras?.block?.image
  );
  expectEqual(
    images.map((im) => [im?.evicted ?? false, im?.data.length]),
    [[true, 0], [true, 0], [false, png.length], [false, png.length], [
      false,
      png.length,
    ]],
    "evicted",
  );
  // A copy of a line shares the image, so it is dropped for the copy too.
  const copy = term.buffer.getLine(2).clone();
  term.write(`${OSC}1337;File=inline=1:${png}\x07`);
  assertEquals(copy.extras?.block?.image?.evicted, true);
});

Deno.test("embed: past the HTML memory cap the oldest fragments are replaced by a notice", () => {
  const frag = (i: number) => `<div>${i}${"x".repeat(98)}</div>`;
  const size = frag(0).length; // 110
  const term = new Terminal({
    cols: 20,
    rows: 4,
    scrollback: 100,
    maxHtmlMemory: size * 6,
  });
  const kept = () =>
    Array.from(
      { length: term.buffer.length },
      (_, i) => term.buffer.getLine(i).extras,
    ).flatMap((e) => [
      ...(e?.block ? [e.block.html] : []),
      ...(e?.inline ?? []).map((x) => x.html),
    ]).map((h) => h === EVICTED_HTML ? "-" : h.slice(5, 6));
  // Six fit.
  for (let i = 0; i < 6; i++) term.write(`${OSC}72;${frag(i)}\x07`);
  expectEqual(kept(), ["0", "1", "2", "3", "4", "5"], "at the cap");
  // The seventh passes it: the oldest go until 3/4 of the cap is left.
  term.write(`${OSC}72;${frag(6)}\x07`);
  expectEqual(kept(), ["-", "-", "-", "3", "4", "5", "6"], "past it");
  // An inline fragment counts too; the notices (one shared string) do not.
  term.write(`ab${OSC}72;<b>${"y".repeat(size - 7)}</b>\x07\r\n`);
  term.write(`${OSC}72;${frag(7)}\x07${OSC}72;${frag(8)}\x07`);
  expectEqual(
    kept(),
    ["-", "-", "-", "-", "-", "-", "6", "y", "7", "8"],
    "inline counted",
  );
});

Deno.test("embed: fragments survive reflow (inline moves with its cell, block stays a line)", () => {
  const term = new Terminal({ cols: 20, rows: 6 });
  term.write(
    `0123456789ABCDEFGHIJKLM${OSC}72;<b>i</b>${ST}NO\r\n${OSC}72;<div>blk</div>${ST}end`,
  );
  expectEqual(
    embeds(term),
    ["1 inline@3 <b>i</b>", "2 block <div>blk</div>"],
    "before",
  );
  term.resize(30, 6);
  expectEqual(
    embeds(term),
    ["0 inline@23 <b>i</b>", "1 block <div>blk</div>"],
    "wider",
  );
  term.resize(8, 6);
  const all = embeds(term).map((e) => e.replace(/^-?\d+ /, ""));
  expectEqual(all, ["inline@7 <b>i</b>", "block <div>blk</div>"], "narrower");
});
