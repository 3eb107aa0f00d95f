/**
 * A small i18n layer: flat message keys (src/locales), `{name}` parameters, the language kept in
 * local storage, antd and dayjs switched with it.
 */
import dayjs from "dayjs";
import "dayjs/locale/zh-cn";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { en } from "../locales/en";
import { type MessageKey, type Messages, zh } from "../locales/zh";
import { type Lang, storage } from "./storage";

export type { MessageKey } from "../locales/zh";
export type { Lang } from "./storage";

export type MessageParams = Readonly<Record<string, string | number>>;
export type TFunction = (key: MessageKey, params?: MessageParams) => string;

const dictionaries: Record<Lang, Messages> = { zh, en };

export const LANGS: readonly { value: Lang; label: string }[] = [
  { value: "zh", label: "中文" },
  { value: "en", label: "English" },
];

function fill(text: string, params: MessageParams | undefined): string {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** Translates outside React (the API client); inside components use `useT()`. */
export function translate(key: MessageKey, params?: MessageParams, lang: Lang = storage.getLang()): string {
  return fill(dictionaries[lang][key], params);
}

/**
 * A feature's own texts, kept in the feature's folder so they load with its lazy page chunk instead of
 * the login page's. `en` must have exactly `zh`'s keys (the compiler checks).
 *
 *   const messages = defineMessages({ "task.title": "群发任务" }, { "task.title": "Message tasks" });
 *   const t = messages.useT();   // t("task.title"), and the shell's keys are still t.shell("error.loadFailed")
 */
export function defineMessages<K extends string>(zhTexts: Record<K, string>, enTexts: NoInfer<Record<K, string>>) {
  const byLang: Record<Lang, Record<K, string>> = { zh: zhTexts, en: enTexts };
  type FeatureT = ((key: K, params?: MessageParams) => string) & { shell: TFunction; lang: Lang };
  return {
    /** The texts themselves, per language (tests check them all, e.g. the zh punctuation). */
    texts: byLang as Readonly<Record<Lang, Readonly<Record<K, string>>>>,
    /** Outside React (e.g. a column definition built once): pass the language. */
    translate: (key: K, params?: MessageParams, lang: Lang = storage.getLang()) => fill(byLang[lang][key], params),
    useT(): FeatureT {
      const { lang, t } = useI18n();
      // biome-ignore lint/correctness/useExhaustiveDependencies: byLang is fixed when the feature's module loads
      return useMemo(() => {
        const featureT = ((key: K, params?: MessageParams) => fill(byLang[lang][key], params)) as FeatureT;
        featureT.shell = t;
        featureT.lang = lang;
        return featureT;
      }, [lang, t]);
    },
  };
}

function applyLang(lang: Lang): void {
  dayjs.locale(lang === "zh" ? "zh-cn" : "en");
  document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
}

interface I18nValue {
  lang: Lang;
  setLang: (lang: Lang) => void;
  t: TFunction;
}

const I18nContext = createContext<I18nValue | null>(null);

export function I18nProvider({ children }: { children: ReactNode }) {
  const [lang, setLangState] = useState<Lang>(() => storage.getLang());

  useEffect(() => applyLang(lang), [lang]);

  const setLang = useCallback((next: Lang) => {
    storage.setLang(next);
    setLangState(next);
  }, []);

  const value = useMemo<I18nValue>(
    () => ({ lang, setLang, t: (key, params) => translate(key, params, lang) }),
    [lang, setLang],
  );
  return <I18nContext value={value}>{children}</I18nContext>;
}

export function useI18n(): I18nValue {
  const value = useContext(I18nContext);
  if (!value) throw new Error("useI18n must be used inside <I18nProvider>");
  return value;
}

export function useT(): TFunction {
  return useI18n().t;
}
