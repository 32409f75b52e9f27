/**
 * Splits the bytes a window's key handler produced (the same bytes it would
 * send to the program in character mode) into keys for the line editor.
 * Working on the encoded bytes, not on DOM events, keeps the editor pure and
 * lets the server hand keys back to a window byte for byte (see
 * docs/input-modes.md).
 *
 * @module
 */

/** One key (or one paste) for the line editor. */
export type EditorKey =
  /** Printable text (one or more characters). */
  | { kind: "text"; text: string }
  /** A single C0 control character or DEL. */
  | { kind: "ctrl"; char: string }
  /** ESC followed by one character (Alt+x). */
  | { kind: "alt"; char: string }
  /** A CSI sequence: its parameter bytes and final byte. */
  | { kind: "csi"; params: string; final: string }
  /** An SS3 sequence (application cursor keys, F1-F4). */
  | { kind: "ss3"; final: string }
  /** A bracketed paste's contents. */
  | { kind: "paste"; text: string };

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/** True for C0 controls and DEL. */
function isControl(code: number): boolean {
  return code < 0x20 || code === 0x7f;
}

/**
 * Splits `data` into keys. Consecutive printable characters make one text
 * key; a bracketed paste makes one paste key; a lone ESC at the end is a
 * control key.
 */
export function splitKeys(data: string): EditorKey[] {
  const keys: EditorKey[] = [];
  let i = 0;
  while (i < data.length) {
    const code = data.charCodeAt(i);
    if (data.startsWith(PASTE_START, i)) {
      const end = data.indexOf(PASTE_END, i + PASTE_START.length);
      const stop = end < 0 ? data.length : end;
      keys.push({
        kind: "paste",
        text: data.slice(i + PASTE_START.length, stop),
      });
      i = end < 0 ? data.length : end + PASTE_END.length;
      continue;
    }
    if (code === 0x1b && i + 1 < data.length) {
      const next = data[i + 1];
      if (next === "[") {
        let j = i + 2;
        while (j < data.length && /[0-9;:<=>?]/.test(data[j])) j++;
        if (j < data.length) {
          keys.push({
            kind: "csi",
            params: data.slice(i + 2, j),
            final: data[j],
          });
          i = j + 1;
          continue;
        }
        keys.push({ kind: "alt", char: "[" });
        i += 2;
        continue;
      }
      if (next === "O" && i + 2 < data.length) {
        keys.push({ kind: "ss3", final: data[i + 2] });
        i += 3;
        continue;
      }
      const cp = data.codePointAt(i + 1)!;
      const ch = String.fromCodePoint(cp);
      keys.push({ kind: "alt", char: ch });
      i += 1 + ch.length;
      continue;
    }
    if (isControl(code)) {
      keys.push({ kind: "ctrl", char: data[i] });
      i++;
      continue;
    }
    let j = i;
    while (
      j < data.length && !isControl(data.charCodeAt(j))
    ) j++;
    keys.push({ kind: "text", text: data.slice(i, j) });
    i = j;
  }
  return keys;
}

/** The bytes a key came from (for handing a key to the program unchanged). */
export function keyBytes(key: EditorKey): string {
  switch (key.kind) {
    case "text":
      return key.text;
    case "ctrl":
      return key.char;
    case "alt":
      return "\x1b" + key.char;
    case "csi":
      return "\x1b[" + key.params + key.final;
    case "ss3":
      return "\x1bO" + key.final;
    case "paste":
      return PASTE_START + key.text + PASTE_END;
  }
}
