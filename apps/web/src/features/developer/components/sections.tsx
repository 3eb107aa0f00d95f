import { Divider } from "antd";
import { useDeveloperInfo } from "../api/developer-api";
import { IpWhitelistEditor } from "./IpWhitelistEditor";
import { NotifyAttemptsSection } from "./NotifyAttemptsSection";
import { NotifyUrlForm } from "./NotifyUrlForm";
import { QueryState } from "./QueryState";

/** The whitelist editor once the current list has loaded. */
export function IpWhitelistSection() {
  const query = useDeveloperInfo();
  return <QueryState query={query}>{(info) => <IpWhitelistEditor initial={info.ipWhitelist} />}</QueryState>;
}

/** The notify URL form once the current URL has loaded, and below it the callback attempts with their answers. */
export function NotifyUrlSection() {
  const query = useDeveloperInfo();
  return (
    <>
      <QueryState query={query}>
        {(info) => <NotifyUrlForm initial={info.notifyUrl} hasKey={info.secretKeyPrefix !== null} />}
      </QueryState>
      <Divider />
      <NotifyAttemptsSection />
    </>
  );
}
