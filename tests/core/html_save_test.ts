/**
 * sessionHtml (core/serialize/html.ts): a session as a standalone HTML
 * file. Program output -> the emulator -> the file's text, checked for
 * colours and styles, joined soft wraps, wide characters, links, folds
 * from shell-integration marks, embedded HTML through the given sanitizer,
 * images as data: URLs, and its safety net (CSP, theme values).
 */
import { Terminal } from "../../core/emulator/terminal.ts";
import {
  DEFAULT_THEME,
  INERT_NOTE,
  SAVED_FILE_CSP,
  sessionHtml,
  type SessionHtmlOptions,
  sourceSanitizer,
} from "../../core/serialize/html.ts";
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { CSI, OSC, ST } from "./helpers.ts";

const BEL = "\x07";
const A = `${OSC}133;A${ST}`;
const B = `${OSC}133;B${ST}`;
const C = `${OSC}133;C${ST}`;
const D = (exit: number) => `${OSC}133;D;${exit}${ST}`;

function term(input: string, cols = 40, rows = 10): Terminal {
  const t = new Terminal({ cols, rows });
  t.write(input);
  return t;
}

/** A stub sanitizer that records its input and marks its output. */
function stub(): { seen: string[]; sanitize: (h: string) => string } {
  const seen: string[] = [];
  return {
    seen,
    sanitize: (h) => {
      seen.push(h);
      return `<i class="sanitized">${seen.length}</i>`;
    },
  };
}

function save(t: Terminal, options: Partial<SessionHtmlOptions> = {}): string {
  return sessionHtml(t, { sanitize: stub().sanitize, ...options });
}

/** The `div.dt-line` elements of the body, as their HTML. */
function lines(html: string): string[] {
  return Array.from(
    html.matchAll(/<div class="dt-line[^"]*"[^>]*>(.*?)<\/div>\n/g),
    (m) => m[1],
  );
}

/** Text of an HTML snippet (tags dropped, the few entities decoded). */
function text(html: string): string {
  return html.replace(/<[^>]*>/g, "").replace(/&lt;/g, "<").replace(
    /&gt;/g,
    ">",
  ).replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");
}

const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** The first bytes of a PNG of `w` x `h` (enough for the header sniffer). */
function pngHead(w: number, h: number): Uint8Array {
  const be = (
    v: number,
  ) => [v >>> 24, (v >> 16) & 255, (v >> 8) & 255, v & 255];
  return new Uint8Array([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    0,
    0,
    0,
    13,
    ..."IHDR".split("").map((c) => c.charCodeAt(0)),
    ...be(w),
    ...be(h),
  ]);
}

