/**
 * The helper subcommands (`domterm is-domterm`, `html`, `hcat`, `imgcat`,
 * `fresh-line`), run as real processes: on a pseudo-terminal that the test
 * plays the terminal of (a core Terminal answering queries, as the client
 * does), on a silent pseudo-terminal, and with standard output a pipe.
 * How quickly is-domterm gives up on a silent terminal is timed in
 * commands_timing_test.ts (run alone).
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { sniffImage } from "../../server/commands/imgcat.ts";
import { onPty } from "./domterm_on_pty.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const dec = new TextDecoder();
const enc = new TextEncoder();

/** Run `domterm ARGS` with standard output and error piped. */
async function run(args: string[], input?: string | Uint8Array) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, ...args],
    stdin: input === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (input !== undefined) {
    const w = child.stdin.getWriter();
    await w.write(typeof input === "string" ? enc.encode(input) : input);
    await w.close();
  }
  const out = await child.output();
  return {
    code: out.code,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
  };
}

Deno.test("is-domterm: exits 0 on a terminal that answers DA2 like domterm", async () => {
  const r = await onPty(["is-domterm"], true);
  assertEquals(r.code, 0, r.output);
  assert(r.output.includes("\x1b[>c"), "sends the DA2 query");
});

Deno.test("is-domterm: --verbose says why; not a terminal is 'no'", async () => {
  const silent = await onPty(["is-domterm", "--verbose"], false);
  assertEquals(silent.code, 1);
  assertMatch(silent.output, /did not answer/);
  const r = await run(["is-domterm"]);
  assertEquals(r.code, 1);
  assertEquals(r.stdout + r.stderr, "");
});

Deno.test("html: inside domterm prints OSC 72; on a silent tty refuses", async () => {
  const yes = await onPty(["html", "<b>hi</b>"], true);
  assertEquals(yes.code, 0, yes.output);
  assert(yes.output.includes("\x1b]72;<b>hi</b>\x07"), yes.output);
  const no = await onPty(["html", "<b>hi</b>"], false);
  assertEquals(no.code, 1);
  assertMatch(no.output, /standard output is not a domterm terminal/);
  assert(!no.output.includes("\x1b]72"), no.output);
});

Deno.test("html: stdout a pipe: exit 1 with a message, nothing printed", async () => {
  const r = await run(["html", "<b>x</b>"]);
  assertEquals(r.code, 1);
  assertEquals(r.stdout, "");
  assertMatch(
    r.stderr,
    /^domterm html: standard output is not a domterm terminal/,
  );
});

Deno.test("html --force: arguments joined by spaces, or stdin", async () => {
  const r = await run(["html", "--force", "<b>x</b>"]);
  assertEquals(r.code, 0, r.stderr);
  assertEquals(r.stdout, "\x1b]72;<b>x</b>\x07");
  const two = await run(["html", "--force", "<i>a</i>", "<i>b</i>"]);
  assertEquals(two.stdout, "\x1b]72;<i>a</i> <i>b</i>\x07");
  const stdin = await run(["html", "--force"], "<p>from stdin</p>\n");
  assertEquals(stdin.code, 0, stdin.stderr);
  assertEquals(stdin.stdout, "\x1b]72;<p>from stdin</p>\n\x07");
});

Deno.test("html: refuses text that would end the OSC early, and huge input", async () => {
  for (const bad of ["a\x07b", "\x1b[31mred", "x\u009cy"]) {
    const r = await run(["html", "--force", bad]);
    assertEquals(r.code, 1, JSON.stringify(bad));
    assertEquals(r.stdout, "");
    assertMatch(r.stderr, /would end the escape sequence early/);
  }
  const big = await run(
    ["html", "--force"],
    new Uint8Array(8 * 1024 * 1024 + 1).fill(0x41),
  );
  assertEquals(big.code, 1);
  assertEquals(big.stdout, "");
  assertMatch(big.stderr, /larger than 8 MiB/);
});

