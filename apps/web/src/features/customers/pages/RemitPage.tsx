import { PageContainer } from "../../../components/PageContainer";
import { RemittanceList } from "../components/RemittanceList";

/** customer/remit and product/finance/remit: the remittances the caller may review. */
export default function RemitPage() {
  return (
    <PageContainer>
      <RemittanceList />
    </PageContainer>
  );
}
