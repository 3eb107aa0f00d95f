import { useT } from "../../../lib/i18n";
import { useWebsiteConfig } from "../api/get-website-config";

export interface Branding {
  title: string;
  logo: string | null;
  logoSmall: string | null;
  description: string | null;
}

/** Website title, logos and description, with the default title 'RCS message platform'. */
export function useBranding(): Branding {
  const t = useT();
  const { data } = useWebsiteConfig();
  return {
    title: data?.title?.trim() || t("app.defaultTitle"),
    logo: data?.logo || null,
    logoSmall: data?.logoSmall || data?.logo || null,
    description: data?.description || null,
  };
}
