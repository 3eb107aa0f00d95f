import { ApiOutlined, DownOutlined, LogoutOutlined, UserOutlined } from "@ant-design/icons";
import { Button, Dropdown, Space, Typography } from "antd";
import { useState } from "react";
import { Link, useLocation } from "react-router-dom";
import { LanguageSwitch } from "../components/LanguageSwitch";
import { useSession } from "../features/auth/context/session-context";
import { useLogout } from "../features/auth/hooks/use-logout";
import { useT } from "../lib/i18n";
import { UserType } from "../lib/user-type";

/**
 * Header end: language switch, who is logged in, logout. `compact` (a phone's header): the user's name and the
 * logout text give way to their icons (the name stays in the accessible label and the tooltip).
 */
export function UserActions({ dark = false, compact = false }: { dark?: boolean; compact?: boolean }) {
  const t = useT();
  const { user } = useSession();
  const logout = useLogout();
  const [loggingOut, setLoggingOut] = useState(false);
  const { pathname } = useLocation();
  // Customers of the full app reach their developer settings here (the RCS portal has them in its menu).
  const inCustomerApp = user.type === UserType.USER && pathname.startsWith("/app/");
  const name = user.nickname || user.user;

  return (
    <Space size={compact ? "small" : "middle"} wrap={false}>
      <LanguageSwitch />
      {inCustomerApp ? (
        <Dropdown
          trigger={["click"]}
          menu={{
            items: [
              {
                key: "developer",
                icon: <ApiOutlined />,
                label: (
                  <Link to="/app/developer" data-testid="user-menu-developer">
                    {t("route.app.developer")}
                  </Link>
                ),
              },
            ],
          }}
        >
          <Button
            type="text"
            aria-label={t("common.userMenu")}
            title={compact ? name : undefined}
            data-testid="user-menu"
          >
            <UserOutlined /> {!compact && name} <DownOutlined />
          </Button>
        </Dropdown>
      ) : (
        <Typography.Text
          aria-label={t("common.userMenu")}
          title={compact ? name : undefined}
          style={dark ? { color: "rgba(255,255,255,0.85)" } : undefined}
        >
          <UserOutlined /> {!compact && name}
        </Typography.Text>
      )}
      <Button
        data-testid="logout"
        type={dark ? "primary" : "default"}
        icon={<LogoutOutlined />}
        aria-label={compact ? t("common.logout") : undefined}
        title={compact ? t("common.logout") : undefined}
        loading={loggingOut}
        onClick={async () => {
          setLoggingOut(true);
          await logout();
        }}
      >
        {!compact && t("common.logout")}
      </Button>
    </Space>
  );
}
