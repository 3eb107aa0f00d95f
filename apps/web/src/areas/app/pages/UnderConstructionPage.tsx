import { Empty } from "antd";
import { PageContainer } from "../../../components/PageContainer";
import { useT } from "../../../lib/i18n";

/** Placeholder for a app page that a later task builds: its title and an honest "being built" note. */
export default function UnderConstructionPage() {
  const t = useT();
  return (
    <PageContainer>
      <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("app.underConstruction")} />
    </PageContainer>
  );
}
