/** Business constants of the web client (spec section 9). */

/** Every API request is aborted after this long. */
export const REQUEST_TIMEOUT_MS = 60_000;

/** A loading indicator appears only when loading takes longer than this. */
export const LOADING_DELAY_MS = 200;

/** A lazily loaded chunk that has not arrived after this long is treated as failed. */
export const CHUNK_TIMEOUT_MS = 120_000;

/** Logout is best-effort: do not keep the user waiting for a slow server. */
export const LOGOUT_TIMEOUT_MS = 5_000;
