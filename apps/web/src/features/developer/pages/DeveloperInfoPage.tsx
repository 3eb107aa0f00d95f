import { PageContainer } from "../../../components/PageContainer";
import { DeveloperInfoCard } from "../components/DeveloperInfoCard";

/** RCS portal /user/developer/info: developer info, key and API switch. */
export default function DeveloperInfoPage() {
  return (
    <PageContainer>
      <DeveloperInfoCard />
    </PageContainer>
  );
}
