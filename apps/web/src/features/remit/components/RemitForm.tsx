import { UploadOutlined } from "@ant-design/icons";
import { REMITTANCE_PROOF_FIELD, REMITTANCE_PROOF_MAX_BYTES, type RemittanceRow } from "@switchboard/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { App, Button, Form, Input, Typography, Upload, type UploadFile } from "antd";
import { useApiErrorMessage } from "../../../hooks/use-api-error-message";
import { api } from "../../../lib/api";
import { formatMoney } from "../../../lib/format";
import { amountProblem, MAX_AMOUNT } from "../amount";
import { remitKeys } from "../api";
import { messages } from "../messages";

const ACCEPT = ".png,.jpg,.jpeg,.pdf,image/png,image/jpeg,application/pdf";
const ACCEPTED_NAME = /\.(png|jpe?g|pdf)$/i;
const MAX_MB = REMITTANCE_PROOF_MAX_BYTES / 1024 / 1024;

interface Values {
  amount: string;
  payer: string;
  reference?: string;
  remark?: string;
  proof: UploadFile[];
}

/** Declares a bank transfer: POST /finance/remit/create as multipart/form-data with an optional proof file. */
export function RemitForm({ onCreated }: { onCreated?: (row: RemittanceRow) => void }) {
  const t = messages.useT();
  const [form] = Form.useForm<Values>();
  const queryClient = useQueryClient();
  const showError = useApiErrorMessage();
  const { message } = App.useApp();

  const create = useMutation({
    mutationFn: (v: Values) => {
      const data = new FormData();
      data.set("amount", v.amount.trim());
      data.set("payer", v.payer.trim());
      if (v.reference?.trim()) data.set("reference", v.reference.trim());
      if (v.remark?.trim()) data.set("remark", v.remark.trim());
      const file = v.proof[0]?.originFileObj;
      if (file) data.set(REMITTANCE_PROOF_FIELD, file, file.name);
      return api.post<RemittanceRow>("/finance/remit/create", data);
    },
    onSuccess: async (row) => {
      message.success(t("form.submitted"));
      form.resetFields();
      await queryClient.invalidateQueries({ queryKey: remitKeys.all });
      onCreated?.(row);
    },
    onError: showError,
  });

  const tooLong = (max: number) => ({ max, message: t("rule.tooLong", { max }) });

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      initialValues={{ proof: [] }}
      onFinish={(v) => create.mutate(v)}
      data-testid="remit-form"
      style={{ maxWidth: 560 }}
    >
      <Typography.Paragraph type="secondary">{t("form.intro")}</Typography.Paragraph>
      <Form.Item
        name="amount"
        label={t("form.amount")}
        required
        rules={[
          {
            validator: async (_, value: string | undefined) => {
              const problem = amountProblem(value);
              if (problem === "required") throw new Error(t("rule.amountRequired"));
              if (problem === "invalid") throw new Error(t("rule.amountInvalid"));
              if (problem === "max") throw new Error(t("rule.amountMax", { max: formatMoney(MAX_AMOUNT) }));
            },
          },
        ]}
      >
        <Input inputMode="decimal" maxLength={15} placeholder="0.00" data-testid="remit-amount" />
      </Form.Item>
      <Form.Item
        name="payer"
        label={t("form.payer")}
        rules={[{ required: true, whitespace: true, message: t("rule.payerRequired") }, tooLong(200)]}
      >
        <Input maxLength={200} data-testid="remit-payer" />
      </Form.Item>
      <Form.Item name="reference" label={t("form.reference")} rules={[tooLong(200)]}>
        <Input maxLength={200} data-testid="remit-reference" />
      </Form.Item>
      <Form.Item name="remark" label={t("form.remark")} rules={[tooLong(500)]}>
        <Input.TextArea maxLength={500} rows={2} data-testid="remit-remark" />
      </Form.Item>
      <Form.Item
        name="proof"
        label={t("form.proof")}
        valuePropName="fileList"
        getValueFromEvent={(e: { fileList: UploadFile[] }) => e.fileList.slice(-1)}
        extra={t("form.proofHint", { size: MAX_MB })}
        rules={[
          {
            validator: async (_, files: UploadFile[] | undefined) => {
              const f = files?.[0];
              if (!f) return;
              if (!ACCEPTED_NAME.test(f.name)) throw new Error(t("rule.proofType"));
              if ((f.size ?? 0) > REMITTANCE_PROOF_MAX_BYTES) throw new Error(t("rule.proofSize", { size: MAX_MB }));
            },
          },
        ]}
      >
        <Upload accept={ACCEPT} beforeUpload={() => false} maxCount={1}>
          <Button icon={<UploadOutlined />} data-testid="remit-proof">
            {t("form.proofPick")}
          </Button>
        </Upload>
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={create.isPending} data-testid="remit-submit">
        {t("form.submit")}
      </Button>
    </Form>
  );
}
