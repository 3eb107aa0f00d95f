import { Button, Modal, Skeleton, Typography } from "antd";
import dayjs from "dayjs";
import { errorText } from "../../../lib/error-text";
import { useNoticeDetail } from "../api/notice-api";
import { messages } from "../messages";

/** One published notice in a modal: title, date and the text as written (plain text, line breaks kept). */
export function NoticeReader({ id, onClose }: { id: number | null; onClose: () => void }) {
  const t = messages.useT();
  const query = useNoticeDetail(id);
  return (
    <Modal
      open={id !== null}
      onCancel={onClose}
      width={720}
      title={query.data?.title ?? " "}
      footer={
        <Button onClick={onClose} data-testid="notice-reader-close">
          {t("detail.close")}
        </Button>
      }
      destroyOnHidden
    >
      <div data-testid="notice-reader">
        {query.isPending && <Skeleton active />}
        {query.isError && <Typography.Text type="danger">{errorText(query.error, t.shell)}</Typography.Text>}
        {query.data && (
          <>
            {query.data.publishedAt && (
              <Typography.Paragraph type="secondary">
                {t("detail.publishedAt", { time: dayjs(query.data.publishedAt).format("YYYY-MM-DD HH:mm") })}
              </Typography.Paragraph>
            )}
            <Typography.Paragraph style={{ whiteSpace: "pre-wrap" }} data-testid="notice-content">
              {query.data.content}
            </Typography.Paragraph>
          </>
        )}
      </div>
    </Modal>
  );
}
