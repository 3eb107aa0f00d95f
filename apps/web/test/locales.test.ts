import { describe, expect, it } from "vitest";
import type { Lang } from "../src/lib/storage";
import { en } from "../src/locales/en";
import { zh } from "../src/locales/zh";

type FeatureTexts = { texts: Readonly<Record<Lang, Readonly<Record<string, string>>>> };

/** Every feature's (and area's) messages.ts: each exports the result of defineMessages. */
const featureMessages: [string, FeatureTexts][] = Object.entries(
  import.meta.glob<Record<string, unknown>>("../src/**/messages.ts", { eager: true }),
).flatMap(([file, module]) =>
  Object.values(module)
    .filter((v): v is FeatureTexts => typeof v === "object" && v !== null && "texts" in v)
    .map((v): [string, FeatureTexts] => [file, v]),
);

/** Every zh text of the web client, named "file: key". */
function zhTexts(): [string, string][] {
  return [
    ...Object.entries(zh).map(([key, text]): [string, string] => [`locales/zh.ts: ${key}`, text]),
    ...featureMessages.flatMap(([file, m]) =>
      Object.entries(m.texts.zh).map(([key, text]): [string, string] => [`${file}: ${key}`, text]),
    ),
  ];
}

const CJK = "[\\u3000-\\u303f\\u3400-\\u9fff\\uff00-\\uffef]";
/** An ASCII , : ; ! ? ( or ) before or after a Chinese character (spaces between them included). */
const ASCII_BESIDE_CJK = new RegExp(`${CJK}\\s*[,:;!?()]|[,:;!?()]\\s*${CJK}`, "u");

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

  it("finds the features' messages", () => {
    expect(featureMessages.length).toBeGreaterThanOrEqual(15);
    for (const [file, m] of featureMessages) {
      expect(Object.keys(m.texts.zh).sort(), file).toEqual(Object.keys(m.texts.en).sort());
    }
  });

  it("write Chinese sentences with full-width punctuation (，。：；！？（）), never ASCII beside a Chinese character", () => {
    const texts = zhTexts();
    expect(texts.length).toBeGreaterThan(500);
    const offending = texts.filter(([, text]) => ASCII_BESIDE_CJK.test(text)).map(([name, text]) => `${name}: ${text}`);
    expect(offending).toEqual([]);
  });

  it("the punctuation check catches what it is for, and leaves English and technical text alone", () => {
    for (const bad of [
      "任务已提交,批次号 {id}",
      "发送方: {sender}",
      "数量 (有效 / 总数)",
      "确定删除?",
      "失败!",
      "a;中",
    ]) {
      expect(ASCII_BESIDE_CJK.test(bad), bad).toBe(true);
    }
    for (const good of ["任务已提交，批次号 {id}", "数量（有效 / 总数）", "SMPP", "Sent (24 h), done: 3", "{a}, {b}"]) {
      expect(ASCII_BESIDE_CJK.test(good), good).toBe(false);
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
