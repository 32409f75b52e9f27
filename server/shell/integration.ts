/**
 * Shell integration: how to start bash, zsh or fish so that they load
 * domterm's integration script (server/shell/*.sh|zsh|fish) after the user's
 * own startup files, without touching any file of the user.
 *
 * - bash: `--rcfile <tmp>/bashrc`, a file that sources ~/.bashrc (or, for a
 *   login shell, /etc/profile and the first of ~/.bash_profile,
 *   ~/.bash_login, ~/.profile) and then the script.
 * - zsh: `ZDOTDIR=<tmp>`, whose .zshenv/.zprofile/.zshrc/.zlogin each run
 *   the user's file of the same name from the user's own ZDOTDIR (or HOME);
 *   .zshrc then sources the script. ZDOTDIR is the user's again once
 *   startup is over.
 * - fish: `--init-command 'source <tmp>/domterm.fish'`, which fish runs
 *   after config.fish.
 *
 * Shells started later inside a session (typing `bash`, `sudo -s`, ssh)
 * load the same scripts from their own rc files: {@linkcode writeShellScripts}
 * puts them in the server's runtime directory, named by the sessions'
 * `DOMTERM_SHELL_SCRIPTS` variable (the one-liners are in
 * docs/shell-integration.md). Their prompts carry `aid=` (the shell's pid),
 * so their command groups nest inside the outer shell's command.
 *
 * Everything here is pure except that {@linkcode planShellLaunchSync} and
 * {@linkcode writeShellScripts} write files into private directories.
 *
 * @module
 */

import { basename, join } from "node:path";
import { bashScript, fishScript, zshScript } from "./scripts.ts";

/** A shell that domterm has an integration script for. */
export type ShellKind = "bash" | "zsh" | "fish";

/**
 * Which shell a command is, from the basename of argv[0] (`bash`,
 * `/usr/bin/zsh`, `-fish` as a login shell's argv[0]), or null for any other
 * program (including `sh`, `rbash` and versioned names like `bash5`).
 */
export function detectShell(command: string): ShellKind | null {
  const name = basename(command).replace(/^-/, "");
  return name === "bash" || name === "zsh" || name === "fish" ? name : null;
}

/**
 * The integration script for a shell, e.g. for
 * `domterm shell-integration bash` so that users can source it from their
 * own startup files (useful over ssh or inside tmux, where domterm did not
 * start the shell).
 */
export function integrationScript(kind: ShellKind): string {
  switch (kind) {
    case "bash":
      return bashScript;
    case "zsh":
      return zshScript;
    case "fish":
      return fishScript;
  }
}

/** How to start a shell: the program, its arguments and its environment. */
export interface LaunchPlan {
  /** Program to run (argv[0]). */
  command: string;
  /** argv[1..]. */
  args: string[];
  /** The complete environment of the child. */
  env: Record<string, string>;
  /** Temp files/dirs to remove (recursively) when the session ends. */
  cleanup: string[];
}

/**
 * How to start `command args` with shell integration injected, given the
 * child's environment `env`. Files go into a new subdirectory of `dir`, a
 * private (0700) temp directory of the caller; it is listed in `cleanup`.
 *
 * Returns the launch unchanged (a copy, with empty `cleanup`) when the
 * command is not bash/zsh/fish, when `env.DOMTERM_SHELL_INTEGRATION` is
 * "0", or when the arguments make injection wrong or pointless: a command
 * string (`-c`), a script file, options that ask for no startup files
 * (bash `--norc`/`--rcfile`/`--posix`, zsh `-f`/`no_rcs`, fish
 * `--no-config`), and any option this module does not know.
 *
 * A login shell (`-l`, `--login`, or argv[0] starting with "-") stays a
 * login shell for zsh and fish (argv[0] "-zsh" becomes `zsh -l`, since
 * argv[0] cannot be set apart from the program). bash ignores --rcfile in a
 * login shell, so it is started as an interactive non-login shell whose
 * rcfile runs the login files instead (see docs/shell-integration.md).
 */
