import { PageContainer } from "../../../components/PageContainer";
import { IpWhitelistSection } from "../components/sections";

/** RCS portal /user/developer/ip: the IP whitelist. */
export default function DeveloperIpPage() {
  return (
    <PageContainer>
      <IpWhitelistSection />
    </PageContainer>
  );
}
