import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Image, Space, Spin, Typography } from "antd";
import { useEffect, useState } from "react";
import { errorText } from "../../../lib/error-text";
import { customerKeys } from "../api";
import { fetchProtectedFile } from "../api/files";
import { messages } from "../messages";

interface ProtectedFileProps {
  path: string;
  params: Record<string, string | number>;
  /** Name for the download link. */
  fileName: string;
  testId?: string;
}

/**
 * A file the API serves only with the session's token (a remittance proof, an authentication document):
 * images inline, PDFs in an <object> with a link to open or download it, anything else as a download.
 */
export function ProtectedFile({ path, params, fileName, testId }: ProtectedFileProps) {
  const t = messages.useT();
  const query = useQuery({
    queryKey: customerKeys.file(path, params),
    queryFn: ({ signal }) => fetchProtectedFile(path, params, signal),
    staleTime: 0,
    gcTime: 0,
  });
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!query.data) return;
    const objectUrl = URL.createObjectURL(query.data.blob);
    setUrl(objectUrl);
    return () => {
      URL.revokeObjectURL(objectUrl);
      setUrl(null);
    };
  }, [query.data]);

  if (query.isError) {
    return (
      <Alert
        type="error"
        showIcon
        title={errorText(query.error, t.shell)}
        action={<Button onClick={() => query.refetch()}>{t.shell("common.retry")}</Button>}
        data-testid={testId ? `${testId}-error` : undefined}
      />
    );
  }
  if (!query.data || !url) return <Spin />;
  const { type } = query.data;
  const download = (
    <a href={url} download={fileName}>
      {t("common.download")}
    </a>
  );
  if (type.startsWith("image/")) {
    return (
      <Space orientation="vertical" data-testid={testId}>
        <Image src={url} alt={fileName} style={{ maxWidth: "100%", maxHeight: 480 }} />
        {download}
      </Space>
    );
  }
  if (type === "application/pdf") {
    return (
      <Space orientation="vertical" style={{ width: "100%" }} data-testid={testId}>
        <object data={url} type="application/pdf" width="100%" height={480} aria-label={fileName}>
          <Typography.Text>{t("authn.pdf")}</Typography.Text>
        </object>
        <Space>
          <a href={url} target="_blank" rel="noreferrer">
            {t("authn.openFile")}
          </a>
          {download}
        </Space>
      </Space>
    );
  }
  return <span data-testid={testId}>{download}</span>;
}