export function planShellLaunchSync(
  command: string,
  args: string[],
  env: Record<string, string>,
  dir: string,
): LaunchPlan {
  const unchanged: LaunchPlan = {
    command,
    args: [...args],
    env: { ...env },
    cleanup: [],
  };
  const kind = detectShell(command);
  if (kind === null || env.DOMTERM_SHELL_INTEGRATION === "0") return unchanged;
  const dashLogin = basename(command).startsWith("-");
  // argv[0] is also the file to run: "-bash" would not be found.
  const program = dashLogin
    ? join(command.slice(0, command.length - basename(command).length), kind)
    : command;

  switch (kind) {
    case "bash": {
      const parsed = parseBashArgs(args);
      if (!parsed) return unchanged;
      const login = parsed.login || dashLogin;
      const tmp = Deno.makeTempDirSync({ dir, prefix: "bash-" });
      const script = join(tmp, "domterm.bash");
      const rcfile = join(tmp, "bashrc");
      writePrivate(script, bashScript);
      writePrivate(rcfile, bashRcfile(script, login, parsed.noProfile));
      return {
        command: program,
        args: [
          "--rcfile",
          rcfile,
          ...parsed.longOptions,
          // Interactive although not a login shell: say so explicitly.
          ...(login ? ["-i"] : []),
          ...parsed.rest,
        ],
        env: { ...env },
        cleanup: [tmp],
      };
    }
    case "zsh": {
      if (!zshArgsAllowInjection(args)) return unchanged;
      const tmp = Deno.makeTempDirSync({ dir, prefix: "zsh-" });
      const script = join(tmp, "domterm.zsh");
      writePrivate(script, zshScript);
      for (const [name, text] of Object.entries(zshStartupFiles(tmp, script))) {
        writePrivate(join(tmp, name), text);
      }
      const childEnv: Record<string, string> = { ...env, ZDOTDIR: tmp };
      // Its absence means that the user had no ZDOTDIR.
      delete childEnv.DOMTERM_ORIG_ZDOTDIR;
      if (env.ZDOTDIR !== undefined) {
        childEnv.DOMTERM_ORIG_ZDOTDIR = env.ZDOTDIR;
      }
      return {
        command: program,
        args: [...(dashLogin ? ["-l"] : []), ...args],
        env: childEnv,
        cleanup: [tmp],
      };
    }
    case "fish": {
      if (!fishArgsAllowInjection(args)) return unchanged;
      const tmp = Deno.makeTempDirSync({ dir, prefix: "fish-" });
      const script = join(tmp, "domterm.fish");
      writePrivate(script, fishScript);
      return {
        command: program,
        args: [
          ...(dashLogin ? ["-l"] : []),
          "--init-command",
          `source ${fishQuote(script)}`,
          ...args,
        ],
        env: { ...env },
        cleanup: [tmp],
      };
    }
  }
}

function writePrivate(path: string, text: string): void {
  Deno.writeTextFileSync(path, text, { mode: 0o600, createNew: true });
}

/** A POSIX shell word for `s` (bash and zsh both read it back exactly). */
export function shQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/** A fish word for `s`: inside single quotes fish unescapes \' and \\. */
function fishQuote(s: string): string {
  return `'${s.replace(/[\\']/g, "\\$&")}'`;
}

// ---------------------------------------------------------------- bash

interface BashArgs {
  /** -l / --login was given (removed from the arguments). */
  login: boolean;
  noProfile: boolean;
  /** Long options to keep, in order (bash wants them before short ones). */
  longOptions: string[];
  /** Everything else, in order. */
  rest: string[];
}

/** Long options that do not conflict with --rcfile. */
const BASH_LONG_OK = new Set([
  "--noediting",
  "--noprofile",
  "--verbose",
  "--debugger",
]);
/** Single-letter options that do not conflict with --rcfile (i: interactive). */
const BASH_SHORT_OK = new Set("abefhikmnptuvxBCEHPT");
/** bash -o / +o names that make injection wrong. */
const BASH_BAD_SET_O = new Set(["posix"]);

/**
 * The arguments as far as injection cares, or null if they must not be
 * touched: -c, -r (restricted), -D, a script file, --norc, --rcfile,
 * --init-file, --posix, -o posix, --help, --version, or anything unknown.
 */
function parseBashArgs(args: string[]): BashArgs | null {
  const out: BashArgs = {
    login: false,
    noProfile: false,
    longOptions: [],
    rest: [],
  };
  let stdinMode = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--" || arg === "-") {
      // The end of options: what follows is a script and its arguments,
      // unless -s made them positional parameters.
      if (i + 1 < args.length && !stdinMode) return null;
      out.rest.push(...args.slice(i));
      break;
    }
    if (arg.startsWith("--")) {
      if (arg === "--login") out.login = true;
      else if (BASH_LONG_OK.has(arg)) {
        if (arg === "--noprofile") out.noProfile = true;
        out.longOptions.push(arg);
      } else return null;
      continue;
    }
    if (arg.length > 1 && (arg[0] === "-" || arg[0] === "+")) {
      let kept = arg[0];
      for (const ch of arg.slice(1)) {
        if (ch === "o" || ch === "O") {
          // Takes the next argument (an option name).
          const name = args[++i];
          if (name === undefined) return null;
          if (ch === "o" && BASH_BAD_SET_O.has(name)) return null;
          if (kept.length > 1) out.rest.push(kept);
          out.rest.push(arg[0] + ch, name);
          kept = arg[0];
        } else if (ch === "l" && arg[0] === "-") out.login = true;
        else if (ch === "s") {
          stdinMode = true;
          kept += ch;
        } else if (BASH_SHORT_OK.has(ch)) kept += ch;
        else return null; // c, r, D, unknown
      }
      if (kept.length > 1) out.rest.push(kept);
      continue;
    }
    // A non-option: a script file, or with -s the first positional parameter.
    if (!stdinMode) return null;
    out.rest.push(...args.slice(i));
    break;
  }
  return out;
}

