import { Flex, theme } from "antd";
import type { ReactNode } from "react";
import { LanguageSwitch } from "../../../components/LanguageSwitch";
import { useBranding } from "../../website/hooks/use-branding";

/**
 * Frame of the public pages: brand, a panel with the form, the site description, language switch.
 * Plain elements styled with theme tokens (no Card / Typography): the login route stays small.
 */
export function AuthShell({ heading, children, footer }: { heading: string; children: ReactNode; footer?: ReactNode }) {
  const { title, logo, description } = useBranding();
  const { token } = theme.useToken();
  return (
    <Flex
      vertical
      align="center"
      style={{
        minHeight: "100vh",
        background: token.colorBgLayout,
        padding: "0 16px",
        fontFamily: token.fontFamily,
        fontSize: token.fontSize,
        color: token.colorText,
      }}
    >
      <Flex justify="flex-end" style={{ width: "100%", maxWidth: 960, padding: "16px 0" }}>
        <LanguageSwitch />
      </Flex>
      <main style={{ width: "100%", maxWidth: 420, marginTop: "6vh" }}>
        <Flex vertical align="center" gap={8} style={{ marginBottom: 24 }}>
          {logo && <img src={logo} alt="" style={{ height: 48, maxWidth: 240, objectFit: "contain" }} />}
          <span style={{ color: token.colorTextSecondary, fontSize: token.fontSizeLG }}>{title}</span>
          <h1 style={{ margin: 0, fontSize: token.fontSizeHeading2, fontWeight: token.fontWeightStrong }}>{heading}</h1>
        </Flex>
        <div
          style={{
            background: token.colorBgContainer,
            borderRadius: token.borderRadiusLG,
            border: `1px solid ${token.colorBorderSecondary}`,
            padding: token.paddingLG,
          }}
        >
          {children}
        </div>
        {footer && <div style={{ textAlign: "center", marginTop: 16 }}>{footer}</div>}
        {description && (
          <p style={{ textAlign: "center", marginTop: 24, color: token.colorTextSecondary }}>{description}</p>
        )}
      </main>
    </Flex>
  );
}
