/**
 * Harness for driving real terminal programs (vim, less, tmux, vttest...)
 * through a real pseudo-terminal into the headless core emulator.
 *
 * Output of the program goes into a {@link Terminal}; the terminal's replies
 * (DA, CPR, DECRQM...) go back to the program through the PTY, as a real
 * terminal's would. The child runs in a clean environment: HOME is a fresh
 * temporary directory with minimal rc files, TERM=xterm-256color,
 * LANG=C.UTF-8, so the user's configuration cannot change what is drawn.
 *
 * Tests wait for screen conditions ({@link ProgramSession.waitForScreen}),
 * never for fixed delays; a timeout reports the screen as it was.
 *
 * @module
 */
import { Terminal } from "../../core/emulator/terminal.ts";
import { encodeKey, type KeyPress } from "../../core/keys.ts";
import type { Line } from "../../core/model/line.ts";
import { libc } from "../../server/pty/libc.ts";
import { Pty } from "../../server/pty/pty.ts";

// Open libc before any test runs: the library handle lives as long as the
// process, and Deno's resource sanitizer would blame the first test.
libc();

/** Default time a screen condition may take (the machine is shared and slow). */
export const DEFAULT_TIMEOUT_MS = 15_000;

/** rc files written into the temporary HOME (relative path -> content). */
const DEFAULT_HOME_FILES: Record<string, string> = {
  // Plain prompt, no history file shared with the user, no bracketed paste
  // noise in the screen text.
  ".bashrc": "PS1='$ '\nHISTFILE=\nunset PROMPT_COMMAND\n",
  ".bash_profile": ". ~/.bashrc\n",
  ".inputrc": "set enable-bracketed-paste off\nset bell-style none\n",
  // A .vimrc (even a near-empty one) stops vim from loading defaults.vim.
  ".vimrc": "set nocompatible\nset noswapfile\nset viminfo=\nset belloff=all\n",
  ".nanorc": "",
  ".tmux.conf": "set -g status on\nset -g escape-time 10\n",
};

/** How to start a program. */
export interface ProgramOptions {
  /** Program, looked up in PATH. */
  command: string;
  args?: string[];
  /** Default 80. */
  cols?: number;
  /** Default 24. */
  rows?: number;
  /** Extra environment variables (added to the clean environment). */
  env?: Record<string, string>;
  /** Extra files to create in HOME, relative path -> content. */
  files?: Record<string, string>;
  /** Working directory, relative to HOME (default HOME). */
  cwd?: string;
}

/** A key for {@link ProgramSession.key}: a `KeyboardEvent.key` plus modifiers. */
export interface KeySpec {
  ctrl?: boolean;
  alt?: boolean;
  shift?: boolean;
}

/** Throws a clear error if `program` is not installed. */
export function requireProgram(program: string): string {
  const dirs = (Deno.env.get("PATH") ?? "/usr/bin:/bin").split(":");
  for (const dir of dirs) {
    try {
      const path = `${dir}/${program}`;
      if (Deno.statSync(path).isFile) return path;
    } catch {
      // not here
    }
  }
  throw new Error(
    `program '${program}' is missing: install it (Debian: see .ci/run)`,
  );
}

/** A `code` (physical key) for a key name or character, as browsers report it. */
function codeFor(key: string): string {
  if (/^[a-z]$/i.test(key)) return `Key${key.toUpperCase()}`;
  if (/^[0-9]$/.test(key)) return `Digit${key}`;
  if (key === " ") return "Space";
  return key.length > 1 ? key : "";
}

/** A running program on a PTY whose output feeds a headless Terminal. */
export class ProgramSession {
  readonly term: Terminal;
  readonly pty: Pty;
  /** The temporary HOME (removed by {@link close}). */
  readonly home: string;
  /** Every byte the program wrote, in order (for failure reports). */
  readonly output: Uint8Array[] = [];

  #reader: Promise<void>;
  #eof = false;
  #waiters = new Set<() => void>();
  #closed = false;

  private constructor(term: Terminal, pty: Pty, home: string) {
    this.term = term;
    this.pty = pty;
    this.home = home;
    this.#reader = this.#readLoop();
  }

