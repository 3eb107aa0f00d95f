import { App, Layout, Menu, Typography, theme } from "antd";
import { useEffect, useState } from "react";
import { Outlet } from "react-router-dom";
import { useSession } from "../features/auth/context/session-context";
import { platformTitleKey } from "../features/auth/session";
import { TenantSwitcher } from "../features/tenant-switcher/TenantSwitcher";
import { useBranding } from "../features/website/hooks/use-branding";
import { useT } from "../lib/i18n";
import type { AreaLayoutProps } from "../routes/AreaRoute";
import { Brand } from "./Brand";
import { UserActions } from "./UserActions";
import { useAreaMenu } from "./use-area-menu";

/** Customer app and back office: menu in a collapsible sidebar, header with the user actions. */
export default function SidebarLayout({ area }: AreaLayoutProps) {
  const t = useT();
  const { token } = theme.useToken();
  const { user } = useSession();
  const branding = useBranding();
  const [collapsed, setCollapsed] = useState(false);
  const { items, selectedKeys, openKeys: routeOpenKeys } = useAreaMenu(area);
  const [openKeys, setOpenKeys] = useState<string[]>(routeOpenKeys);
  const [openBeforeCollapse, setOpenBeforeCollapse] = useState<string[]>([]);
  const routeGroups = routeOpenKeys.join(" ");

  // Open the groups around the current page when the route changes (also after a redirect).
  useEffect(() => {
    if (collapsed || !routeGroups) return;
    setOpenKeys((open) => [...new Set([...open, ...routeGroups.split(" ")])]);
  }, [routeGroups, collapsed]);

  const collapse = (next: boolean) => {
    // A collapsed menu shows groups as pop-ups: close them, reopen them on expand.
    if (next) {
      setOpenBeforeCollapse(openKeys);
      setOpenKeys([]);
    } else {
      setOpenKeys(openBeforeCollapse);
    }
    setCollapsed(next);
  };
  const platformKey = area.area === "backend" ? platformTitleKey(user.type) : null;

  return (
    <App>
      <Layout style={{ minHeight: "100vh" }}>
        <Layout.Sider collapsible collapsed={collapsed} onCollapse={collapse} breakpoint="lg" width={248}>
          <Brand collapsed={collapsed} to={area.path} />
          <nav data-testid="menu" aria-label={t("common.menu")}>
            <Menu
              theme="dark"
              mode="inline"
              items={items}
              selectedKeys={selectedKeys}
              openKeys={openKeys}
              onOpenChange={setOpenKeys}
            />
          </nav>
        </Layout.Sider>
        <Layout>
          <Layout.Header
            style={{
              background: token.colorBgContainer,
              padding: "0 24px",
              display: "flex",
              alignItems: "center",
              justifyContent: "space-between",
              gap: 16,
              borderBottom: `1px solid ${token.colorBorderSecondary}`,
            }}
          >
            <Typography.Text strong style={{ fontSize: 16 }}>
              {platformKey ? t(platformKey) : branding.title}
            </Typography.Text>
            <TenantSwitcher />
            <UserActions />
          </Layout.Header>
          <Layout.Content style={{ margin: 24 }}>
            <main>
              <Outlet />
            </main>
          </Layout.Content>
        </Layout>
      </Layout>
    </App>
  );
}