/**
 * The --rcfile for bash. bash itself reads the system-wide rc file first
 * where it is built to (Debian: /etc/bash.bashrc), --rcfile or not, so this
 * file does not read it again.
 */
function bashRcfile(script: string, login: boolean, noProfile: boolean) {
  const lines = [
    "# Generated by domterm for one shell session: runs the user's startup",
    "# files as bash would, then domterm's shell integration.",
  ];
  if (login && !noProfile) {
    // What a login shell reads (bash ignores --rcfile in a login shell, so
    // this one is not a login shell: see docs/shell-integration.md).
    lines.push(
      "if [ -r /etc/profile ]; then . /etc/profile; fi",
      "if [ -r ~/.bash_profile ]; then . ~/.bash_profile",
      "elif [ -r ~/.bash_login ]; then . ~/.bash_login",
      "elif [ -r ~/.profile ]; then . ~/.profile",
      "fi",
    );
  } else if (!login) {
    lines.push("if [ -r ~/.bashrc ]; then . ~/.bashrc; fi");
  }
  lines.push(`. ${shQuote(script)}`, "");
  return lines.join("\n");
}

// ----------------------------------------------------------------- zsh

/** zsh option name in canonical form: case, `_` and `-` do not matter. */
function zshOptionName(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, "");
}

/**
 * Whether setting zsh option `name` on (`on`) or off turns off the reading
 * of startup files (RCS, set off by -f / --no-rcs / -o norcs / +o rcs).
 */
function zshOptionDisablesRcs(name: string, on: boolean): boolean {
  let n = zshOptionName(name);
  if (n.startsWith("no")) {
    n = n.slice(2);
    on = !on;
  }
  return n === "rcs" && !on;
}

/** Single-letter zsh options that take no argument and are harmless here. */
const ZSH_SHORT_OK = new Set(
  "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabdeghijklmnpqrstuvwxyz",
);

/** False for -c, -f, no_rcs, --emulate, a script file, --help/--version. */
function zshArgsAllowInjection(args: string[]): boolean {
  let stdinMode = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--" || arg === "-") {
      return i + 1 >= args.length || stdinMode;
    }
    if (arg.startsWith("--")) {
      const name = arg.slice(2);
      const n = zshOptionName(name);
      if (n === "help" || n === "version" || n === "emulate") return false;
      if (zshOptionDisablesRcs(name, true)) return false;
      if (n === "shinstdin") stdinMode = true;
      continue;
    }
    if (arg.length > 1 && (arg[0] === "-" || arg[0] === "+")) {
      const on = arg[0] === "-";
      for (const ch of arg.slice(1)) {
        if (ch === "o") {
          const name = args[++i];
          if (name === undefined) return false;
          if (zshOptionDisablesRcs(name, on)) return false;
        } else if (ch === "b") return i + 1 >= args.length || stdinMode;
        else if (ch === "c" || (ch === "f" && on)) return false;
        else if (ch === "s") stdinMode = true;
        else if (!ZSH_SHORT_OK.has(ch) && ch !== "f") return false;
      }
      continue;
    }
    return stdinMode;
  }
  return true;
}

/**
 * The four startup files of the temp ZDOTDIR. Each one puts the user's
 * ZDOTDIR back, runs the user's file of the same name, notes where the
 * user's ZDOTDIR now points (their .zshenv may set it) and points zsh at the
 * temp directory again for the next file, as long as one will be read.
 */
