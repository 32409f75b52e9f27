/**
 * Password hashes for the remote listener: WebCrypto PBKDF2-SHA256 with a
 * random salt, kept as one self-describing line
 * `$pbkdf2-sha256$i=ITERATIONS$SALT$HASH` (salt and hash in unpadded
 * base64url), so the cost can grow without breaking old files.
 *
 * @module
 */

/** Iterations for new hashes (OWASP's 2023 figure for PBKDF2-SHA256). */
export const PBKDF2_ITERATIONS = 600_000;
/** Fewest iterations a stored hash may claim: a weaker one is refused. */
export const MIN_ITERATIONS = 600_000;
/** Most iterations accepted from a file (a bigger figure would stall every login). */
export const MAX_ITERATIONS = 10_000_000;
const SALT_BYTES = 16;
const HASH_BYTES = 32;
const PREFIX = "$pbkdf2-sha256$";

/** A parsed hash line. */
export interface PasswordHash {
  iterations: number;
  salt: Uint8Array<ArrayBuffer>;
  hash: Uint8Array<ArrayBuffer>;
}

function toBase64Url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  const b64 = text.replaceAll("-", "+").replaceAll("_", "/");
  try {
    const bin = atob(b64 + "=".repeat((4 - b64.length % 4) % 4));
    return Uint8Array.from(bin, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

async function derive(
  password: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
  bytes: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const material = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(password),
    "PBKDF2",
    false,
    ["deriveBits"],
  );
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt, iterations },
    material,
    bytes * 8,
  );
  return new Uint8Array(bits);
}

/** Hash `password` with a new random salt; resolves with the hash line. */
export async function hashPassword(
  password: string,
  iterations = PBKDF2_ITERATIONS,
): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, iterations, HASH_BYTES);
  return `${PREFIX}i=${iterations}$${toBase64Url(salt)}$${toBase64Url(hash)}`;
}

/**
 * Parse a hash line (surrounding white space is ignored). Returns the hash,
 * or a string that says what is wrong with it.
 */
export function parsePasswordHash(line: string): PasswordHash | string {
  const text = line.trim();
  if (!text.startsWith(PREFIX)) {
    return `not a domterm password hash (it must start with ${PREFIX}; make one with 'domterm hash-password')`;
  }
  const parts = text.slice(PREFIX.length).split("$");
  if (parts.length !== 3) {
    return "a password hash has the form $pbkdf2-sha256$i=N$SALT$HASH";
  }
  const m = /^i=(\d{1,9})$/.exec(parts[0]);
  if (!m) return `bad iteration count '${parts[0]}' (expected i=N)`;
  const iterations = Number(m[1]);
  if (iterations < MIN_ITERATIONS || iterations > MAX_ITERATIONS) {
    return `iteration count ${iterations} is outside ${MIN_ITERATIONS}-${MAX_ITERATIONS}`;
  }
  const salt = fromBase64Url(parts[1]);
  if (!salt || salt.length < 8) return "the salt is not base64url of 8+ bytes";
  const hash = fromBase64Url(parts[2]);
  if (!hash || hash.length < 16) {
    return "the hash is not base64url of 16+ bytes";
  }
  return { iterations, salt, hash };
}

/** Compare two byte strings in time that does not depend on where they differ. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  const len = Math.max(a.length, b.length);
  for (let i = 0; i < len; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/** True when `password` matches `stored` (compared in constant time). */
export async function verifyPassword(
  password: string,
  stored: PasswordHash,
): Promise<boolean> {
  const got = await derive(
    password,
    stored.salt,
    stored.iterations,
    stored.hash.length,
  );
  return bytesEqual(got, stored.hash);
}
