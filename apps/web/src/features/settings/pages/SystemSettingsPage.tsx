import { Divider } from "antd";
import { PageContainer } from "../../../components/PageContainer";
import { SystemSettingsForm } from "../components/SystemSettingsForm";
import { ChooseTenant, useTenantScope } from "../components/TenantScope";
import { WebsiteConfigs } from "../components/WebsiteConfigs";
import { messages } from "../messages";

/** setting/system: review rules, sensitive words, registration, mode, and the website configs. */
export default function SystemSettingsPage() {
  const t = messages.useT();
  const scope = useTenantScope();
  return (
    <PageContainer>
      {scope.missing ? (
        <ChooseTenant />
      ) : (
        <>
          <SystemSettingsForm key={scope.tenantId ?? "own"} tenantId={scope.tenantId} />
          <Divider titlePlacement="start">{t("system.website")}</Divider>
          <WebsiteConfigs tenantId={scope.tenantId} allowAgent={!scope.isSuper} />
        </>
      )}
    </PageContainer>
  );
}
