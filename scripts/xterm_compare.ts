/**
 * Side-by-side screenshots of domterm and xterm running the same program
 * at the same size and TERM (issue 32's "draw every program as xterm
 * places it"): each scenario runs once in a real xterm on a private Xvfb
 * display and once in a real domterm server shown in headless Chromium,
 * both 80x24 (xterm may grow to 132 columns when the program asks), with
 * the same keys typed; the two screenshots are put side by side in
 * `OUTDIR/NAME.png` (xterm left, domterm right).
 *
 * ```
 * deno task build
 * deno run -A scripts/xterm_compare.ts [--only REGEX] [--theme light|dark] [OUTDIR]
 * ```
 *
 * Needs xterm, Xvfb, xdotool, ImageMagick (`montage`, `import`) and the
 * programs of the scenarios (vim, btop, dialog, vttest); it says which
 * one is missing. Default OUTDIR: docs/screenshots/xterm/.
 *
 * @module
 */
import { parseArgs } from "node:util";
import type { Page } from "playwright-core";
import { startDomterm } from "../tests/e2e/domterm.ts";
import type { Inspected } from "../client/inspect.ts";

/** A key to press (Playwright's name) or text to type, then a pause (ms). */
type Step = { type: string; wait?: number } | { press: string; wait?: number };

/** One program run in both terminals. */
interface Scenario {
  name: string;
  /** What it shows, for the index page. */
  about: string;
  /** Run by `sh -c` in the scenario's directory. */
  command: string;
  /** Files to create in that directory first. */
  files?: Record<string, string>;
  /** How long the program gets before the first key (ms). */
  start: number;
  steps: Step[];
}

const SCENARIOS: Scenario[] = [
  {
    name: "vim-background",
    about:
      "vim --clean on a TypeScript file: vim asks the terminal for its background (OSC 11) and picks its colours from the answer",
    command: "vim --clean demo.ts",
    files: {
      "demo.ts": `// A small file for syntax colours.
export interface Point {
  x: number;
  y: number; // comment
}

export function norm(p: Point): number {
  const s = "a string";
  if (p.x < 0) return -1;
  return Math.sqrt(p.x * p.x + p.y * p.y) + s.length;
}
`,
    },
    start: 1500,
    steps: [],
  },
  {
    name: "vim-emoji",
    about:
      "a line of emoji in vim, the cursor moved to the last X: every cell where vim (wcwidth) puts it",
    command: "vim --clean emoji.txt",
    files: {
      "emoji.txt": "👍🏽|👨‍👩‍👧‍👦|❤️|é|⣿⣿⣿|X\nabcdefghijklmnopqrstuvwxyz|X\n",
    },
    start: 1500,
    steps: [{ press: "$", wait: 300 }],
  },
  {
    name: "dialog",
    about: "dialog's message box: bold white border on grey (bold brightens)",
    command:
      "dialog --title 'Bold border' --msgbox 'The border and the title are bold.' 9 44",
    start: 1500,
    steps: [],
  },
  {
    name: "btop",
    about: "btop's boxes and graphs (box-drawing, braille, colours)",
    command: "btop --utf-force",
    start: 4000,
    steps: [],
  },
  {
    name: "vttest-1-2",
    about: "vttest menu 1, screen 2: the cursor-movement border in 132 columns",
    command: "vttest",
    start: 1500,
    steps: [
      { type: "1", wait: 100 },
      { press: "Enter", wait: 1500 },
      { press: "Enter", wait: 2500 },
    ],
  },
];

