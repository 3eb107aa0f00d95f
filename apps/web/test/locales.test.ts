import { describe, expect, it } from "vitest";
import { en } from "../src/locales/en";
import { zh } from "../src/locales/zh";

describe("locales", () => {
  it("have the same keys (the compiler checks this too)", () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(zh).sort());
  });

  it("have no empty texts and the same {parameters}", () => {
    const params = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(zh) as (keyof typeof zh)[]) {
      expect(zh[key].trim(), key).not.toBe("");
      expect(en[key].trim(), key).not.toBe("");
      expect(params(en[key]), key).toEqual(params(zh[key]));
    }
  });

  it("use the spec's texts", () => {
    expect(en["app.defaultTitle"]).toBe("RCS message platform");
    expect(en["app.loading"]).toBe("loading, please wait");
    expect(en["app.pageLoading"]).toBe("page loading");
    expect(en["error.loadFailed"]).toBe("load failed");
    expect(en["app.platform.agent"]).toBe("management platform");
    expect(en["app.platform.admin"]).toBe("system platform");
  });
});
