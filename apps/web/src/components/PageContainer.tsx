import { Card, Typography } from "antd";
import type { ReactNode } from "react";
import { useNarrowScreen } from "../hooks/use-narrow-screen";
import { useT } from "../lib/i18n";
import { useCurrentRoute } from "../routes/route-context";

/**
 * Frame of an area page: the page title (from the route tree), the groups above it as a trail, and
 * the content in a card.
 */
export function PageContainer({ children, extra }: { children: ReactNode; extra?: ReactNode }) {
  const t = useT();
  const route = useCurrentRoute();
  const narrow = useNarrowScreen();
  const trail = route.chain.slice(1, -1).map((node) => t(node.label));
  return (
    <section aria-labelledby="page-title">
      {/* The title keeps its width and wraps by words; the page's actions go below it when they do not fit. */}
      <header
        style={{
          marginBottom: 16,
          display: "flex",
          flexWrap: "wrap",
          alignItems: "flex-end",
          justifyContent: "space-between",
          gap: 12,
        }}
      >
        <div style={{ flex: "1 1 12em", minWidth: 0 }}>
          {trail.length > 0 && <Typography.Text type="secondary">{trail.join(" / ")}</Typography.Text>}
          <Typography.Title id="page-title" level={3} style={{ margin: 0 }}>
            {t(route.node.label)}
          </Typography.Title>
        </div>
        {extra}
      </header>
      <Card styles={narrow ? { body: { padding: 12 } } : undefined}>{children}</Card>
    </section>
  );
}
