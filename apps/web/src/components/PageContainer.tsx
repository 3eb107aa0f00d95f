import { Card, Typography } from "antd";
import type { ReactNode } from "react";
import { useT } from "../lib/i18n";
import { useCurrentRoute } from "../routes/route-context";

/**
 * Frame of an area page: the page title (from the route tree), the groups above it as a trail, and
 * the content in a card.
 */
export function PageContainer({ children, extra }: { children: ReactNode; extra?: ReactNode }) {
  const t = useT();
  const route = useCurrentRoute();
  const trail = route.chain.slice(1, -1).map((node) => t(node.label));
  return (
    <section aria-labelledby="page-title">
      <header style={{ marginBottom: 16, display: "flex", alignItems: "flex-end", justifyContent: "space-between" }}>
        <div>
          {trail.length > 0 && <Typography.Text type="secondary">{trail.join(" / ")}</Typography.Text>}
          <Typography.Title id="page-title" level={3} style={{ margin: 0 }}>
            {t(route.node.label)}
          </Typography.Title>
        </div>
        {extra}
      </header>
      <Card>{children}</Card>
    </section>
  );
}
