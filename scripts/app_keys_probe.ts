/**
 * Which window keys reach a page in Chromium's app mode (`--app=URL`, the
 * window `domterm` opens)? Run under a virtual X server:
 *
 *     xvfb-run -a deno run -A scripts/app_keys_probe.ts
 *
 * It serves a page that reports every keydown, opens it with
 * `chromium --app=`, types each key combination through the XTEST
 * extension (real X key events, as a user's keyboard makes them) and
 * prints, per combination, whether the page saw it and how many top-level
 * windows Chromium had afterwards (a key Chromium keeps may open a window:
 * Ctrl+Shift+N an Incognito one). The key table's defaults
 * (client/key_table.ts) follow what it finds (docs/tabs-and-panes.md).
 *
 * Found with Chromium 156 (each combination in a fresh app window, the
 * page loaded and focused): every combination here reaches the page,
 * Ctrl+Shift+T, N and W included, and the page's preventDefault keeps
 * Chromium from acting on them (no window opened or closed). Before the
 * page has the keyboard (a first run that typed into a window whose page
 * was not focused yet), Chromium acted on its own: Ctrl+Shift+N opened an
 * Incognito window and Ctrl+Shift+W closed the app window.
 *
 * @module
 */

const COMBOS: string[][] = [
  ["Control_L", "Shift_L", "t"],
  ["Control_L", "Shift_L", "w"],
  ["Control_L", "Shift_L", "a"],
  ["Alt_L", "Shift_L", "t"],
  ["Alt_L", "Shift_L", "n"],
  ["Alt_L", "Shift_L", "w"],
  ["Control_L", "Next"],
  ["Control_L", "Prior"],
  ["Control_L", "Tab"],
  ["Control_L", "t"],
  ["Control_L", "n"],
  ["Control_L", "w"],
  // Last: it opens an Incognito window, which then has the keyboard.
  ["Control_L", "Shift_L", "n"],
];

const seen: string[] = [];
let ready = 0;
const server = Deno.serve(
  { port: 0, hostname: "127.0.0.1", onListen() {} },
  async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/ready") {
      ready++;
      return new Response("ok");
    }
    if (url.pathname === "/key") {
      seen.push(await req.text());
      return new Response("ok");
    }
    return new Response(
      `<!doctype html><title>probe</title><body>keys
<script>
addEventListener("keydown", (e) => {
  const k = [e.ctrlKey && "Ctrl", e.altKey && "Alt", e.shiftKey && "Shift", e.code].filter(Boolean).join("+");
  fetch("/key", { method: "POST", body: k });
  e.preventDefault();
});
addEventListener("load", () => fetch("/ready", { method: "POST" }));
addEventListener("beforeunload", (e) => { e.preventDefault(); });
</script>`,
      { headers: { "content-type": "text/html" } },
    );
  },
);
const port = server.addr.port;
/** A fresh app window (a key may close it or open another). */
async function openApp(): Promise<
  { child: Deno.ChildProcess; profile: string }
> {
  const profile = await Deno.makeTempDir();
  const child = new Deno.Command("chromium", {
    args: [
      `--app=http://127.0.0.1:${port}/`,
      `--user-data-dir=${profile}`,
      "--no-first-run",
      "--no-default-browser-check",
      "--no-sandbox",
      "--disable-gpu",
      "--window-size=800,600",
    ],
    stdout: "null",
    stderr: "null",
  }).spawn();
  return { child, profile };
}

const x11 = Deno.dlopen("libX11.so.6", {
  XOpenDisplay: { parameters: ["pointer"], result: "pointer" },
  XStringToKeysym: { parameters: ["buffer"], result: "u64" },
  XKeysymToKeycode: { parameters: ["pointer", "u64"], result: "u8" },
  XFlush: { parameters: ["pointer"], result: "i32" },
});
const xtst = Deno.dlopen("libXtst.so.6", {
  XTestFakeKeyEvent: {
    parameters: ["pointer", "u32", "i32", "u64"],
    result: "i32",
  },
  XTestFakeMotionEvent: {
    parameters: ["pointer", "i32", "i32", "i32", "u64"],
    result: "i32",
  },
});
const display = x11.symbols.XOpenDisplay(null);
if (display === null) throw new Error("no X display: run under xvfb-run");
const code = (name: string) =>
  x11.symbols.XKeysymToKeycode(
    display,
    x11.symbols.XStringToKeysym(new TextEncoder().encode(name + "\0")),
  );
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The titles of Chromium's mapped top-level windows. */
async function windowTitles(): Promise<string[]> {
  const out = await new Deno.Command("xwininfo", {
    args: ["-root", "-children"],
    stdout: "piped",
    stderr: "null",
  }).output();
  const titles: string[] = [];
  for (const line of new TextDecoder().decode(out.stdout).split("\n")) {
    const m = /^\s+0x[0-9a-f]+ "(.*)": \("[^"]*" "Chromium"\)/.exec(line);
    if (m && m[1] !== "chromium") titles.push(m[1]);
  }
  return titles;
}

async function windows(): Promise<number> {
  return (await windowTitles()).length;
}

async function press(keys: string[]): Promise<void> {
  for (const k of keys) {
    xtst.symbols.XTestFakeKeyEvent(display, code(k), 1, 0n);
    x11.symbols.XFlush(display);
    await sleep(30);
  }
  for (const k of [...keys].reverse()) {
    xtst.symbols.XTestFakeKeyEvent(display, code(k), 0, 0n);
    x11.symbols.XFlush(display);
    await sleep(30);
  }
}

const results: {
  keys: string;
  reached: boolean;
  got: string;
  windows: number;
  titles: string;
}[] = [];
for (const combo of COMBOS) {
  const readyBefore = ready;
  const app = await openApp();
  // Wait for the page; with no window manager the keyboard follows the
  // pointer: put it over the window.
  for (let i = 0; i < 150 && ready === readyBefore; i++) await sleep(100);
  await sleep(1000);
  xtst.symbols.XTestFakeMotionEvent(display, -1, 200, 200, 0n);
  x11.symbols.XFlush(display);
  await sleep(300);
  const before = (seen.length = 0, await windows());
  await press(combo);
  await sleep(1500);
  const got = seen.filter((k) => !/(Control|Shift|Alt)(Left|Right)$/.test(k));
  results.push({
    keys: combo.join("+"),
    reached: got.length > 0,
    got: got.join(" "),
    windows: (await windows()) - before,
    titles: (await windowTitles()).join(" | "),
  });
  try {
    app.child.kill("SIGKILL");
  } catch { /* the key closed it */ }
  await app.child.status;
  await Deno.remove(app.profile, { recursive: true }).catch(() => {});
}
for (const r of results) {
  const w = r.windows > 0
    ? `, opened ${r.windows} window(s)`
    : r.windows < 0
    ? ", closed the window"
    : "";
  console.log(
    `${r.keys.padEnd(22)} [${r.got}] {${r.titles}} ${
      r.reached ? "reaches the page" : "kept by Chromium"
    }${w}`,
  );
}
await server.shutdown();
