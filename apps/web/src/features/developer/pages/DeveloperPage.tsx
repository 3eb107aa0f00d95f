import { Card, Flex } from "antd";
import { PageContainer } from "../../../components/PageContainer";
import { ApiKeysSection } from "../components/ApiKeysSection";
import { DeveloperInfoCard } from "../components/DeveloperInfoCard";
import { IpWhitelistSection, NotifyUrlSection } from "../components/sections";
import { messages } from "../messages";

/** /app/developer (menu and user menu): developer info with the API docs, API keys, IP whitelist and notify URL. */
export default function DeveloperPage() {
  const t = messages.useT();
  return (
    <PageContainer>
      <Flex vertical gap={24}>
        <Card type="inner" title={t("info.title")}>
          <DeveloperInfoCard />
        </Card>
        <Card type="inner" title={t("keys.title")}>
          <ApiKeysSection />
        </Card>
        <Card type="inner" title={t("ip.title")}>
          <IpWhitelistSection />
        </Card>
        <Card type="inner" title={t("notify.title")}>
          <NotifyUrlSection />
        </Card>
      </Flex>
    </PageContainer>
  );
}
