import { NOTICE_CONTENT_MAX, NOTICE_TITLE_MAX, type NoticeRow } from "@switchboard/contracts";
import { App, type ButtonProps, Checkbox, Form, Input, Modal } from "antd";
import { useEffect } from "react";
import { useApiErrorMessage } from "../../../hooks/use-api-error-message";
import { useCreateNotice, useEditNotice } from "../api/notice-api";
import { messages } from "../messages";

interface FormValues {
  title: string;
  content: string;
  publish?: boolean;
}

const saveButtonProps: ButtonProps & { "data-testid": string } = { "data-testid": "notice-form-save" };

/** Create (editing: null) or edit a notice. Editing keeps its status; creating may publish at once. */
export function NoticeFormModal({
  open,
  editing,
  onClose,
  onSaved,
}: {
  open: boolean;
  editing: NoticeRow | null;
  onClose: () => void;
  /** The notice as saved (e.g. published at once: the list shows it on page 1). */
  onSaved?: (row: NoticeRow) => void;
}) {
  const t = messages.useT();
  const { message } = App.useApp();
  const showError = useApiErrorMessage();
  const [form] = Form.useForm<FormValues>();
  const create = useCreateNotice();
  const edit = useEditNotice();
  const saving = create.isPending || edit.isPending;

  useEffect(() => {
    if (open) form.setFieldsValue({ title: editing?.title ?? "", content: editing?.content ?? "", publish: false });
  }, [open, editing, form]);

  const onFinish = (values: FormValues) => {
    const done = {
      onSuccess: (row: NoticeRow) => {
        void message.success(t(values.publish ? "manage.published" : "manage.saved"));
        onSaved?.(row);
        onClose();
      },
      onError: showError,
    };
    if (editing) edit.mutate({ id: editing.id, title: values.title, content: values.content }, done);
    else create.mutate({ title: values.title, content: values.content, publish: values.publish ?? false }, done);
  };

  return (
    <Modal
      open={open}
      title={t(editing ? "form.editTitle" : "form.createTitle")}
      okText={t("form.save")}
      cancelText={t("form.cancel")}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={saving}
      okButtonProps={saveButtonProps}
      width={720}
      forceRender
    >
      <Form form={form} layout="vertical" onFinish={onFinish} data-testid="notice-form">
        <Form.Item
          name="title"
          label={t("form.title")}
          rules={[
            { required: true, whitespace: true, message: t("form.titleRequired") },
            { max: NOTICE_TITLE_MAX, message: t("form.tooLong", { max: NOTICE_TITLE_MAX }) },
          ]}
        >
          <Input data-testid="notice-form-title" />
        </Form.Item>
        <Form.Item
          name="content"
          label={t("form.content")}
          rules={[
            { required: true, whitespace: true, message: t("form.contentRequired") },
            { max: NOTICE_CONTENT_MAX, message: t("form.tooLong", { max: NOTICE_CONTENT_MAX }) },
          ]}
        >
          <Input.TextArea autoSize={{ minRows: 6, maxRows: 16 }} data-testid="notice-form-content" />
        </Form.Item>
        {!editing && (
          <Form.Item name="publish" valuePropName="checked">
            <Checkbox data-testid="notice-form-publish">{t("form.publishNow")}</Checkbox>
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
