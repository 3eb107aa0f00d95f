import { PageContainer } from "../../../components/PageContainer";
import { NotifyUrlSection } from "../components/sections";

/** RCS portal /user/developer/notify: the notify URL with a test delivery. */
export default function DeveloperNotifyPage() {
  return (
    <PageContainer>
      <NotifyUrlSection />
    </PageContainer>
  );
}
