// IANA time zone names ("Asia/Shanghai", "UTC") as the caller gives them: a client that shows local times sends its
// own (Intl.DateTimeFormat().resolvedOptions().timeZone), checked against what Intl knows.
import { z } from "zod";

/** "Area/Location" names (and "UTC", "Etc/GMT+8"): Intl also takes offsets like "+08:00", which are no IANA name. */
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

/** Whether this is an IANA time zone name Intl knows. */
export function isTimeZone(tz: string): boolean {
  if (!IANA_NAME.test(tz)) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    // RangeError: not a time zone Intl knows
    return false;
  }
}

/** An IANA time zone name Intl knows; refused with validation.time_zone. */
export const timeZoneName = () =>
  z
    .string()
    .trim()
    .min(1)
    .max(64)
    .refine(isTimeZone, { params: { i18n: "validation.time_zone" } });
