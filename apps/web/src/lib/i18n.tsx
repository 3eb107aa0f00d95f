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

/** Translates outside React (the API client); inside components use `useT()`. */
export function translate(key: MessageKey, params?: MessageParams, lang: Lang = storage.getLang()): string {
  const text = dictionaries[lang][key];
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
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
