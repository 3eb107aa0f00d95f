import { LogoutOutlined, UserOutlined } from "@ant-design/icons";
import { Button, Space, Typography } from "antd";
import { useState } from "react";
import { LanguageSwitch } from "../components/LanguageSwitch";
import { useSession } from "../features/auth/context/session-context";
import { useLogout } from "../features/auth/hooks/use-logout";
import { useT } from "../lib/i18n";

/** Header end: language switch, who is logged in, logout. */
export function UserActions({ dark = false }: { dark?: boolean }) {
  const t = useT();
  const { user } = useSession();
  const logout = useLogout();
  const [loggingOut, setLoggingOut] = useState(false);

  return (
    <Space size="middle" wrap={false}>
      <LanguageSwitch />
      <Typography.Text aria-label={t("common.userMenu")} style={dark ? { color: "rgba(255,255,255,0.85)" } : undefined}>
        <UserOutlined /> {user.nickname || user.user}
      </Typography.Text>
      <Button
        data-testid="logout"
        type={dark ? "primary" : "default"}
        icon={<LogoutOutlined />}
        loading={loggingOut}
        onClick={async () => {
          setLoggingOut(true);
          await logout();
        }}
      >
        {t("common.logout")}
      </Button>
    </Space>
  );
}
