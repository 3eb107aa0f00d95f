import { Empty, Flex, Typography } from "antd";
import { PageContainer } from "../../../components/PageContainer";
import { useListFilters } from "../../../hooks/use-list-filters";
import { CustomerSelect } from "../../batches/components/CustomerSelect";
import { NotifyAttemptsSection } from "../components/NotifyAttemptsSection";
import { messages } from "../messages";

/**
 * /backend/customer/callbacks: support's answer to "why does this customer's webhook fail?". Staff choose one
 * customer of their scope (kept in the URL) and read its callback attempts with the answers its server gave;
 * resending stays the customer's own action (docs/api-keys.md).
 */
export default function StaffNotifyAttemptsPage() {
  const t = messages.useT();
  const url = useListFilters<{ userId?: string }>(["userId"]);
  const customerId = url.filters.userId ? Number(url.filters.userId) : undefined;
  return (
    <PageContainer>
      <Flex vertical gap={16}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t("staffAttempts.intro")}
        </Typography.Paragraph>
        <CustomerSelect
          value={url.filters.userId}
          onChange={(userId) => url.setFilters({ userId })}
          placeholder={t("staffAttempts.customerPlaceholder")}
          label={t("staffAttempts.customer")}
          width={240}
          testId="staff-attempts-customer"
        />
        {customerId === undefined ? (
          <Empty description={t("staffAttempts.choose")} data-testid="staff-attempts-choose" />
        ) : (
          <NotifyAttemptsSection key={customerId} customerId={customerId} />
        )}
      </Flex>
    </PageContainer>
  );
}
