/**
 * Regenerates the screenshots in docs/screenshots/: the real domterm
 * (`--no-browser`) running bash, opened in headless Chromium, showing
 *
 * - ls-color.png: `ls -l --color` in a directory with varied file types,
 * - vim.png: vim with syntax colours on a TypeScript source file,
 * - htop.png: htop.
 *
 * Usage: deno task build && deno run -A scripts/screenshots.ts [--light] [outdir]
 *
 * @module
 */
import type { Page } from "playwright-core";
import { startDomterm, waitForRow } from "../tests/e2e/domterm.ts";

const ROOT = new URL("../", import.meta.url);
const light = Deno.args.includes("--light");
const outDir = Deno.args.find((a) => !a.startsWith("--")) ??
  new URL("docs/screenshots/", ROOT).pathname;
const VIEWPORT = { width: 900, height: 540 };

/** A scratch directory with one file of each kind ls colours differently. */
async function makeLsDemo(dir: string): Promise<void> {
  const mk = (p: string, text = "") => Deno.writeTextFile(`${dir}/${p}`, text);
  for (const d of ["src", "docs", "node_modules"]) {
    await Deno.mkdir(`${dir}/${d}`);
  }
  await Deno.mkdir(`${dir}/shared`, { mode: 0o777 });
  await Deno.chmod(`${dir}/shared`, 0o1777); // sticky, other-writable
  await mk("README.md", "# demo\n");
  await mk("main.ts", "console.log(1);\n");
  await mk("deno.json", "{}\n");
  await mk("build.sh", "#!/bin/sh\n");
  await Deno.chmod(`${dir}/build.sh`, 0o755);
  await mk("release.tar.gz", "x".repeat(4096));
  await mk("backup.zip", "x".repeat(2048));
  await mk("logo.png", "x".repeat(16384));
  await mk("intro.mp4", "x".repeat(65536));
  await mk("notes.txt", "todo\n");
  await Deno.symlink("src", `${dir}/current`);
  await Deno.symlink("missing-file", `${dir}/dangling`);
  await new Deno.Command("mkfifo", { args: [`${dir}/pipe`] }).output();
}

/** Type a command line into the terminal and press Enter. */
async function type(page: Page, line: string): Promise<void> {
  await page.keyboard.type(line, { delay: 2 });
  await page.keyboard.press("Enter");
}

async function shot(page: Page, name: string): Promise<void> {
  // Let the last output render and the cursor settle.
  await page.waitForTimeout(400);
  const path = `${outDir}/${name}`;
  await page.screenshot({ path });
  console.log(`wrote ${path}`);
}

const scratch = await Deno.makeTempDir({ prefix: "domterm-shots-" });
const home = `${scratch}/home`;
const demo = `${home}/project`;
await Deno.mkdir(home);
await Deno.mkdir(demo);
await makeLsDemo(demo);
await Deno.mkdir(outDir, { recursive: true });

const env = {
  HOME: home,
  XDG_CONFIG_HOME: `${home}/.config`,
  PS1: "\\[\\e[1;32m\\]ana@devbox\\[\\e[0m\\]:\\[\\e[1;34m\\]\\w\\[\\e[0m\\]$ ",
  INPUTRC: "/dev/null",
  LANG: "C.UTF-8",
};
const d = await startDomterm(["bash", "--norc", "--noprofile", "-i"], {
  env,
  viewport: VIEWPORT,
});
try {
  const page = d.page;
  await page.emulateMedia({ colorScheme: light ? "light" : "dark" });
  await page.waitForFunction(() =>
    document.querySelector(".dt-row")?.textContent?.includes("$")
  );
  await type(page, `eval "$(dircolors -b)"; cd ~/project; clear`);
  await waitForRow(page, "ana@devbox:~/project$");

  // ls
  await type(page, "ls --color=auto");
  await type(page, "ls -l --color=auto --time-style=+%b%_d");
  // Three prompts: before each ls and after the second.
  await page.waitForFunction(() =>
    Array.from(document.querySelectorAll(".dt-viewport .dt-row")).filter((r) =>
      r.textContent?.startsWith("ana@devbox:~/project$")
    ).length >= 3
  );
  await shot(page, "ls-color.png");

  // vim on one of our own sources
  await type(page, "clear");
  // From the checkout, so the status line shows a short path.
  await type(
    page,
    `cd ${new URL(".", ROOT).pathname} && vim -N -u NONE -c 'syntax on' ` +
      `-c 'set number ruler laststatus=2 background=${
        light ? "light" : "dark"
      }' -c 'normal! 40G' client/scrollback.ts`,
  );
  await page.waitForFunction(() =>
    !document.querySelector(".dt-alt")?.hasAttribute("hidden")
  );
  await page.waitForTimeout(800);
  await shot(page, "vim.png");
  await type(page, ":q!");
  await page.waitForFunction(() =>
    document.querySelector(".dt-alt")?.hasAttribute("hidden")
  );

  // htop
  await type(page, "clear; cd ~/project; htop");
  await page.waitForFunction(() =>
    !document.querySelector(".dt-alt")?.hasAttribute("hidden")
  );
  await page.waitForTimeout(2500);
  await shot(page, "htop.png");
  await page.keyboard.press("q");
} finally {
  await d.close();
  await Deno.remove(scratch, { recursive: true });
}