const X_KEYS: Record<string, string> = {
  Enter: "Return",
  Escape: "Escape",
  $: "dollar",
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function run(cmd: string, args: string[], env?: Record<string, string>) {
  const out = await new Deno.Command(cmd, { args, env, stderr: "piped" })
    .output().catch((e) => {
      throw new Error(`${cmd}: ${e.message} (is it installed?)`);
    });
  if (!out.success) {
    throw new Error(
      `${cmd} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`,
    );
  }
  return new TextDecoder().decode(out.stdout);
}

/** Everything this script needs, or one message naming what is missing. */
async function checkTools(scenarios: Scenario[]): Promise<void> {
  const need = ["xterm", "Xvfb", "xdotool", "montage", "import"];
  for (const s of scenarios) need.push(s.command.split(" ")[0]);
  const missing: string[] = [];
  for (const t of new Set(need)) {
    const found = await new Deno.Command("sh", {
      args: ["-c", `command -v ${t}`],
      stdout: "null",
    }).output();
    if (!found.success) missing.push(t);
  }
  if (missing.length > 0) {
    throw new Error(
      `missing: ${missing.join(", ")}; on Debian: apt-get install xterm xvfb ` +
        `xdotool imagemagick vim btop dialog vttest`,
    );
  }
}

/** A private X display: its name and how to stop it. */
async function startXvfb(): Promise<{ display: string; stop: () => void }> {
  for (let n = 90; n < 110; n++) {
    try {
      Deno.statSync(`/tmp/.X11-unix/X${n}`);
      continue; // taken
    } catch { /* free */ }
    const child = new Deno.Command("Xvfb", {
      args: [`:${n}`, "-screen", "0", "1600x1000x24", "-nolisten", "tcp"],
      stdout: "null",
      stderr: "null",
    }).spawn();
    for (let i = 0; i < 50; i++) {
      await sleep(100);
      try {
        Deno.statSync(`/tmp/.X11-unix/X${n}`);
        return { display: `:${n}`, stop: () => child.kill("SIGTERM") };
      } catch { /* not yet */ }
    }
    child.kill("SIGTERM");
  }
  throw new Error("Xvfb: no free display in :90-:109");
}

/** Run `s` in xterm on `display`, press its keys, screenshot it to `out`. */
async function shootXterm(
  s: Scenario,
  dir: string,
  display: string,
  light: boolean,
  out: string,
): Promise<void> {
  const env = { DISPLAY: display };
  const colours = light ? ["-bg", "#fbfbfa", "-fg", "#1e1e1e"] : [
    "-bg",
    "#1e1e1e",
    "-fg",
    "#d4d4d4",
  ];
  const child = new Deno.Command("xterm", {
    args: [
      "-geometry",
      "80x24+0+0",
      "-132",
      "-fa",
      "DejaVu Sans Mono",
      "-fs",
      "11",
      ...colours,
      "-tn",
      "xterm-256color",
      "-xrm",
      "XTerm*allowWindowOps: true",
      "-e",
      "sh",
      "-c",
      `cd '${dir}' && TERM=xterm-256color exec ${s.command}`,
    ],
    env,
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    const id = (await run("xdotool", [
      "search",
      "--sync",
      "--onlyvisible",
      "--class",
      "xterm",
    ], env)).trim().split("\n")[0];
    await sleep(s.start);
    await run("xdotool", ["windowfocus", "--sync", id], env).catch(() => {});
    for (const step of s.steps) {
      if ("type" in step) {
        await run("xdotool", ["type", "--delay", "20", step.type], env);
      } else {
        await run("xdotool", ["key", X_KEYS[step.press] ?? step.press], env);
      }
      await sleep(step.wait ?? 200);
    }
    await sleep(300);
    await run("import", ["-window", id, out], env);
  } finally {
    child.kill("SIGTERM");
    await child.status;
  }
}

/** The viewport whose grid is 80x24 on `page`. */
async function fitTo80x24(page: Page): Promise<void> {
  let size = { width: 760, height: 460 };
  for (let i = 0; i < 6; i++) {
    await page.setViewportSize(size);
    await sleep(200);
    const { fit, cell } = await page.evaluate(() => {
      const d = (globalThis as unknown as Inspected).domtermInspect;
      return { fit: d.fit(), cell: d.cell() };
    });
    if (fit.cols === 80 && fit.rows === 24) return;
    size = {
      width: Math.ceil(size.width + (80 - fit.cols) * cell.width),
      height: Math.ceil(size.height + (24 - fit.rows) * cell.height),
    };
  }
  throw new Error("no viewport gives an 80x24 grid");
}

/** Run `s` in domterm (a real server, headless Chromium), screenshot to `out`. */
async function shootDomterm(
  s: Scenario,
  dir: string,
  light: boolean,
  out: string,
): Promise<void> {
  // The program waits until the window made its PTY 80x24.
  const wait =
    `i=0; while [ "$(stty size)" != "24 80" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done`;
  const d = await startDomterm(
    ["sh", "-c", `cd '${dir}' && ${wait}; exec ${s.command}`],
    { env: { TERM: "xterm-256color", LANG: "C.UTF-8" } },
  );
  try {
    await d.page.emulateMedia({ colorScheme: light ? "light" : "dark" });
    await fitTo80x24(d.page);
    await sleep(s.start);
    for (const step of s.steps) {
      if ("type" in step) await d.page.keyboard.type(step.type, { delay: 20 });
      else await d.page.keyboard.press(step.press);
      await sleep(step.wait ?? 200);
    }
    await sleep(300);
    await d.page.screenshot({ path: out });
  } finally {
    await d.close();
  }
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    options: {
      only: { type: "string" },
      theme: { type: "string", default: "light" },
    },
    allowPositionals: true,
  });
  const light = values.theme !== "dark";
  const outDir = positionals[0] ??
    new URL("../docs/screenshots/xterm/", import.meta.url).pathname;
  const only = values.only ? new RegExp(values.only) : null;
  const scenarios = SCENARIOS.filter((s) => !only || only.test(s.name));
  await checkTools(scenarios);
  await Deno.mkdir(outDir, { recursive: true });
  const x = await startXvfb();
  const scratch = await Deno.makeTempDir({ prefix: "domterm-vs-xterm-" });
  try {
    for (const s of scenarios) {
      const dir = `${scratch}/${s.name}`;
      await Deno.mkdir(dir);
      for (const [f, text] of Object.entries(s.files ?? {})) {
        await Deno.writeTextFile(`${dir}/${f}`, text);
      }
      const xPng = `${scratch}/${s.name}-xterm.png`;
      const dPng = `${scratch}/${s.name}-domterm.png`;
      await shootXterm(s, dir, x.display, light, xPng);
      await shootDomterm(s, dir, light, dPng);
      const out = `${outDir}/${s.name}-${light ? "light" : "dark"}.png`;
      await run("montage", [
        "-label",
        "xterm 379",
        xPng,
        "-label",
        "domterm",
        dPng,
        "-tile",
        "2x1",
        "-geometry",
        "+6+6",
        "-pointsize",
        "16",
        out,
      ]);
      console.log(`${out}: ${s.about}`);
    }
  } finally {
    x.stop();
    await Deno.remove(scratch, { recursive: true }).catch(() => {});
  }
}

if (import.meta.main) await main();
