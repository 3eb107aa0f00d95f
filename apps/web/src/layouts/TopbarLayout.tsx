import { MenuOutlined } from "@ant-design/icons";
import { App, Button, Drawer, Layout, Menu } from "antd";
import { useState } from "react";
import { Outlet } from "react-router-dom";
import { useNarrowScreen } from "../hooks/use-narrow-screen";
import { useT } from "../lib/i18n";
import type { AreaLayoutProps } from "../routes/AreaRoute";
import { Brand } from "./Brand";
import { UserActions } from "./UserActions";
import { useAreaMenu } from "./use-area-menu";
import "./narrow-screen.css";

/**
 * RCS portal: brand, horizontal menu and user actions in one top bar. On a phone (under md) the menu moves into
 * a drawer opened from the bar, as the sidebar layout does.
 */
export default function TopbarLayout({ area }: AreaLayoutProps) {
  const t = useT();
  const { items, selectedKeys } = useAreaMenu(area);
  const narrow = useNarrowScreen();
  const [drawerOpen, setDrawerOpen] = useState(false);

  return (
    <App>
      <Layout style={{ minHeight: "100vh" }}>
        <Layout.Header
          style={{ display: "flex", alignItems: "center", gap: narrow ? 8 : 16, padding: narrow ? "0 8px" : "0 24px" }}
        >
          {narrow && (
            <Button
              type="text"
              icon={<MenuOutlined style={{ color: "#fff" }} />}
              aria-label={t("common.menu")}
              aria-expanded={drawerOpen}
              onClick={() => setDrawerOpen(true)}
              data-testid="menu-open"
            />
          )}
          <div style={{ flex: narrow ? "1 1 auto" : "0 0 auto", minWidth: 0 }}>
            <Brand to={area.path} />
          </div>
          {!narrow && (
            <nav data-testid="menu" aria-label={t("common.menu")} style={{ flex: 1, minWidth: 0 }}>
              <Menu theme="dark" mode="horizontal" items={items} selectedKeys={selectedKeys} />
            </nav>
          )}
          <UserActions dark compact={narrow} />
        </Layout.Header>
        {narrow && (
          <Drawer
            placement="left"
            open={drawerOpen}
            onClose={() => setDrawerOpen(false)}
            size={Math.min(280, window.innerWidth - 48)}
            closable={false}
            title={null}
            styles={{ body: { padding: 0, background: "#001529" } }}
            data-testid="menu-drawer"
          >
            <Brand to={area.path} />
            <nav data-testid="menu" aria-label={t("common.menu")}>
              <Menu
                theme="dark"
                mode="inline"
                items={items}
                selectedKeys={selectedKeys}
                // a chosen entry closes the drawer (the page changes behind it)
                onClick={() => setDrawerOpen(false)}
              />
            </nav>
          </Drawer>
        )}
        {/* On a phone nothing may push the page sideways (a row's gutter margins, a long word): tables and
            charts scroll or shrink inside their own boxes, and the content box clips the rest. */}
        <Layout.Content
          style={{
            padding: narrow ? 12 : 24,
            width: "100%",
            maxWidth: 1280,
            margin: "0 auto",
            ...(narrow ? { overflowX: "clip" as const, minWidth: 0 } : {}),
          }}
        >
          <main>
            <Outlet />
          </main>
        </Layout.Content>
      </Layout>
    </App>
  );
}
