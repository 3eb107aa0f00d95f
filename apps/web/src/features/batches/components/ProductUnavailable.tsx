import { Alert } from "antd";
import type { ProductAvailability } from "../hooks/use-product-availability";
import { messages } from "../messages";

/** Says, before anything is paid, that no channel carries the product for this customer (and why). */
export function ProductUnavailable({ availability }: { availability: ProductAvailability }) {
  const t = messages.useT();
  if (availability.state !== "unavailable") return null;
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      title={t("product.unavailable")}
      description={availability.reason ?? t("product.notOpened")}
      data-testid="product-unavailable"
    />
  );
}
