/**
 * The settings schema and its checks: a table of good and bad values for
 * every kind of key, key bindings, `key=value` words, and the line of a key
 * in a TOML text.
 */
import { assert, assertEquals } from "../assert.ts";
import {
  checkSettings,
  normalizeKey,
  parseAssignments,
  windowKeysOnly,
} from "../../core/settings/validate.ts";
import {
  defaultSettings,
  SETTINGS,
  SETTINGS_BY_KEY,
} from "../../core/settings/schema.ts";
import { findKeyLine } from "../../core/settings/lines.ts";
import { screenLines } from "./helpers.ts";

/** [key, value as given, the value kept] */
const GOOD: [string, unknown, unknown][] = [
  ["theme", "dark", "dark"],
  ["theme", "light", "light"],
  ["theme", "system", "system"],
  ["grapheme-clusters", "on", "on"],
  ["bold-is-bright", false, false],
  ["grapheme-clusters", "never", "never"],
  ["minimum-contrast-ratio", 7, 7],
  ["minimum-contrast-ratio", 1, 1],
  ["journal", false, false],
  ["journal-lines", 500, 500],
  ["restore.commands", "never", "never"],
  ["font.family", "JetBrains Mono, monospace", "JetBrains Mono, monospace"],
  ["font.family", "", ""],
  [
    "font.family",
    "'Noto Sans Mono CJK SC', monospace",
    "'Noto Sans Mono CJK SC', monospace",
  ],
  ["font.size", 15, 15],
  ["font.size", 12.5, 12.5],
  ["font.size", 6, 6],
  ["font.size", 72, 72],
  ["colors.background", "#102030", "#102030"],
  ["colors.background", "#abc", "#abc"],
  ["colors.foreground", "rgb(1, 2, 3)", "rgb(1, 2, 3)"],
  ["colors.cursor", "orange", "orange"],
  ["colors.selection", " #11223344 ", "#11223344"],
  ["colors.cursor", "", ""],
  ["palette", ["#000", "#ff0000"], ["#000", "#ff0000"]],
  ["palette", [], []],
  ["cursor.style", "bar", "bar"],
  ["cursor.blink", true, true],
  ["scrollback", 0, 0],
  ["scrollback", 100_000_000, 100_000_000],
  ["scrollback", 5000n, 5000],
  ["scrollback", "unlimited", null],
  ["shell", "/bin/zsh", ["/bin/zsh"]],
  ["shell", ["fish", "-l"], ["fish", "-l"]],
  ["shell", "", []],
  ["shell-integration", false, false],
  ["browser", "chromium", "chromium"],
  ["file-opener", "code -g %f:%l:%c", "code -g %f:%l:%c"],
  ["detached-timeout", 60, 60],
  ["detached-timeout", "never", null],
  ["detach-on-close", true, true],
  ["confirm-close", false, false],
  ["input-mode", "line", "line"],
  ["pager.auto", true, true],
  ["clipboard.read", "always", "always"],
  ["title-reporting", true, true],
  ["notify.long-command", 30, 30],
  ["keys", { "ctrl+shift+t": "new-window" }, { "Ctrl+Shift+T": "new-window" }],
];

