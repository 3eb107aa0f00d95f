import { DatabaseOutlined } from "@ant-design/icons";
import { App, Button, Tooltip } from "antd";
import { errorText } from "../../../lib/error-text";
import { storage } from "../../../lib/storage";
import { UserType } from "../../../lib/user-type";
import { queueBoardUrl, useQueueBoardTicket } from "../api";
import { messages } from "../messages";

/**
 * Opens the API's queue board (BullMQ jobs) in a new tab for staff: read-only for admins and agents, with retry,
 * clean and remove for the super admin. The page cannot send the session's bearer token, so the API hands out a
 * one-time link that sets the board's own cookie (apps/api/src/modules/queue-board).
 */
export function QueueBoardButton() {
  const t = messages.useT();
  const { message } = App.useApp();
  const ticket = useQueueBoardTicket();
  const manage = storage.getUserType() === UserType.SUPER_ADMIN;

  async function open() {
    // Opened on the click itself (a tab opened after an await is a pop-up to the browser), then pointed at the
    // board once the link is there; it gets no handle on this page.
    const tab = window.open("", "_blank");
    if (!tab) {
      message.error(t("blocked"));
      return;
    }
    tab.opener = null;
    try {
      tab.location.href = queueBoardUrl(await ticket.mutateAsync());
    } catch (err) {
      tab.close();
      message.error(errorText(err, t.shell));
    }
  }

  return (
    <Tooltip title={t(manage ? "open.manage" : "open.readOnly")}>
      <Button icon={<DatabaseOutlined />} loading={ticket.isPending} onClick={open} data-testid="queue-board">
        {t("open")}
      </Button>
    </Tooltip>
  );
}