function zshStartupFiles(
  tmp: string,
  script: string,
): Record<string, string> {
  const header = [
    "# Generated by domterm for one shell session: runs the user's file of",
    "# the same name, with the user's ZDOTDIR (see server/shell/integration.ts).",
  ];
  // The user's ZDOTDIR is kept in __domterm_zd_value, and its type (empty:
  // unset; "scalar-export": exported) in __domterm_zd_type.
  const restore = [
    "if [[ -z $__domterm_zd_type ]]; then",
    "  unset ZDOTDIR",
    "else",
    "  ZDOTDIR=$__domterm_zd_value",
    "  if [[ $__domterm_zd_type == *export* ]]; then export ZDOTDIR; else typeset +x ZDOTDIR; fi",
    "fi",
  ];
  const source = (name: string) =>
    `if [[ -f \${ZDOTDIR-$HOME}/${name} ]]; then source \${ZDOTDIR-$HOME}/${name}; fi`;
  const saveAndRedirect = [
    "__domterm_zd_type=${(t)ZDOTDIR-}",
    "__domterm_zd_value=${ZDOTDIR-}",
    "ZDOTDIR=$__domterm_zd_ours",
  ];
  const finish = [
    "unset __domterm_zd_type __domterm_zd_value __domterm_zd_ours",
  ];
  /** Code that redirects if zsh will read another file, else finishes. */
  const next = (more: string) => [
    `if [[ -o rcs && ( ${more} ) ]]; then`,
    ...saveAndRedirect.map((l) => "  " + l),
    "else",
    ...finish.map((l) => "  " + l),
    "fi",
  ];
  const file = (...parts: string[][]) =>
    [...header, ...parts.flat(), ""].join("\n");

  return {
    ".zshenv": file(
      [
        `__domterm_zd_ours=${shQuote(tmp)}`,
        "# DOMTERM_ORIG_ZDOTDIR carries the user's ZDOTDIR; unset means none.",
        "if [[ -n ${DOMTERM_ORIG_ZDOTDIR+x} ]]; then",
        "  __domterm_zd_type=scalar-export",
        "  __domterm_zd_value=$DOMTERM_ORIG_ZDOTDIR",
        "  unset DOMTERM_ORIG_ZDOTDIR",
        "else",
        "  __domterm_zd_type=",
        "  __domterm_zd_value=",
        "fi",
      ],
      restore,
      [source(".zshenv")],
      next("-o login || -o interactive"),
    ),
    // A login shell always reads .zlogin after .zprofile.
    ".zprofile": file(restore, [source(".zprofile")], next("-o login")),
    ".zshrc": file(
      restore,
      [source(".zshrc"), `source ${shQuote(script)}`],
      next("-o login"),
    ),
    ".zlogin": file(restore, [source(".zlogin")], finish),
  };
}

// ---------------------------------------------------------------- fish

/** fish options that take an argument (short and long forms). */
const FISH_SHORT_WITH_ARG = new Set("Cdfop");
const FISH_LONG_WITH_ARG = new Set([
  "--init-command",
  "--debug",
  "--debug-output",
  "--features",
  "--profile",
  "--profile-startup",
]);
const FISH_SHORT_OK = new Set("ilP");
const FISH_LONG_OK = new Set(["--interactive", "--login", "--private"]);

/** False for -c, a script file, --no-config, -n, --help/--version, unknown options. */
function fishArgsAllowInjection(args: string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--" || arg === "-") return i + 1 >= args.length;
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq < 0 ? arg : arg.slice(0, eq);
      if (FISH_LONG_WITH_ARG.has(name)) {
        if (eq < 0 && ++i >= args.length) return false;
      } else if (!FISH_LONG_OK.has(name) || eq >= 0) return false;
      continue;
    }
    if (arg.length > 1 && arg[0] === "-") {
      for (let j = 1; j < arg.length; j++) {
        const ch = arg[j];
        if (FISH_SHORT_WITH_ARG.has(ch)) {
          // The rest of the word is the argument, or else the next word.
          if (j === arg.length - 1 && ++i >= args.length) return false;
          break;
        }
        if (!FISH_SHORT_OK.has(ch)) return false; // c, n, N, h, v, unknown
      }
      continue;
    }
    return false; // a script file
  }
  return true;
}

/** File names of the scripts in {@linkcode writeShellScripts}'s directory. */
export const SCRIPT_FILES: Record<ShellKind, string> = {
  bash: "bash.sh",
  zsh: "zsh.zsh",
  fish: "fish.fish",
};

/**
 * Write the three integration scripts into `dir/shell` (created 0700) and
 * return that directory, for the sessions' `DOMTERM_SHELL_SCRIPTS`. Each file
 * is replaced by a rename, so a shell sourcing the old one reads it whole.
 */
export function writeShellScripts(dir: string): string {
  const out = join(dir, "shell");
  Deno.mkdirSync(out, { recursive: true, mode: 0o700 });
  for (const kind of ["bash", "zsh", "fish"] as const) {
    const path = join(out, SCRIPT_FILES[kind]);
    const tmp = `${path}.${Deno.pid}.tmp`;
    Deno.writeTextFileSync(tmp, integrationScript(kind), { mode: 0o600 });
    Deno.renameSync(tmp, path);
  }
  return out;
}
