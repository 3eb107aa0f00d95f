import { Button, Result } from "antd";
import { useNavigate } from "react-router-dom";
import { useBranding } from "../features/website/hooks/use-branding";
import { useDocumentTitle } from "../hooks/use-document-title";
import { useT } from "../lib/i18n";

function BackHome() {
  const t = useT();
  const navigate = useNavigate();
  return (
    <Button type="primary" onClick={() => navigate("/")}>
      {t("common.backHome")}
    </Button>
  );
}

export function ForbiddenResult() {
  const t = useT();
  useDocumentTitle(`403 - ${useBranding().title}`);
  return <Result status="403" title="403" subTitle={t("error.forbidden")} extra={<BackHome />} />;
}

export function NotFoundResult() {
  const t = useT();
  useDocumentTitle(`404 - ${useBranding().title}`);
  return <Result status="404" title="404" subTitle={t("error.notFound")} extra={<BackHome />} />;
}