  /** Start `options.command` on a new PTY of the given size. */
  static start(options: ProgramOptions): ProgramSession {
    requireProgram(options.command);
    const cols = options.cols ?? 80, rows = options.rows ?? 24;
    const home = Deno.makeTempDirSync({ prefix: "domterm-programs-" });
    const files = { ...DEFAULT_HOME_FILES, ...options.files };
    for (const [path, content] of Object.entries(files)) {
      const full = `${home}/${path}`;
      Deno.mkdirSync(full.slice(0, full.lastIndexOf("/")), { recursive: true });
      Deno.writeTextFileSync(full, content);
    }
    // The XDG directories exist, as in a real account (nano complains
    // about its history file otherwise).
    for (const dir of [".config", ".local/share", ".cache"]) {
      Deno.mkdirSync(`${home}/${dir}`, { recursive: true });
    }
    const env = cleanEnv(home, options.env);
    let pty: Pty;
    try {
      pty = Pty.spawn({
        command: options.command,
        args: options.args ?? [],
        cols,
        rows,
        env,
        cwd: options.cwd ? `${home}/${options.cwd}` : home,
      });
    } catch (e) {
      Deno.removeSync(home, { recursive: true });
      throw e;
    }
    // The terminal answers queries through the PTY; the holder lets the
    // reply callback reach the pty created after the terminal.
    const holder: { pty?: Pty } = {};
    const term: Terminal = new Terminal({
      cols,
      rows,
      reply: (data) => {
        holder.pty?.write(data).catch(() => {});
      },
      // The model takes a size a program asks for (DECCOLM, XTWINOPS 8) at
      // once; this terminal's window cannot follow (as tmux, which made the
      // goldens), so, as the page would, it gives back the size it has.
      onEvent: (e) => {
        if (e.type === "resize-request") term.resize(cols, rows);
      },
    });
    holder.pty = pty;
    return new ProgramSession(term, pty, home);
  }

