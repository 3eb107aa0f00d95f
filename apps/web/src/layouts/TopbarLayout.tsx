import { App, Layout, Menu } from "antd";
import { Outlet } from "react-router-dom";
import { useT } from "../lib/i18n";
import type { AreaLayoutProps } from "../routes/AreaRoute";
import { Brand } from "./Brand";
import { UserActions } from "./UserActions";
import { useAreaMenu } from "./use-area-menu";

/** RCS portal: brand, horizontal menu and user actions in one top bar. */
export default function TopbarLayout({ area }: AreaLayoutProps) {
  const t = useT();
  const { items, selectedKeys } = useAreaMenu(area);

  return (
    <App>
      <Layout style={{ minHeight: "100vh" }}>
        <Layout.Header style={{ display: "flex", alignItems: "center", gap: 16, padding: "0 24px" }}>
          <Brand to={area.path} />
          <nav data-testid="menu" aria-label={t("common.menu")} style={{ flex: 1, minWidth: 0 }}>
            <Menu theme="dark" mode="horizontal" items={items} selectedKeys={selectedKeys} />
          </nav>
          <UserActions dark />
        </Layout.Header>
        <Layout.Content style={{ padding: 24, width: "100%", maxWidth: 1280, margin: "0 auto" }}>
          <main>
            <Outlet />
          </main>
        </Layout.Content>
      </Layout>
    </App>
  );
}
