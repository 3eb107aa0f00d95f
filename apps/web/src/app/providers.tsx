import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { ConfigProvider } from "antd";
import enUS from "antd/es/locale/en_US";
import zhCN from "antd/es/locale/zh_CN";
import type { ReactNode } from "react";
import { WebsiteConfigEffects } from "../features/website/components/WebsiteConfigEffects";
import { useReducedMotion } from "../hooks/use-reduced-motion";
import { I18nProvider, useI18n } from "../lib/i18n";

function AntdProviders({ children }: { children: ReactNode }) {
  const { lang } = useI18n();
  const reducedMotion = useReducedMotion();
  return (
    <ConfigProvider
      locale={lang === "zh" ? zhCN : enUS}
      theme={{ token: { colorPrimary: "#1f6feb", motion: !reducedMotion } }}
      // Every table is as wide as its content and scrolls inside its card: a fixed (actions) column then never
      // covers another, and a narrow screen scrolls the table, not the page. A table may still set its own.
      table={{ scroll: { x: "max-content" } }}
    >
      <WebsiteConfigEffects />
      {children}
    </ConfigProvider>
  );
}

/** Data, language and antd context for the whole app (tests render pages inside it too). */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <I18nProvider>
        <AntdProviders>{children}</AntdProviders>
      </I18nProvider>
    </QueryClientProvider>
  );
}
