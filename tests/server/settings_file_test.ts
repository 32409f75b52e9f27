/**
 * The settings file on the server: read with line numbers for bad values
 * (the old value kept), written keeping the user's lines, watched (a change
 * reaches an open window's WebSocket as a `settings` message), saved from a
 * window (`save-settings`), and `domterm settings key=value` run inside a
 * session through the real control socket.
 */
import { assert, assertEquals, assertMatch } from "../assert.ts";
import { startServer } from "../../server/http.ts";
import {
  readSettingsText,
  setKeyInText,
  SettingsStore,
} from "../../server/settings/file.ts";
import { listenControl } from "../../server/control.ts";
import { sessionControl } from "../../server/session_control.ts";
import type { ServerMessage, SettingsMessage } from "../../core/protocol.ts";
import { defaultSettings } from "../../core/settings/schema.ts";
import { TestClient } from "./ws_client.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const ASSETS = {
  "/": { type: "text/html", body: "<!DOCTYPE html><title>t</title>" },
};

function settingsMsgs(c: TestClient): SettingsMessage[] {
  return c.messages.filter((m: ServerMessage) =>
    m.type === "settings"
  ) as SettingsMessage[];
}

Deno.test("settings file: a bad value is reported with its file and line, and keeps the value it had", () => {
  const dir = Deno.makeTempDirSync();
  const path = `${dir}/settings.toml`;
  const logged: string[] = [];
  const store = new SettingsStore(path, {}, (m) => logged.push(m));
  // No file: the defaults, no problem.
  store.load();
  assertEquals(store.current["font.size"], 14);
  assertEquals(store.problems, []);
  Deno.writeTextFileSync(
    path,
    '# mine\ntheme = "dark"\n\n[font]\nsize = 20\n',
  );
  store.load();
  assertEquals(store.current["font.size"], 20);
  assertEquals(store.current.theme, "dark");
  Deno.writeTextFileSync(
    path,
    '# mine\ntheme = "light"\n\n[font]\nsize = 200\n',
  );
  store.load();
  assertEquals(store.current["font.size"], 20, "the old value is kept");
  assertEquals(store.current.theme, "light", "the good key applies");
  assertEquals(store.problems, [
    `${path}:5: bad value 200 for 'font.size': allowed: a number from 6 to 72`,
  ]);
  assertEquals(logged.at(-1), store.problems[0]);
  // Not TOML: nothing changes; the line of the error is given.
  Deno.writeTextFileSync(path, 'theme = "dark"\n[font\nsize = 9\n');
  store.load();
  assertEquals(store.current.theme, "light");
  assertEquals(store.current["font.size"], 20);
  assertMatch(store.problems[0], new RegExp(`^${path}:2: not valid TOML`));
  // Fixed: the problems go away.
  Deno.writeTextFileSync(path, "[font]\nsize = 9\n");
  store.load();
  assertEquals(store.current["font.size"], 9);
  assertEquals(store.current.theme, "system", "a removed key is its default");
  assertEquals(store.problems, []);
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("settings file: the command line overrides the file", () => {
  const dir = Deno.makeTempDirSync();
  const path = `${dir}/settings.toml`;
  Deno.writeTextFileSync(path, 'scrollback = 500\nbrowser = "brave"\n');
  const store = new SettingsStore(path, { scrollback: null }, () => {});
  store.load();
  assertEquals(store.current.scrollback, null);
  assertEquals(store.current.browser, "brave");
  Deno.removeSync(dir, { recursive: true });
});

Deno.test("settings file: a bad key binding keeps the old binding of that key only", () => {
  const { values, problems } = readSettingsText(
    '[keys]\n"Ctrl+Shift+T" = "new-window"\n"Nope+X" = "copy"\n',
  );
  assertEquals(values.keys, { "Ctrl+Shift+T": "new-window" });
  assertEquals(problems.map((p) => p.line), [3]);
});

Deno.test("settings file: setting a key keeps comments and other lines", () => {
  const cases: [string, string, unknown, string][] = [
    ["", "theme", "dark", 'theme = "dark"\n'],
    [
      '# top\ntheme = "dark"\n',
      "theme",
      "light",
      '# top\ntheme = "light"\n',
    ],
    [
      "# c\n[font]\nsize = 12 # small\nfamily = 'x'\n",
      "font.size",
      16,
      "# c\n[font]\nsize = 16\nfamily = 'x'\n",
    ],
    [
      "[font]\nsize = 12\n",
      "colors.background",
      "#000",
      '[font]\nsize = 12\n\n[colors]\nbackground = "#000"\n',
    ],
    [
      "[font]\nsize = 12\n",
      "scrollback",
      null,
      'scrollback = "unlimited"\n[font]\nsize = 12\n',
    ],
    [
      "[font]\nsize = 12\n",
      "font.family",
      "Mono",
      '[font]\nfamily = "Mono"\nsize = 12\n',
    ],
    [
      'palette = [\n  "#000",\n]\n',
      "palette",
      ["#111"],
      'palette = [ "#111" ]\n',
    ],
    [
      '[font] # the font\nsize = 12\n[keys]\n"Ctrl+T" = "copy"\n',
      "keys",
      { "Ctrl+Y": "find" },
      '[font] # the font\nsize = 12\n[keys]\n"Ctrl+Y" = "find"\n',
    ],
  ];
  for (const [before, key, value, after] of cases) {
    assertEquals(
      setKeyInText(before, key, value as never),
      after,
      `${key} in ${JSON.stringify(before)}`,
    );
    // What it writes reads back as the value.
    const { values, problems } = readSettingsText(after);
    assertEquals(problems, []);
    assertEquals(values[key], value);
  }
});

Deno.test("settings: a window gets the file's settings at attach and again when the file changes; save-settings writes the file", async () => {
  const dir = Deno.makeTempDirSync();
  const path = `${dir}/settings.toml`;
  Deno.writeTextFileSync(path, '[colors]\nbackground = "#102030"\n');
  const store = new SettingsStore(path, {}, () => {});
  store.load();
  store.watch();
  const server = startServer({
    command: "/bin/sh",
    args: ["-c", "sleep 30"],
    assets: ASSETS,
    log: () => {},
    shellIntegration: false,
    settings: store,
  });
  const c = new TestClient(`ws://127.0.0.1:${server.port}/ws`);
  try {
    await c.opened;
    c.send({ type: "hello", key: server.key, cols: 80, rows: 24 });
    await c.until(() => settingsMsgs(c).length > 0, "settings at attach");
    const first = settingsMsgs(c)[0];
    assertEquals(first.settings["colors.background"], "#102030");
    assertEquals(first.settings.theme, "system");
    assertEquals(first.path, path);
    // An editor's save: a new file renamed over the old one.
    Deno.writeTextFileSync(
      `${path}.new`,
      '[colors]\nbackground = "#405060"\n[font]\nsize = "big"\n',
    );
    Deno.renameSync(`${path}.new`, path);
    await c.until(
      () => settingsMsgs(c).at(-1)?.settings["colors.background"] === "#405060",
      "the changed settings",
    );
    const changed = settingsMsgs(c).at(-1)!;
    assertEquals(changed.settings["font.size"], 14);
    assertEquals(changed.problems, [
      `${path}:4: bad value "big" for 'font.size': allowed: a number from 6 to 72`,
    ]);
    // The settings page saves: the file is written, and comes back.
    c.send({
      type: "save-settings",
      settings: { "font.size": 17, "cursor.style": "bar" },
    });
    await c.until(
      () => settingsMsgs(c).at(-1)?.settings["cursor.style"] === "bar",
      "the saved settings",
    );
    const text = Deno.readTextFileSync(path);
    assertEquals(
      text,
      '[colors]\nbackground = "#405060"\n[font]\nsize = 17\n\n[cursor]\nstyle = "bar"\n',
    );
    assertEquals(settingsMsgs(c).at(-1)!.problems, []);
    // A bad value from a window is refused; the file stays.
    c.send({ type: "save-settings", settings: { "font.size": 1000 } });
    await c.until(
      () => c.messages.some((m) => m.type === "error"),
      "an error",
    );
    const err = c.messages.find((m) => m.type === "error")!;
    assert(err.type === "error");
    assertMatch(
      err.message,
      /settings not saved: bad value 1000 for 'font.size'/,
    );
    assertEquals(Deno.readTextFileSync(path), text);
  } finally {
    c.ws.close();
    await c.closed;
    store.close();
    await server.shutdown();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("settings: `domterm settings key=value` inside a session sets that session's windows; no arguments prints them", async () => {
  const dir = Deno.makeTempDirSync();
  const sock = `${dir}/server.sock`;
  const store = new SettingsStore(`${dir}/settings.toml`, {}, () => {});
  let control: Awaited<ReturnType<typeof listenControl>> | null = null;
  const script = [
    `'${Deno.execPath()}' run -A '${MAIN}' settings theme=light font.size=18 'keys.Ctrl+Shift+Y=find'`,
    "echo set:$?",
    `'${Deno.execPath()}' run -A '${MAIN}' settings font.size=300`,
    "echo bad:$?",
    `'${Deno.execPath()}' run -A '${MAIN}' settings scrollback=5`,
    "echo file-only:$?",
    `'${Deno.execPath()}' run -A '${MAIN}' settings`,
    "sleep 30",
  ].join("; ");
  const server = startServer({
    command: "/bin/sh",
    args: ["-c", script],
    assets: ASSETS,
    log: () => {},
    shellIntegration: false,
    settings: store,
    env: { ...Deno.env.toObject(), DOMTERM_SOCKET: sock },
  });
  const other = new TestClient(`ws://127.0.0.1:${server.port}/ws`);
  const c = new TestClient(`ws://127.0.0.1:${server.port}/ws`);
  try {
    control = await listenControl(sock, sessionControl(server, () => {}));
    // Another session's window sees none of it.
    await other.opened;
    const quiet = server.newSession(["/bin/sh", "-c", "sleep 30"]);
    other.send({
      type: "hello",
      key: server.key,
      cols: 80,
      rows: 24,
      session: quiet.id,
    });
    await c.opened;
    c.send({ type: "hello", key: server.key, cols: 80, rows: 24 });
    await c.until(
      () => settingsMsgs(c).at(-1)?.settings.theme === "light",
      "the session's settings",
      30_000,
    );
    const s = settingsMsgs(c).at(-1)!.settings;
    assertEquals(s["font.size"], 18);
    assertEquals(s.keys, { "Ctrl+Shift+Y": "find" });
    await c.until(() => /theme = "light"/.test(c.text), "the print", 30_000);
    const out = c.text.replace(/\r/g, "");
    assertMatch(out, /set:0/);
    assertMatch(
      out,
      /domterm settings: bad value 300 for 'font\.size': allowed: a number from 6 to 72\nbad:1/,
    );
    assertMatch(
      out,
      /domterm settings: 'scrollback' cannot be set for one session or window: set it in the settings file\nfile-only:1/,
    );
    assertMatch(out, /font\.size = 18\n/);
    assertMatch(out, /scrollback = 10000\n/);
    assertMatch(out, /keys = \{"Ctrl\+Shift\+Y":"find"\}/);
    assertEquals(settingsMsgs(c).at(-1)!.settings["font.size"], 18);
    assert(settingsMsgs(other).length > 0, "the other window has settings");
    assert(
      settingsMsgs(other).every((m) => m.settings.theme === "system"),
      "the other session keeps the file's settings",
    );
  } finally {
    for (const x of [c, other]) {
      x.ws.close();
      await x.closed;
    }
    control?.close();
    await server.shutdown();
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("settings file: an unterminated string is called that, with its line", () => {
  const cases: [string, number, RegExp][] = [
    ['theme = "dark\nfont.size = 12\n', 1, /unterminated string/],
    ["# c\ntheme = 'dark\r\n", 2, /unterminated string/],
    ['shell = ["a", "b\n', 1, /unterminated string/],
    // A real control character inside a string keeps the parser's word.
    ['x = "a\u0001b"\n', 1, /control characters are not allowed/],
  ];
  for (const [text, line, message] of cases) {
    const { values, problems } = readSettingsText(text);
    assertEquals(values, {});
    assertEquals(problems.length, 1, JSON.stringify(text));
    assertEquals(problems[0].line, line, JSON.stringify(text));
    assertMatch(problems[0].message, message);
  }
});

Deno.test("settings file: one that others can change is not read; saving makes 0700 directories and a 0600 file", async () => {
  const home = Deno.makeTempDirSync();
  try {
    const dir = `${home}/.config/domterm`;
    const path = `${dir}/settings.toml`;
    const logged: string[] = [];
    const store = new SettingsStore(path, {}, (m) => logged.push(m));
    await store.save({ "font.size": 18 });
    assertEquals(Deno.statSync(`${home}/.config`).mode! & 0o777, 0o700);
    assertEquals(Deno.statSync(dir).mode! & 0o777, 0o700);
    assertEquals(Deno.statSync(path).mode! & 0o777, 0o600);
    assertEquals(store.current["font.size"], 18);

    // Another user could have written this: the shell is not taken from it.
    Deno.writeTextFileSync(path, 'shell = ["/bin/sh", "-c", "id"]\n');
    Deno.chmodSync(path, 0o666);
    store.load();
    assertEquals(store.current.shell, defaultSettings().shell);
    assertMatch(
      store.problems[0],
      /others can change it \(mode 0666\); not read/,
    );
    assertMatch(store.problems[0], /chmod go-w/);
    Deno.chmodSync(path, 0o600);
    store.load();
    assertEquals(store.current.shell, ["/bin/sh", "-c", "id"]);

    // The directory counts too.
    Deno.chmodSync(dir, 0o777);
    Deno.writeTextFileSync(path, "font.size = 19\n");
    store.load();
    assertEquals(store.current["font.size"], 14); // as last read
    assertMatch(store.problems[0], new RegExp(`^${dir}: others can change it`));
    Deno.chmodSync(dir, 0o700);

    if (Deno.uid() === 0) {
      // Owned by another user (nobody), even with a safe mode.
      Deno.chownSync(path, 65534, 65534);
      Deno.writeTextFileSync(path, "font.size = 20\n");
      store.load();
      assertEquals(store.current["font.size"], 14); // as last read
      assertMatch(store.problems[0], /owned by another user \(uid 65534\)/);
    }
  } finally {
    Deno.removeSync(home, { recursive: true });
  }
});
