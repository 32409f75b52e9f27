/** The domterm version, from deno.json (one place to change it). */
import denoJson from "../deno.json" with { type: "json" };

/** Version string, e.g. "0.1.0". */
export const VERSION: string = denoJson.version;
