import { PageContainer } from "../../../components/PageContainer";
import { ConsumeList } from "../components/ConsumeList";
import { useStaffRole } from "../components/roles";

/** customer/consume: what the customers' batches cost, by product. */
export default function ConsumePage() {
  const { isAdmin } = useStaffRole();
  return (
    <PageContainer>
      <ConsumeList showAgentFilter={isAdmin} />
    </PageContainer>
  );
}
