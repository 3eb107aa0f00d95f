import { MenuOutlined } from "@ant-design/icons";
import { App, Button, Drawer, Layout, Menu, Typography, theme } from "antd";
import { useEffect, useState } from "react";
import { Outlet } from "react-router-dom";
import { useSession } from "../features/auth/context/session-context";
import { platformTitleKey } from "../features/auth/session";
import { TenantSwitcher } from "../features/tenant-switcher/TenantSwitcher";
import { useBranding } from "../features/website/hooks/use-branding";
import { useNarrowScreen } from "../hooks/use-narrow-screen";
import { useT } from "../lib/i18n";
import type { AreaLayoutProps } from "../routes/AreaRoute";
import { Brand } from "./Brand";
import { UserActions } from "./UserActions";
import { useAreaMenu } from "./use-area-menu";
import "./narrow-screen.css";

/**
 * Customer app and back office: menu in a collapsible sidebar, header with the user actions. Under the md
 * breakpoint (a phone) the menu moves into a drawer opened from the header, and the margins tighten.
 */
export default function SidebarLayout({ area }: AreaLayoutProps) {
  const t = useT();
  const { token } = theme.useToken();
  const { user } = useSession();
  const branding = useBranding();
  const narrow = useNarrowScreen();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [collapsed, setCollapsed] = useState(false);
  const { items, selectedKeys, openKeys: routeOpenKeys } = useAreaMenu(area);
  const [openKeys, setOpenKeys] = useState<string[]>(routeOpenKeys);
  const [openBeforeCollapse, setOpenBeforeCollapse] = useState<string[]>([]);
  const routeGroups = routeOpenKeys.join(" ");

  // Open the groups around the current page when the route changes (also after a redirect).
  useEffect(() => {
    if ((collapsed && !narrow) || !routeGroups) return;
    setOpenKeys((open) => [...new Set([...open, ...routeGroups.split(" ")])]);
  }, [routeGroups, collapsed, narrow]);

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

  const menu = (inDrawer: boolean) => (
    <nav data-testid="menu" aria-label={t("common.menu")}>
      <Menu
        theme="dark"
        mode="inline"
        items={items}
        selectedKeys={selectedKeys}
        openKeys={openKeys}
        onOpenChange={setOpenKeys}
        // in the drawer, a chosen entry closes it (the page changes behind it)
        onClick={inDrawer ? () => setDrawerOpen(false) : undefined}
      />
    </nav>
  );

  return (
    <App>
      <Layout style={{ minHeight: "100vh" }}>
        {narrow ? (
          <Drawer
            placement="left"
            open={drawerOpen}
            onClose={() => setDrawerOpen(false)}
            size={Math.min(280, window.innerWidth - 48)}
            closable={false}
            title={null}
            // the dark menu's background, as in the sidebar
            styles={{ body: { padding: 0, background: "#001529" } }}
            data-testid="menu-drawer"
          >
            <Brand to={area.path} />
            {menu(true)}
          </Drawer>
        ) : (
          <Layout.Sider collapsible collapsed={collapsed} onCollapse={collapse} breakpoint="lg" width={248}>
            <Brand collapsed={collapsed} to={area.path} />
            {menu(false)}
          </Layout.Sider>
        )}
        <Layout style={{ minWidth: 0 }}>
          <Layout.Header
            style={{
              background: token.colorBgContainer,
              padding: narrow ? "0 12px" : "0 24px",
              display: "flex",
              alignItems: "center",
              justifyContent: "space-between",
              gap: narrow ? 8 : 16,
              borderBottom: `1px solid ${token.colorBorderSecondary}`,
            }}
          >
            {narrow && (
              <Button
                type="text"
                icon={<MenuOutlined />}
                aria-label={t("common.menu")}
                aria-expanded={drawerOpen}
                onClick={() => setDrawerOpen(true)}
                data-testid="menu-open"
              />
            )}
            <Typography.Text strong ellipsis style={{ fontSize: 16, flex: "1 1 auto", minWidth: 0 }}>
              {platformKey ? t(platformKey) : branding.title}
            </Typography.Text>
            <TenantSwitcher />
            <UserActions compact={narrow} />
          </Layout.Header>
          <Layout.Content style={{ margin: narrow ? 12 : 24, minWidth: 0 }}>
            <main>
              <Outlet />
            </main>
          </Layout.Content>
        </Layout>
      </Layout>
    </App>
  );
}