  async #readLoop(): Promise<void> {
    for (;;) {
      let chunk: Uint8Array | null;
      try {
        chunk = await this.pty.read();
      } catch {
        chunk = null;
      }
      if (chunk === null) break;
      this.output.push(chunk);
      this.term.write(chunk);
      for (const wake of [...this.#waiters]) wake();
    }
    this.#eof = true;
    for (const wake of [...this.#waiters]) wake();
  }

  /** True once the program's output has ended. */
  get ended(): boolean {
    return this.#eof;
  }

  // ------------------------------------------------------------ screen

  /** Screen row `y` of the active buffer. */
  line(y: number): Line {
    const buf = this.term.buffer;
    return buf.getLine(buf.length - this.term.rows + y);
  }

  /** The screen rows as text, trailing blanks trimmed (as `tmux capture-pane -p`). */
  lines(): string[] {
    const out: string[] = [];
    for (let y = 0; y < this.term.rows; y++) {
      out.push(this.line(y).toString().trimEnd());
    }
    return out;
  }

  /** The screen as text: rows joined by "\n", trailing blank rows dropped. */
  text(): string {
    const lines = this.lines();
    while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
    return lines.join("\n");
  }

  /** Cursor as [column, row], 0-based. */
  get cursor(): [number, number] {
    return [this.term.cursorX, this.term.cursorY];
  }

  /** Attribute word (A_* bits) of cell (x, y). */
  attr(x: number, y: number): number {
    return this.line(y).attr(x);
  }

  /** Foreground colour word of cell (x, y). */
  fg(x: number, y: number): number {
    return this.line(y).fg(x);
  }

  /** Background colour word of cell (x, y). */
  bg(x: number, y: number): number {
    return this.line(y).bg(x);
  }

  /** The column of the first occurrence of `text` on row y, or -1. */
  find(text: string, y: number): number {
    return this.line(y).toString().indexOf(text);
  }

  /** The screen framed with row numbers, for failure messages. */
  dump(): string {
    const [x, y] = this.cursor;
    const rows = this.lines().map((l, i) => `${String(i).padStart(2)}|${l}`);
    return `${rows.join("\n")}\ncursor (${x},${y}), ${
      this.term.buffer.isAlt ? "alternate" : "normal"
    } screen${this.#eof ? ", program ended" : ""}`;
  }

  // ------------------------------------------------------------ waiting

  /**
   * Resolves once `cond` holds for the screen: a predicate over the
   * session, a RegExp or a substring of {@link text}. Rejects after
   * `timeoutMs` (or when the program ends first) with the current screen.
   */
  waitForScreen(
    cond: ((s: ProgramSession) => boolean) | RegExp | string,
    timeoutMs: number = DEFAULT_TIMEOUT_MS,
    what?: string,
  ): Promise<void> {
    const test = typeof cond === "function"
      ? () => cond(this)
      : typeof cond === "string"
      ? () => this.text().includes(cond)
      : () => cond.test(this.text());
    const label = what ??
      (typeof cond === "function" ? "screen condition" : String(cond));
    if (test()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const finish = (err?: Error) => {
        clearTimeout(timer);
        this.#waiters.delete(check);
        if (err) reject(err);
        else resolve();
      };
      const check = () => {
        if (test()) finish();
        else if (this.#eof) {
          finish(new Error(`program ended before ${label}:\n${this.dump()}`));
        }
      };
      const timer = setTimeout(() => {
        finish(
          new Error(
            `timeout after ${timeoutMs} ms waiting for ${label}:\n${this.dump()}`,
          ),
        );
      }, timeoutMs);
      this.#waiters.add(check);
      check();
    });
  }

  /**
   * Forget which rows changed (clears the lines' dirty flags), so that
   * {@link changed} tells whether the program drew anything since.
   */
  markClean(): void {
    for (const buf of [this.term.normalBuffer, this.term.buffer]) {
      for (
        let i = Math.max(0, buf.length - this.term.rows);
        i < buf.length;
        i++
      ) {
        buf.getLine(i).dirty = false;
      }
    }
  }

  /** True if a screen row was written since the last {@link markClean}. */
  changed(): boolean {
    for (let y = 0; y < this.term.rows; y++) {
      if (this.line(y).dirty) return true;
    }
    return false;
  }

  /**
   * Waits until the screen text equals `expected` (trailing blanks per row
   * and trailing blank rows ignored); the timeout error shows a row diff.
   * With `changed`, a row must also have been drawn since
   * {@link markClean}: for a screen that looks like the one before it.
   */
  async waitForText(
    expected: string,
    options: { timeoutMs?: number; what?: string; changed?: boolean } = {},
  ): Promise<void> {
    const want = normalizeScreen(expected);
    try {
      await this.waitForScreen(
        (s) => (!options.changed || s.changed()) && s.text() === want,
        options.timeoutMs,
        options.what ?? "screen",
      );
    } catch (e) {
      throw new Error(
        `${(e as Error).message}\n--- diff (row: want / got)\n${
          diffScreens(want, this.text())
        }`,
      );
    }
  }

  /** Sends `keys`, then waits for the screen `expected`, redrawn after the keys. */
  async sendAndExpect(
    keys: string,
    expected: string,
    what?: string,
  ): Promise<void> {
    this.markClean();
    await this.send(keys);
    await this.waitForText(expected, { what, changed: true });
  }

  // ------------------------------------------------------------ input

  /** Send raw text (as typed) or bytes to the program. */
  async send(data: string | Uint8Array): Promise<void> {
    await this.pty.write(data);
  }

  /**
   * Bytes the terminal sends for a key (a `KeyboardEvent.key` name such as
   * "ArrowUp", "Enter", "F10", or a character with Ctrl/Alt), from
   * core/keys.ts with the terminal's current modes (application cursor keys...).
   */
  keyBytes(key: string, mods: KeySpec = {}): string {
    const press: KeyPress = {
      key,
      code: codeFor(key),
      ctrlKey: mods.ctrl ?? false,
      altKey: mods.alt ?? false,
      shiftKey: mods.shift ?? false,
      metaKey: false,
    };
    const bytes = encodeKey(press, this.term.modes);
    if (bytes !== null) return bytes;
    // Plain characters reach the program through the input event: as typed.
    if ([...key].length === 1 && !mods.ctrl && !mods.alt) return key;
    throw new Error(`no key encoding for ${JSON.stringify({ key, ...mods })}`);
  }

  /** Press a key (see {@link keyBytes}) `times` times. */
  async key(key: string, mods: KeySpec = {}, times = 1): Promise<void> {
    for (let i = 0; i < times; i++) await this.send(this.keyBytes(key, mods));
  }

  // ------------------------------------------------------------ end

  /** Ends the program (SIGHUP, then SIGKILL) and removes the temporary HOME. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.pty.close();
    await this.#reader;
    try {
      Deno.removeSync(this.home, { recursive: true });
    } catch {
      // a program may still be writing there; the directory is temporary
    }
  }

  /** Waits for the program to exit by itself and reads all its output. */
  async waitForExit(timeoutMs = DEFAULT_TIMEOUT_MS): Promise<void> {
    await this.waitForScreen(() => this.#eof, timeoutMs, "program exit")
      .catch((e) => {
        if (!this.#eof) throw e;
      });
  }
}

/** The clean environment for programs under test. */
function cleanEnv(
  home: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    PATH: "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin",
    HOME: home,
    USER: Deno.env.get("USER") ?? "tester",
    LOGNAME: Deno.env.get("USER") ?? "tester",
    SHELL: "/bin/bash",
    TERM: "xterm-256color",
    LANG: "C.UTF-8",
    LC_ALL: "C.UTF-8",
    TZ: "UTC",
    XDG_CONFIG_HOME: `${home}/.config`,
    XDG_DATA_HOME: `${home}/.local/share`,
    XDG_CACHE_HOME: `${home}/.cache`,
    XDG_RUNTIME_DIR: home,
    // tmux puts its server socket here: each test gets its own server.
    TMUX_TMPDIR: home,
    LESSHISTFILE: "-",
    ...extra,
  };
}

/** Trim trailing blanks of each row and trailing blank rows. */
export function normalizeScreen(text: string): string {
  const lines = text.split("\n").map((l) => l.trimEnd());
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines.join("\n");
}

/** The rows that differ between two screens, for error messages. */
export function diffScreens(want: string, got: string): string {
  const a = want.split("\n"), b = got.split("\n");
  const out: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) {
      out.push(`${String(i).padStart(2)}- ${a[i] ?? ""}`);
      out.push(`${String(i).padStart(2)}+ ${b[i] ?? ""}`);
    }
  }
  return out.join("\n") || "(no difference)";
}

/**
 * Runs `body` with a started session and always closes it; a failure message
 * includes the final screen.
 */
export async function withProgram(
  options: ProgramOptions,
  body: (s: ProgramSession) => Promise<void>,
): Promise<void> {
  const s = ProgramSession.start(options);
  try {
    await body(s);
  } finally {
    await s.close();
  }
}