Deno.test("html save: a standalone document with a CSP that allows no script and loads nothing", () => {
  const html = save(term("hello"), { title: "a <b> & c" });
  assert(html.startsWith("<!DOCTYPE html>\n"));
  assertMatch(
    html,
    /<head>\n<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">/,
  );
  assert(!/script-src|unsafe-eval/.test(SAVED_FILE_CSP));
  assertMatch(html, /<title>a &lt;b&gt; &amp; c<\/title>/);
  assert(!/<script|<link|src="http/i.test(html), "nothing to load or run");
  assertEquals(lines(html), ["hello"]);
  // The terminal's title by default.
  assertMatch(
    save(term(`${OSC}0;my title${BEL}x`)),
    /<title>my title<\/title>/,
  );
});

Deno.test("html save: colours and styles as the window's painter draws them", () => {
  const t = term(
    `${CSI}31mRED${CSI}0m ${CSI}1;3;4mBIU${CSI}0m ${CSI}38;2;1;2;3mRGB${CSI}0m ` +
      `${CSI}7mINV${CSI}0m ${CSI}2mDIM${CSI}0m ${CSI}8mHID${CSI}0m ` +
      `${CSI}9mSTR${CSI}0m ${CSI}4:3mCURLY${CSI}0m ${CSI}44mBG${CSI}0m`,
    80,
  );
  const [l] = lines(save(t));
  for (
    const want of [
      '<span class="dt-fg1">RED</span>',
      '<span class="dt-bold dt-italic dt-ul1">BIU</span>',
      '<span style="color:rgb(1,2,3);">RGB</span>',
      '<span class="dt-inverse dt-fill" style="color:var(--dt-dbg);background-color:var(--dt-dfg);">INV</span>',
      '<span class="dt-faint">DIM</span>',
      '<span class="dt-invisible">HID</span>',
      '<span class="dt-strike">STR</span>',
      '<span class="dt-ul3">CURLY</span>',
      '<span class="dt-fill dt-bg4">BG</span>',
    ]
  ) assert(l.includes(want), `${want} in ${l}`);
  assertEquals(text(l), "RED BIU RGB INV DIM HID STR CURLY BG");
});

Deno.test("html save: theme, palette overrides (OSC 4), default colours (OSC 10/11), reverse video", () => {
  let html = save(term("x"));
  assertMatch(
    html,
    /:root\{color-scheme:dark;--dt-fg:#d5d9e0;--dt-bg:#1c1f26;--dt-color-0:#2e333d;/,
  );
  assertMatch(
    save(term("x"), { theme: { colorScheme: "light" } }),
    /:root\{color-scheme:light;/,
  );
  assertMatch(html, /--dt-color-196:#ff0000;/); // the xterm cube
  assertMatch(html, /\.dt-fg196\{color:var\(--dt-color-196\)\}/);
  const t = term(
    `${OSC}4;1;#112233${BEL}${OSC}4;200;rgb:aa/bb/cc${BEL}` +
      `${OSC}10;#010203${BEL}${OSC}11;#040506${BEL}${CSI}?5hx`,
  );
  html = save(t, { theme: { colors: ["#000000", "#ffffff"] } });
  assertMatch(html, /--dt-fg:#010203;--dt-bg:#040506;/);
  assertMatch(
    html,
    /--dt-color-0:#000000;--dt-color-1:#112233;--dt-color-2:#9ac57f;/,
  );
  assertMatch(html, /:root\{--dt-color-200:#aabbcc;\}/);
  assertMatch(html, /<div class="domterm dt-saved dt-reverse">/);
  // Theme values that could leave their declaration fall back to the default.
  html = save(term("x"), {
    theme: { fg: "red;}</style><script>alert(1)</script>", bg: "#123456" },
  });
  assert(!html.includes("<script>"));
  assertMatch(html, /--dt-fg:#d5d9e0;--dt-bg:#123456;/);
  // The window's cell size sizes images given in cells.
  assertMatch(
    save(term("x"), { cell: { width: 8.5, height: 17 } }),
    /--dt-cell-w:8\.5px;--dt-cell-h:17px;/,
  );
});

Deno.test("html save: the default theme is static/domterm.css's dark theme", async () => {
  const css = await Deno.readTextFile(
    new URL("../../static/domterm.css", import.meta.url),
  );
  const root = css.slice(css.indexOf(":root {"), css.indexOf("}"));
  const prop = (name: string) =>
    new RegExp(`${name}:\\s*([^;]+);`).exec(root)?.[1].replace(/\s+/g, " ");
  assertEquals(prop("--dt-fg"), DEFAULT_THEME.fg);
  assertEquals(prop("--dt-bg"), DEFAULT_THEME.bg);
  for (let i = 0; i < 16; i++) {
    assertEquals(prop(`--dt-color-${i}`), DEFAULT_THEME.colors[i], `${i}`);
  }
  assertEquals(prop("--dt-font-family"), DEFAULT_THEME.fontFamily);
  assertEquals(prop("--dt-font-size"), DEFAULT_THEME.fontSize);
  assertEquals(prop("--dt-line-height"), DEFAULT_THEME.lineHeight);
});

Deno.test("html save: soft-wrapped rows are one line that re-wraps; hard breaks stay; trailing blank rows go", () => {
  const t = term(
    "abcdefghij" + "klmnopqrst" + "uvwxy\r\nnext\r\n\r\n  indented  ",
    10,
    8,
  );
  const ls = lines(save(t));
  // Printed spaces are text (as in the window); blank cells are not.
  assertEquals(ls, [
    "abcdefghijklmnopqrstuvwxy",
    "next",
    "<br>",
    "  indented  ",
  ]);
  const html = save(t);
  assertMatch(
    html,
    /\.dt-line\{[^}]*white-space:pre-wrap;overflow-wrap:anywhere/,
  );
  // Colour runs continue across the joined rows.
  const c = lines(save(term(`${CSI}32m${"g".repeat(15)}${CSI}0m`, 10)));
  assertEquals(c.length, 1);
  assertEquals(text(c[0]), "g".repeat(15));
  assert(c[0].startsWith('<span class="dt-fg2">'));
});

Deno.test("html save: wide characters keep their two cells; the blank left by a wide character's wrap goes", () => {
  // 5 columns: "a漢字" fills 5 cells; "字" does not fit in the next row's
  // last cell after "bb", so that row wraps with a blank cell at its end.
  const t = term("a漢字bb字x", 5);
  const [l, ...rest] = lines(save(t));
  assertEquals(rest, []);
  assertEquals(text(l), "a漢字bb字x");
  assertEquals(l.match(/<span class="dt-w">/g)?.length, 3);
  assert(l.includes('<span class="dt-w">漢</span>'));
  // Clusters and HTML-special characters are escaped.
  assertEquals(lines(save(term("<&>\"'"))), ["&lt;&amp;&gt;\"'"]);
});

Deno.test("html save: OSC 8 links become <a href> for http(s), mailto and file only", () => {
  const t = term(
    `see ${OSC}8;;https://example.com/a?b=1&c="2"${ST}the site${OSC}8;;${ST} ` +
      `${OSC}8;;javascript:alert(1)${ST}bad${OSC}8;;${ST} ` +
      `${OSC}8;;mailto:x@example.com${ST}mail${OSC}8;;${ST}`,
    80,
  );
  const [l] = lines(save(t));
  assert(
    l.includes(
      '<a class="dt-a" href="https://example.com/a?b=1&amp;c=%222%22" rel="noopener noreferrer"><span class="dt-link">the site</span></a>',
    ),
    l,
  );
  assert(l.includes('<a class="dt-a" href="mailto:x@example.com"'), l);
  assert(!l.includes("javascript"), "no javascript: link");
  assert(l.includes('<span class="dt-link">bad</span>'), "its text stays");
  assertEquals(text(l), "see the site bad mail");
  // A link over a soft wrap is one link per row, both in the same line.
  const w = lines(
    save(
      term(`${OSC}8;;http://x.test/${ST}${"L".repeat(14)}${OSC}8;;${ST}`, 10),
    ),
  );
  assertEquals(w.length, 1);
  assertEquals(
    w[0].match(/<a class="dt-a" href="http:\/\/x\.test\/"/g)?.length,
    2,
  );
});

/** A bash-like session: `seq 3` (exit 0), `false` (exit 1), then a prompt. */
function shellSession(): Terminal {
  return term(
    `${A}$ ${B}seq 3\r\n${C}1\r\n2\r\n3\r\n${D(0)}` +
      `${A}$ ${B}false\r\n${C}${D(1)}` +
      `${A}$ ${B}echo hi\r\n${C}hi\r\n${D(0)}${A}$ ${B}`,
    40,
    20,
  );
}

Deno.test("html save: command groups are <details> (prompt in <summary>, output inside), folded ones closed", () => {
  const t = shellSession();
  const folded: number[] = [];
  const html = save(t, {
    folded: (g) => {
      folded.push(g.start.line);
      return g.start.line === 0;
    },
  });
  const body = html.slice(html.indexOf("<body>"));
  const groups = Array.from(
    body.matchAll(
      /<details class="dt-group"( open)?><summary>(.*?)<\/summary>(.*?)<\/details>/gs,
    ),
    (m) => ({
      open: m[1] !== undefined,
      summary: lines(m[2]).map(text),
      label: /data-label="([^"]*)"/.exec(m[2])?.[1],
      output: lines(m[3]).map(text),
    }),
  );
  assertEquals(groups, [
    {
      open: false,
      summary: ["$ seq 3"],
      label: "3 lines hidden",
      output: ["1", "2", "3"],
    },
    {
      open: true,
      summary: ["$ echo hi"],
      label: "1 line hidden",
      output: ["hi"],
    },
  ]);
  assertEquals(folded, [0, 5], "asked about the foldable groups only");
  // The failed command has no output: not foldable, but marked as failed.
  assertMatch(
    body,
    /<div class="dt-line" data-exit="1"><span class="dt-cmd-deco" aria-hidden="true"><span class="dt-exit-badge" data-label="1" title="Command failed: exit status 1"><\/span><\/span>\$ false<\/div>/,
  );
  // Fold buttons on the foldable prompts; the last prompt is plain.
  assertEquals(body.match(/class="dt-fold-button"/g)?.length, 2);
  assertEquals(lines(body).map(text).slice(-1), ["$ "]);
  // Without a folded() every group is open; CSS does the folding, no script.
  assert(!/<details class="dt-group">/.test(save(t)));
  assertMatch(
    html,
    /details:not\(\[open\]\)>summary>\.dt-fold-summary\{display:block\}/,
  );
});

Deno.test("html save: nested groups (a REPL in a command) fold inside the outer output", () => {
  const t = term(
    `${A}$ ${B}python\r\n${C}banner\r\n` +
      `${OSC}133;A;aid=py${ST}>>> ${OSC}133;B${ST}1+1\r\n${OSC}133;C${ST}2\r\n${OSC}133;D;0;aid=py${ST}` +
      `${OSC}133;A;aid=py${ST}>>> ${OSC}133;B${ST}quit()\r\n${OSC}133;C${ST}${OSC}133;D;0;aid=py${ST}` +
      `${D(0)}${A}$ ${B}`,
    40,
    20,
  );
  const body = save(t).split("<body>")[1];
  const outer =
    /<details class="dt-group" open><summary>(.*?)<\/summary>(.*)<\/details>/s
      .exec(body)!;
  assertEquals(lines(outer[1]).map(text), ["$ python"]);
  const inner =
    /<details class="dt-group" open><summary>(.*?)<\/summary>(.*?)<\/details>/s
      .exec(outer[2])!;
  assertEquals(lines(inner[1]).map(text), [">>> 1+1"]);
  assertEquals(lines(inner[2]).map(text), ["2"]);
  assertEquals(lines(outer[2]).map(text), [
    "banner",
    ">>> 1+1",
    "2",
    ">>> quit()",
  ]);
});

Deno.test("html save: embedded HTML goes through the sanitizer, block and inline", () => {
  const s = stub();
  const t = term(
    `before${OSC}72;<div onclick="x()">block<script>alert(1)</script></div>${BEL}` +
      `in${OSC}72;<b onmouseover=y()>inline</b>${BEL}line\r\n`,
  );
  const html = sessionHtml(t, { sanitize: s.sanitize });
  assertEquals(s.seen, [
    '<div onclick="x()">block<script>alert(1)</script></div>',
    "<b onmouseover=y()>inline</b>",
  ]);
  assert(
    !/onclick|onmouseover|<script>|alert/.test(html),
    "only sanitized HTML",
  );
  assertEquals(lines(html), [
    "before",
    '<div class="dt-embed dt-embed-block"><i class="sanitized">1</i></div>',
    'in<span class="dt-embed dt-embed-inline"><i class="sanitized">2</i></span>line',
  ]);
  // The server's fallback shows the markup as text.
  const src = sessionHtml(t, { sanitize: sourceSanitizer });
  assert(
    src.includes(
      '<pre class="dt-html-source">&lt;div onclick=&quot;x()&quot;&gt;block&lt;script&gt;',
    ),
  );
  assert(!src.includes("<script"));
});

Deno.test("html save: images as data: URLs with their sizes; sixel through imageUrl; notices", () => {
  const png = b64(pngHead(40, 24));
  const t = term(
    `${OSC}1337;File=name=${
      btoa("pic.png")
    };inline=1;width=10;height=2;preserveAspectRatio=0:${png}${BEL}` +
      `${OSC}1337;File=name=${btoa('a"b.txt')};size=5:${btoa("hello")}${BEL}` +
      `${ESC_P}0;1;0q"1;1;6;12#1;2;100;0;0#1~~~~~~-~~~~~~${ST}\r\n`,
    40,
    20,
  );
  let html = save(t);
  assert(
    html.includes(
      `<div class="dt-embed dt-embed-block"><div class="dt-image"><img class="dt-img" alt="pic.png" title="pic.png" width="40" height="24" ` +
        `style="width:calc(10 * var(--dt-cell-w, 1em));height:calc(2 * var(--dt-cell-h, 1em));object-fit:fill;" src="data:image/png;base64,${png}"></div></div>`,
    ),
    html,
  );
  assert(
    html.includes(
      `<a class="dt-download" href="data:application/octet-stream;base64,${
        btoa("hello")
      }" download="a&quot;b.txt">Download a&quot;b.txt (5 B)</a>`,
    ),
  );
  assert(
    html.includes('<div class="dt-image-error">sixel image not saved</div>'),
  );
  const seen: string[] = [];
  html = save(t, {
    imageUrl: (im) => {
      seen.push(im.mime);
      return im.mime === "image/x-sixel" ? "data:image/png;base64,AAAA" : null;
    },
  });
  assertEquals(seen, ["image/png", "image/x-sixel"]);
  assert(html.includes('src="data:image/png;base64,AAAA"'));
  // Only data:image URLs are taken from imageUrl.
  html = save(t, { imageUrl: () => "javascript:alert(1)" });
  assert(!html.includes("javascript:"));
  assert(html.includes(`src="data:image/png;base64,${png}"`));
});

Deno.test("html save: an image dropped for the memory cap shows the window's notice", () => {
  const png = b64(
    new Uint8Array([...pngHead(4, 4), ...new Array(300).fill(0)]),
  );
  const t = new Terminal({
    cols: 20,
    rows: 10,
    maxImageMemory: png.length * 2,
  });
  for (let i = 0; i < 3; i++) t.write(`${OSC}1337;File=inline=1:${png}${BEL}`);
  const html = save(t);
  assertEquals(
    html.match(/dropped: too much image data in this terminal/g)?.length,
    1,
  );
  assertEquals(html.match(/<img /g)?.length, 2);
});

Deno.test("html save: the alternate screen is saved after the history", () => {
  const t = term(`normal\r\n${CSI}?1049h${CSI}Hfull screen`, 20, 5);
  const html = save(t);
  const alt = html.indexOf('<div class="dt-alt-screen">');
  assert(alt > html.indexOf(">normal<"));
  assertEquals(lines(html.slice(alt)), ["full screen"]);
});

const ESC_P = "\x1bP";

Deno.test("html save: interactive fragments are inert and say so; others are as they were", () => {
  const t = term(
    `${OSC}72;<div><button data-dt-event="go">Go</button></div>${ST}` +
      `${CSI}?7101h${OSC}72;<div><button data-dt-event="go">Go</button></div>${ST}` +
      `x${OSC}72;<a data-dt-event="more">more</a>${ST}\r\n` +
      `${OSC}72;<div>plain</div>${ST}`,
  );
  const html = save(t);
  const blocks = html.match(/<div class="dt-embed dt-embed-block"[^>]*>/g);
  assertEquals(blocks, [
    '<div class="dt-embed dt-embed-block">',
    '<div class="dt-embed dt-embed-block" inert>',
    '<div class="dt-embed dt-embed-block">',
  ]);
  assertEquals(
    html.match(/<span class="dt-embed dt-embed-inline"[^>]*>/g),
    ['<span class="dt-embed dt-embed-inline" inert>'],
  );
  assertEquals(
    html.split("interactive output (inert in this saved copy)").length - 1,
    2,
  );
  assert(html.includes(`title="${INERT_NOTE}"`));
});

Deno.test("save as HTML: bold in colours 0-7 is drawn bright (colours 8-15) unless bold-is-bright is off", () => {
  const t = term(`${CSI}1;31mred${CSI}7mrev${CSI}m ${CSI}1;91mbright${CSI}m`);
  const html = save(t);
  // The cells carry their own colour and bold...
  const row = lines(html)[0];
  assertMatch(row, /<span class="dt-fg1 dt-bold">red<\/span>/);
  assertMatch(
    row,
    /<span class="dt-inverse dt-fill dt-bg1 dt-bold"[^>]*>rev/,
  );
  // ...and the file's rules draw bold colour 1 as colour 9: the text, or
  // under inverse video the background (which holds the foreground).
  assertMatch(
    html,
    /\.dt-bold\.dt-fg1:not\(\.dt-inverse\)\{color:var\(--dt-mc-9,var\(--dt-color-9\)\)\}/,
  );
  assertMatch(
    html,
    /\.dt-bold\.dt-inverse\.dt-bg1\{background-color:var\(--dt-color-9\)\}/,
  );
  // Only colours 0-7 (9 is bright already).
  assert(!html.includes(".dt-bold.dt-fg9"), "no rule for colour 9");
  const off = save(t, { boldIsBright: false });
  assert(!off.includes(".dt-bold.dt-fg1"), "no bold-bright rules when off");
  assertEquals(lines(off), lines(html), "the cells are the same");
});
