import type { ProductCount } from "@switchboard/contracts";
import { PRODUCT_SLUG, type ProductCode } from "@switchboard/contracts/codes";
import { Card, Typography } from "antd";
import { Link } from "react-router-dom";
import { config } from "../../../lib/config";
import { formatNumber } from "../../../lib/format";
import { productLabel } from "../format";
import { messages } from "../messages";

/** Batch counts per product; with `link`, each product links to /backend/{product}/message/{link.status}
 * (the route tree's filter types: 1 review, 21 sending), labelled with `link.label`. */
export function QueueCard({
  title,
  counts,
  link,
  testId,
}: {
  title: string;
  counts: ProductCount[];
  link?: { status: 1 | 21; label: string };
  testId: string;
}) {
  const t = messages.useT();
  const shown = config.variant === "rcs" ? counts.filter((c) => c.productCode === 1000) : counts;
  return (
    <Card size="small" title={title} style={{ height: "100%" }} data-testid={testId}>
      <ul style={{ listStyle: "none", margin: 0, padding: 0 }}>
        {shown.map((c) => {
          const slug = PRODUCT_SLUG[c.productCode as ProductCode];
          return (
            <li
              key={c.productCode}
              style={{ display: "flex", justifyContent: "space-between", gap: 8, padding: "6px 0" }}
            >
              <span>
                <span style={{ minWidth: 48, display: "inline-block" }}>{productLabel(c.productCode)}</span>
                <Typography.Text strong={c.count > 0} data-testid={`${testId}-${slug}`}>
                  {t("queue.count", { count: formatNumber(c.count) })}
                </Typography.Text>
              </span>
              {link && slug && (
                <Link to={`/backend/${slug}/message/${link.status}`} data-testid={`${testId}-${slug}-link`}>
                  {link.label}
                </Link>
              )}
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
