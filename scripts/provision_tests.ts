/**
 * Makes sure the machine has what the test suite drives: terminal programs
 * (vim, less, tmux, vttest...), the shells whose integration is tested, the
 * .desktop validator, openssl and OpenSSH. `deno task test` runs it first.
 *
 * Missing Debian packages are installed when that is possible without a
 * question (root, or `sudo -n`, with apt-get); otherwise it stops at once
 * with one message naming what is missing and the one command that
 * installs it. A browser is not required: the tests use a system Chromium
 * when there is one (installed here along with the rest when it can be),
 * else the one inside the npm package `@sparticuz/chromium`.
 *
 * `DOMTERM_TEST_PROVISION=0` skips the check (running a few test files by
 * hand on a machine that lacks some programs).
 *
 * @module
 */

/** A program the tests run, and the Debian package that has it. */
export interface Requirement {
  command: string;
  pkg: string;
}

/** Every program some test drives. */
export const REQUIREMENTS: Requirement[] = [
  ["tmux", "tmux"],
  ["stty", "coreutils"],
  ["ps", "procps"],
  ["top", "procps"],
  ["bash", "bash"],
  ["zsh", "zsh"],
  ["fish", "fish"],
  ["vim", "vim"],
  ["less", "less"],
  ["htop", "htop"],
  ["mc", "mc"],
  ["nano", "nano"],
  ["dialog", "dialog"],
  ["whiptail", "whiptail"],
  ["vttest", "vttest"],
  ["emacs", "emacs-nox"],
  ["nvim", "neovim"],
  ["fzf", "fzf"],
  ["ncdu", "ncdu"],
  ["btop", "btop"],
  ["tic", "ncurses-bin"],
  ["desktop-file-validate", "desktop-file-utils"],
  ["openssl", "openssl"],
  ["sshd", "openssh-server"],
  ["ssh", "openssh-client"],
  // Debian's Python and the libraries the Python integration is tested
  // with (tests/integrations/python_test.ts): files, not commands.
  ["/usr/bin/python3", "python3"],
  [
    "/usr/lib/python3/dist-packages/matplotlib/__init__.py",
    "python3-matplotlib",
  ],
  ["/usr/lib/python3/dist-packages/pandas/__init__.py", "python3-pandas"],
  ["/usr/bin/ipython3", "ipython3"],
].map(([command, pkg]) => ({ command, pkg }));

/** Browsers the tests prefer to the bundled one (tests/e2e/chromium.ts). */
const BROWSERS = ["chromium", "chromium-browser", "google-chrome"];
const PATH_EXTRA = ["/usr/sbin", "/sbin"]; // sshd lives there

/** Whether `command` is on PATH; a `command` that is a path: whether it exists. */
function onPath(command: string): boolean {
  if (command.startsWith("/")) {
    try {
      Deno.statSync(command);
      return true;
    } catch {
      return false;
    }
  }
  const dirs = (Deno.env.get("PATH") ?? "").split(":").concat(PATH_EXTRA);
  for (const d of dirs) {
    try {
      const info = Deno.statSync(`${d}/${command}`);
      if (info.isFile && (info.mode ?? 0o111) & 0o111) return true;
    } catch { /* not here */ }
  }
  return false;
}

/** The Debian packages that bring the missing programs (sorted, unique). */
export function missingPackages(
  requirements: Requirement[],
  has: (command: string) => boolean,
): string[] {
  const pkgs = new Set<string>();
  for (const r of requirements) if (!has(r.command)) pkgs.add(r.pkg);
  return [...pkgs].sort();
}

async function run(cmd: string[], quiet = true): Promise<boolean> {
  const out = await new Deno.Command(cmd[0], {
    args: cmd.slice(1),
    stdin: "null",
    stdout: quiet ? "null" : "inherit",
    stderr: "inherit",
    env: { DEBIAN_FRONTEND: "noninteractive" },
  }).output();
  return out.success;
}

async function canSudo(): Promise<boolean> {
  if (!onPath("sudo")) return false;
  return await run(["sudo", "-n", "true"]).catch(() => false);
}

async function main(): Promise<number> {
  if (Deno.env.get("DOMTERM_TEST_PROVISION") === "0") return 0;
  const needed = missingPackages(REQUIREMENTS, onPath);
  if (needed.length === 0) return 0;
  const wantBrowser = !Deno.env.get("CHROME_PATH") && !BROWSERS.some(onPath);
  const apt = onPath("apt-get");
  const root = Deno.uid?.() === 0;
  const prefix = root ? [] : (apt && await canSudo()) ? ["sudo", "-n"] : null;
  const command = `${root ? "" : "sudo "}apt-get install -y ${
    needed.join(" ")
  }`;
  if (!apt || prefix === null) {
    console.error(
      `The tests need programs this machine lacks (${
        needed.join(", ")
      } packages). ` +
        (apt
          ? `Install them with:\n  ${command}\n`
          : "Install them with your package manager (Debian package names).\n") +
        "(DOMTERM_TEST_PROVISION=0 runs the tests without them; the tests that need them fail.)",
    );
    return 1;
  }
  const pkgs = wantBrowser ? [...needed, "chromium"] : needed;
  console.error(`provisioning: apt-get install ${pkgs.join(" ")}`);
  const ok = await run([...prefix, "apt-get", "update", "-qq"]) &&
    await run([...prefix, "apt-get", "install", "-y", "-qq", ...pkgs]);
  const still = missingPackages(REQUIREMENTS, onPath);
  if (!ok || still.length) {
    console.error(
      `provisioning failed: still missing ${
        still.join(", ") || "(apt-get failed)"
      }. Install them with:\n  ${command}`,
    );
    return 1;
  }
  return 0;
}

if (import.meta.main) Deno.exit(await main());
