import { describe, expect, it } from "vitest";
import { readConfig } from "../src/lib/config";

const env = (values: Partial<ImportMetaEnv>) => values as ImportMetaEnv;

describe("readConfig", () => {
  it("defaults to the local API, the full variant, domestic mode and the agreement shown", () => {
    expect(readConfig(env({}), undefined)).toEqual({
      apiBase: "http://127.0.0.1:3000",
      variant: "full",
      internationalMode: false,
      agreeShow: true,
    });
  });

  it("reads the build values", () => {
    expect(
      readConfig(
        env({
          VITE_API_BASE: "https://api.example.com/",
          VITE_VARIANT: "rcs",
          VITE_INTERNATIONAL: "1",
          VITE_AGREE_SHOW: "0",
        }),
        undefined,
      ),
    ).toEqual({ apiBase: "https://api.example.com", variant: "rcs", internationalMode: true, agreeShow: false });
  });

  it("lets the server-injected runtime config win", () => {
    const config = readConfig(env({ VITE_API_BASE: "https://build.example.com", VITE_VARIANT: "rcs" }), {
      apiBase: "https://runtime.example.com//",
      variant: "full",
      international: true,
    });
    expect(config).toMatchObject({ apiBase: "https://runtime.example.com", variant: "full", internationalMode: true });
  });
});
