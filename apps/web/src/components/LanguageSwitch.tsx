import { Segmented } from "antd";
import { LANGS, type Lang, useI18n } from "../lib/i18n";

/** zh / en switch; the choice is kept in local storage and sent as the `lang` header. */
export function LanguageSwitch({ size = "small" }: { size?: "small" | "middle" }) {
  const { lang, setLang, t } = useI18n();
  return (
    <Segmented<Lang>
      data-testid="language-switch"
      aria-label={t("common.language")}
      size={size}
      value={lang}
      onChange={setLang}
      options={LANGS.map(({ value, label }) => ({ value, label }))}
    />
  );
}
