/** Versions compared by their dotted numbers (server/version.ts): who hands over to whom. */
import { assert, assertEquals } from "../assert.ts";
import { compareVersions, VERSION } from "../../server/version.ts";

Deno.test("compareVersions: by dotted numbers, suffixes ignored", () => {
  assert(compareVersions("0.9.3", "0.10.0") < 0, "0.10.0 is newer");
  assert(compareVersions("1.0.0", "0.99.99") > 0);
  assertEquals(compareVersions("0.1", "0.1.0"), 0, "a missing number is 0");
  assertEquals(compareVersions("0.2.0-rc1", "0.2.0"), 0);
  assertEquals(compareVersions("0.2.0+abc", "0.2.0"), 0);
  assert(compareVersions("0.1.0", "0.1.1") < 0);
  assertEquals(compareVersions(VERSION, VERSION), 0);
});