Deno.test("hcat: one OSC 72 per file; a missing file is reported, others printed", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.html`, "<b>A</b>");
    await Deno.writeTextFile(`${dir}/b.html`, "<i>B</i>");
    const r = await run([
      "hcat",
      "--force",
      `${dir}/a.html`,
      `${dir}/missing.html`,
      `${dir}/b.html`,
    ]);
    assertEquals(r.code, 1);
    assertEquals(r.stdout, "\x1b]72;<b>A</b>\x07\x1b]72;<i>B</i>\x07");
    assertMatch(r.stderr, /domterm hcat: .*missing\.html: no such file/);
    const none = await run(["hcat", "--force"]);
    assertEquals(none.code, 2);
    assertMatch(none.stderr, /missing file operand/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// Tiny images, written by hand: only their headers matter to imgcat.
const PNG = new Uint8Array([
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a,
  0x00,
  0x00,
  0x00,
  0x0d,
  0x49,
  0x48,
  0x44,
  0x52,
  0x00,
  0x00,
  0x00,
  0x01,
  0x00,
  0x00,
  0x00,
  0x01,
  0x08,
  0x06,
  0x00,
  0x00,
  0x00,
  0x1f,
  0x15,
  0xc4,
  0x89,
  0x00,
  0x00,
  0x00,
  0x0d,
  0x49,
  0x44,
  0x41,
  0x54,
  0x78,
  0x9c,
  0x63,
  0x60,
  0x00,
  0x00,
  0x00,
  0x02,
  0x00,
  0x01,
  0xe5,
  0x27,
  0xde,
  0xfc,
  0x00,
  0x00,
  0x00,
  0x00,
  0x49,
  0x45,
  0x4e,
  0x44,
  0xae,
  0x42,
  0x60,
  0x82,
]);
const JPEG = new Uint8Array([
  0xff,
  0xd8,
  0xff,
  0xe0,
  0x00,
  0x10,
  0x4a,
  0x46,
  0x49,
  0x46,
  0x00,
  0x01,
  0x01,
  0x00,
  0x00,
  0x01,
  0x00,
  0x01,
  0x00,
  0x00,
  0xff,
  0xd9,
]);
const GIF = enc.encode("GIF89a\x01\x00\x01\x00\x00\x00\x00;");
const SVG = enc.encode(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>\n',
);

/** Parse `OSC 1337 ; File=k=v;... : data BEL` sequences. */
function parse1337(out: string) {
  // deno-lint-ignore no-control-regex
  const re = /\x1b\]1337;File=([^:]*):([A-Za-z0-9+/=]*)\x07/g;
  return [...out.matchAll(re)].map((m) => ({
    args: Object.fromEntries(m[1].split(";").map((kv) => kv.split("="))),
    data: Uint8Array.from(atob(m[2]), (c) => c.charCodeAt(0)),
  }));
}

Deno.test("imgcat: PNG, JPEG, GIF and SVG as OSC 1337 with name, size and data", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const files: [string, Uint8Array][] = [
      ["dot.png", PNG],
      ["dot.jpg", JPEG],
      ["dot.gif", GIF],
      ["dot.svg", SVG],
    ];
    for (const [name, bytes] of files) {
      await Deno.writeFile(`${dir}/${name}`, bytes);
    }
    const r = await run([
      "imgcat",
      "--force",
      ...files.map(([n]) => `${dir}/${n}`),
    ]);
    assertEquals(r.code, 0, r.stderr);
    const seqs = parse1337(r.stdout);
    assertEquals(seqs.length, 4);
    seqs.forEach((s, i) => {
      const [name, bytes] = files[i];
      assertEquals(atob(s.args.name), name);
      assertEquals(s.args.size, String(bytes.length));
      assertEquals(s.args.inline, "1");
      assertEquals(s.data, bytes);
    });

    const sized = await run([
      "imgcat",
      "--force",
      "--width",
      "10",
      "--height=50%",
      `${dir}/dot.png`,
    ]);
    const [s] = parse1337(sized.stdout);
    assertEquals(s.args.width, "10");
    assertEquals(s.args.height, "50%");
    assertEquals(s.args.preserveAspectRatio, "1");

    const alt = await run([
      "imgcat",
      "--force",
      "--alt",
      'a "dot"',
      "--width=20px",
      `${dir}/dot.gif`,
    ]);
    assertEquals(alt.code, 0, alt.stderr);
    assertEquals(
      alt.stdout,
      `\x1b]72;<img src="data:image/gif;base64,${
        btoa(dec.decode(GIF))
      }" alt="a &quot;dot&quot;" style="width:20px">\x07`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("imgcat: refuses a text file, bad sizes, unknown options", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/notes.txt`, "just text\n");
    const r = await run(["imgcat", "--force", `${dir}/notes.txt`]);
    assertEquals(r.code, 1);
    assertEquals(r.stdout, "");
    assertMatch(r.stderr, /notes\.txt: not an image/);
    const size = await run(["imgcat", "--force", "--width", "big", "x.png"]);
    assertEquals(size.code, 2);
    assertMatch(size.stderr, /--width: 'big' is not a size/);
    const unknown = await run(["imgcat", "--force", "--colour", "x.png"]);
    assertEquals(unknown.code, 2);
    assertMatch(unknown.stderr, /unknown option '--colour'/);
    const missing = await run(["imgcat", "--force", "--alt"]);
    assertEquals(missing.code, 2);
    assertMatch(missing.stderr, /option '--alt' needs a value/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("imgcat: sniffImage tells images from text", () => {
  assertEquals(sniffImage(PNG), "image/png");
  assertEquals(sniffImage(JPEG), "image/jpeg");
  assertEquals(sniffImage(GIF), "image/gif");
  assertEquals(sniffImage(SVG), "image/svg+xml");
  assertEquals(sniffImage(enc.encode("RIFF\0\0\0\0WEBPVP8 ")), "image/webp");
  assertEquals(sniffImage(enc.encode("<html><svg></svg></html>")), null);
  assertEquals(sniffImage(enc.encode("hello")), null);
});

Deno.test("fresh-line: prints CSI 20 u; unknown option exits 2", async () => {
  const r = await run(["fresh-line", "--force"]);
  assertEquals(r.code, 0, r.stderr);
  assertEquals(r.stdout, "\x1b[20u");
  const bad = await run(["fresh-line", "--nope"]);
  assertEquals(bad.code, 2);
  assertMatch(bad.stderr, /^domterm fresh-line: unknown option '--nope'/);
  assertMatch(bad.stderr, /Try 'domterm --help'/);
  const piped = await run(["fresh-line"]);
  assertEquals(piped.code, 1);
  assertEquals(piped.stdout, "");
});

Deno.test("imgcat: fetches http URLs; an HTTP error is reported", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) =>
      new URL(req.url).pathname === "/img/dot.png"
        ? new Response(PNG)
        : new Response("no", { status: 404 }),
  );
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    const r = await run([
      "imgcat",
      "--force",
      `${base}/img/dot.png`,
      `${base}/gone.png`,
    ]);
    assertEquals(r.code, 1);
    const seqs = parse1337(r.stdout);
    assertEquals(seqs.length, 1);
    assertEquals(atob(seqs[0].args.name), "dot.png");
    assertEquals(seqs[0].data, PNG);
    assertMatch(r.stderr, /gone\.png: HTTP 404/);
  } finally {
    await server.shutdown();
  }
});