/** [key, bad value, a piece of the message] */
const BAD: [string, unknown, string][] = [
  ["theme", "blue", '"system", "light", "dark"'],
  ["grapheme-clusters", "yes", '"off", "on", "always", "never"'],
  ["minimum-contrast-ratio", 0.5, "from 1"],
  ["journal", "yes", "true or false"],
  ["journal-lines", -1, "from 0"],
  ["restore.commands", "always", '"ask", "never"'],
  ["theme", 1, "allowed"],
  ["font.family", 3, "font family names"],
  ["font.family", "x; } body { display: none", "font family names"],
  ["font.family", "Mono\\", "font family names"],
  ["font.size", 200, "a number from 6 to 72"],
  ["font.size", 5.9, "from 6"],
  ["font.size", "14px", "a number"],
  ["colors.background", "#12345", "a colour"],
  ["colors.background", "red; background: url(x)", "a colour"],
  ["colors.foreground", "javascript:alert(1)", "a colour"],
  ["colors.cursor", 0xff0000, "a colour"],
  ["palette", "#000", "up to 16 colours"],
  ["palette", new Array(17).fill("#000"), "up to 16"],
  ["palette", ["#000", "nope!"], "entry 1 is not a colour"],
  ["cursor.style", "beam", '"block", "underline", "bar"'],
  ["cursor.blink", "yes", "true or false"],
  ["scrollback", -1, "from 0 to 100000000"],
  ["scrollback", 1.5, "an integer"],
  ["scrollback", "lots", '"unlimited"'],
  ["scrollback", 100_000_001, "to 100000000"],
  ["shell", ["", "-l"], "a program path"],
  ["shell", [1], "array of strings"],
  ["shell-integration", 0, "true or false"],
  ["browser", 7, "a string"],
  ["file-opener", "x".repeat(5000), "a string"],
  ["detached-timeout", "forever", '"never"'],
  ["input-mode", "vi", '"auto", "char", "line", "pipe"'],
  ["clipboard.read", true, '"never", "ask", "always"'],
  ["notify.long-command", -5, "from 0"],
  ["confirm-close", "no", "true or false"],
  ["keys", "Ctrl+T", "a table"],
];

Deno.test("settings: good values are kept, normalized", () => {
  for (const [key, value, want] of GOOD) {
    const { values, problems } = checkSettings({ [key]: value });
    assertEquals(problems, [], `${key} = ${String(value)}`);
    assertEquals(values[key], want, `${key} = ${String(value)}`);
  }
});

Deno.test("settings: bad values are refused with the key and what is allowed", () => {
  for (const [key, value, piece] of BAD) {
    const { values, problems } = checkSettings({ [key]: value });
    assertEquals(key in values, false, `${key} must not be set`);
    assertEquals(problems.length, 1, `${key} = ${String(value)}`);
    assert(
      problems[0].message.includes(`'${key}'`) &&
        problems[0].message.includes(piece),
      `${key}: ${problems[0].message} lacks ${piece}`,
    );
    assertEquals(problems[0].path, key.split("."));
  }
});

Deno.test("settings: every kind of key has a good and a bad case, and every default passes its own check", () => {
  for (const s of SETTINGS) {
    assert(GOOD.some(([k]) => k === s.key), `no good value for ${s.key}`);
    const { values, problems } = checkSettings({
      [s.key]: s.default ?? s.word,
    });
    assertEquals(problems, [], `default of ${s.key}`);
    assertEquals(values[s.key], s.default, `default of ${s.key}`);
  }
  for (const kind of new Set(SETTINGS.map((s) => s.kind))) {
    assert(
      BAD.some(([k]) => SETTINGS_BY_KEY.get(k)!.kind === kind),
      `no bad value of kind ${kind}`,
    );
  }
  assertEquals(Object.keys(defaultSettings()).length, SETTINGS.length);
});

Deno.test("settings: nested tables and dotted keys mean the same; unknown keys are problems", () => {
  const a = checkSettings({ font: { size: 16 }, cursor: { style: "bar" } });
  const b = checkSettings({ "font.size": 16, "cursor.style": "bar" });
  assertEquals(a.values, b.values);
  assertEquals(a.problems, []);
  const c = checkSettings({
    font: { sise: 3 },
    colour: "red",
    theme: "dark",
    fontsize: 12,
    "xyzzy-plugh": 1,
  });
  assertEquals(c.values, { theme: "dark" });
  // A likely typo gets a suggestion, as the command line's do.
  assertEquals(c.problems.map((p) => p.message), [
    "unknown setting 'font.sise' (did you mean 'font.size'?)",
    "unknown setting 'colour'",
    "unknown setting 'fontsize' (did you mean 'font.size'?)",
    "unknown setting 'xyzzy-plugh'",
  ]);
});

Deno.test("settings: key bindings: good entries kept, bad ones reported one by one", () => {
  const { values, problems } = checkSettings({
    keys: {
      "Ctrl+Shift+T": "new-window",
      "cmd+k": "clear-scrollback",
      "Hyper+X": "copy",
      "Ctrl+Y": "Not An Action",
      "F5": "find",
    },
  });
  assertEquals(values.keys, {
    "Ctrl+Shift+T": "new-window",
    "Meta+K": "clear-scrollback",
    "F5": "find",
  });
  assertEquals(problems.map((p) => p.key), ["keys.Hyper+X", "keys.Ctrl+Y"]);
});

