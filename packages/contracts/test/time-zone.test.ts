import { describe, expect, it } from "vitest";
import { isTimeZone, timeZoneName } from "../src/time-zone";

describe("IANA time zone names", () => {
  it.each(["UTC", "Asia/Shanghai", "America/Argentina/Buenos_Aires", "America/Port-au-Prince", "Etc/GMT+8"])(
    "accepts %s",
    (tz) => expect(isTimeZone(tz)).toBe(true),
  );

  it.each(["", "Mars/Olympus_Mons", "+08:00", "Asia/Shanghai; DROP", "../etc/passwd", "a".repeat(65)])(
    "refuses %j",
    (tz) => expect(timeZoneName().safeParse(tz).success).toBe(false),
  );

  it("names the message key of its refusal", () => {
    expect(timeZoneName().safeParse("Nowhere/Town").error?.issues[0]).toMatchObject({
      params: { i18n: "validation.time_zone" },
    });
  });
});