Deno.test("settings: normalizeKey", () => {
  const cases: [string, string | null][] = [
    ["ctrl+shift+t", "Ctrl+Shift+T"],
    ["Shift+Ctrl+T", "Ctrl+Shift+T"],
    ["Alt+Meta+Ctrl+Shift+pageDown", "Ctrl+Alt+Shift+Meta+PageDown"],
    ["Super+=", "Meta+="],
    ["Ctrl++", "Ctrl++"],
    ["F12", "F12"],
    ["Ctrl+", null],
    ["Foo+A", null],
    ["Ctrl+Two Words", null],
  ];
  for (const [text, want] of cases) {
    assertEquals(normalizeKey(text), want, text);
  }
});

Deno.test("settings: key=value words", () => {
  assertEquals(
    parseAssignments([
      "theme=light",
      "font.size=16",
      'shell=["zsh","-l"]',
      "cursor.blink=true",
      "keys.Ctrl+Shift+T=new-window",
      'font.family="a=b"',
    ]),
    {
      theme: "light",
      "font.size": 16,
      shell: ["zsh", "-l"],
      "cursor.blink": true,
      keys: { "Ctrl+Shift+T": "new-window" },
      "font.family": "a=b",
    },
  );
  assertEquals(parseAssignments(["theme"]), "'theme' is not key=value");
  assertEquals(parseAssignments(["=x"]), "'=x' is not key=value");
});

Deno.test("settings: the line of a key in a TOML text", () => {
  const text = [
    "# my settings", // 1
    'theme = "dark"', // 2
    "", // 3
    "[font]", // 4
    "family = 'x = y' # size = 1", // 5
    "  size = 14", // 6
    "[colors]", // 7
    'background = "#000"', // 8
    "[keys]", // 9
    '"Ctrl+T" = "copy"', // 10
    "[cursor]", // 11
    "style.x = 1", // 12
    "a = { b = 1 }", // 13
  ].join("\n");
  const cases: [string[], number | undefined][] = [
    [["theme"], 2],
    [["font"], 4],
    [["font", "family"], 5],
    [["font", "size"], 6],
    [["colors", "background"], 8],
    [["keys"], 9],
    [["keys", "Ctrl+T"], 10],
    [["cursor", "style", "x"], 12],
    [["cursor", "a", "b"], 13],
    [["scrollback"], undefined],
  ];
  for (const [path, want] of cases) {
    assertEquals(findKeyLine(text, path), want, path.join("."));
  }
});

Deno.test("OSC 88: the JSON goes out as a settings event (BEL or ST), too long or empty is dropped", async () => {
  const { Terminal } = await import("../../core/emulator/terminal.ts");
  const cases: [string, string[]][] = [
    ['\x1b]88;{"theme":"light"}\x07', ['{"theme":"light"}']],
    ['\x1b]88;{"font.size":16}\x1b\\', ['{"font.size":16}']],
    ["\x1b]88;\x07", []],
    [`\x1b]88;${"x".repeat(70_000)}\x07`, []],
  ];
  for (const [input, want] of cases) {
    const got: string[] = [];
    const t = new Terminal({
      cols: 20,
      rows: 3,
      reply: () => {},
      onEvent: (e) => {
        if (e.type === "settings") got.push(e.json);
      },
    });
    t.write(input + "ok");
    assertEquals(got, want, JSON.stringify(input.slice(0, 30)));
    assertEquals(screenLines(t)[0], "ok", "the text after it prints");
  }
});

Deno.test("settings: one session or window sets only what a window applies", () => {
  const r = windowKeysOnly(
    checkSettings({
      theme: "dark",
      scrollback: 5,
      shell: "zsh",
      font: { size: 3 },
    }),
  );
  assertEquals(r.values, { theme: "dark" });
  assertEquals(r.problems.map((p) => p.message), [
    "bad value 3 for 'font.size': allowed: a number from 6 to 72",
    "'scrollback' cannot be set for one session or window: set it in the settings file",
    "'shell' cannot be set for one session or window: set it in the settings file",
  ]);
});
