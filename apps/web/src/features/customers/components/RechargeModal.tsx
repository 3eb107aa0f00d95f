import { UserType } from "@switchboard/contracts/codes";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Alert, App, type ButtonProps, Form, Input, Modal } from "antd";
import { useEffect, useRef, useState } from "react";
import { errorText } from "../../../lib/error-text";
import { formatMoney } from "../../../lib/format";
import { authKeys, useUserInfo } from "../../auth/api/get-user-info";
import { useSession } from "../../auth/context/session-context";
import { type BalanceAction, changeBalance, customerKeys } from "../api";
import { messages } from "../messages";
import { AMOUNT_DECIMALS, AMOUNT_MAX_TEXT, checkAmount, exceedsBalance } from "./amount";
import { UserPicker } from "./UserPicker";

export interface RechargeModalProps {
  action: BalanceAction;
  open: boolean;
  onClose: () => void;
  /** A fixed target (from a row of the customer list); without it the modal has a user picker. */
  target?: { id: number; user: string } | null;
}

interface Values {
  userId?: number;
  amount?: string;
  remark?: string;
}

const TITLES = { recharge: "money.recharge", deduct: "money.deduct", gift: "money.gift" } as const;

/**
 * Recharge, deduct or gift (POST /finance/recharge, /finance/deduct, /user/gift/send). Agents see their own
 * balance (their customers' money comes out of it) and the server's refusal stays in the modal, e.g.
 * "insufficient agent balance (your balance is 0.00); recharge your own account first".
 */
export function RechargeModal({ action, open, onClose, target }: RechargeModalProps) {
  const t = messages.useT();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const isAgent = user.type === UserType.AGENT;
  // What an agent recharges or gives comes out of its own balance (a deduct goes back into it).
  const fromOwnBalance = isAgent && action !== "deduct";
  const currency = user.currency;
  const me = useUserInfo();
  const [form] = Form.useForm<Values>();
  const [serverError, setServerError] = useState<string | null>(null);
  const pickedName = useRef<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the modal opens, not on every render
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    setServerError(null);
    if (isAgent) void me.refetch();
  }, [open]);

  const mutation = useMutation({
    mutationFn: (values: Values) =>
      changeBalance(action, {
        userId: target?.id ?? (values.userId as number),
        amount: (values.amount ?? "").trim(),
        remark: values.remark?.trim() || undefined,
      }),
    onSuccess: (result, values) => {
      const name = target?.user ?? pickedName.current ?? String(values.userId);
      message.success(
        result.agentBalance === null
          ? t("money.done", { user: name, balance: formatMoney(result.balance, { currency }) })
          : t("money.doneAgent", {
              user: name,
              balance: formatMoney(result.balance, { currency }),
              agentBalance: formatMoney(result.agentBalance, { currency }),
            }),
      );
      void queryClient.invalidateQueries({ queryKey: customerKeys.all });
      void queryClient.invalidateQueries({ queryKey: authKeys.userInfo });
      onClose();
    },
    onError: (error) => setServerError(errorText(error, t.shell)),
  });

  const amountRule = {
    validator: (_: unknown, value: string | undefined) => {
      const problem = checkAmount(value);
      if (problem === null && fromOwnBalance && me.data && exceedsBalance(value, me.data.balance)) {
        const balance = formatMoney(me.data.balance, { currency });
        return Promise.reject(new Error(t("money.overAgentBalance", { balance })));
      }
      if (problem === null) return Promise.resolve();
      const text =
        problem === "required"
          ? t("money.amountRequired")
          : problem === "decimals"
            ? t("money.amountDecimals", { decimals: AMOUNT_DECIMALS })
            : problem === "max"
              ? t("money.amountMax", { max: AMOUNT_MAX_TEXT })
              : t("money.amountInvalid");
      return Promise.reject(new Error(text));
    },
  };

  return (
    <Modal
      open={open}
      title={target ? `${t(TITLES[action])} - ${target.user}` : t(TITLES[action])}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t("money.submit")}
      okButtonProps={{ loading: mutation.isPending, "data-testid": "balance-submit" } as ButtonProps}
      destroyOnHidden
      data-testid="balance-modal"
    >
      {fromOwnBalance && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title={t("money.agentHint", { balance: formatMoney(me.data?.balance, { currency }) })}
          data-testid="balance-agent-hint"
        />
      )}
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={(values) => {
          setServerError(null);
          mutation.mutate(values);
        }}
        onValuesChange={() => serverError && setServerError(null)}
      >
        {!target && (
          <Form.Item
            name="userId"
            label={t("money.target")}
            rules={[{ required: true, message: t("money.targetRequired") }]}
          >
            <UserPicker
              testId="balance-user"
              onPick={(name) => {
                pickedName.current = name;
              }}
              type={isAgent || action === "gift" ? UserType.USER : undefined}
              allowedTypes={[UserType.AGENT, UserType.USER]}
            />
          </Form.Item>
        )}
        <Form.Item name="amount" label={t("money.amount")} rules={[amountRule]} validateFirst>
          <Input inputMode="decimal" autoComplete="off" data-testid="balance-amount" maxLength={20} />
        </Form.Item>
        <Form.Item
          name="remark"
          label={action === "deduct" ? t("money.deductReason") : t("money.remark")}
          rules={[
            ...(action === "deduct" ? [{ required: true, whitespace: true, message: t("money.remarkRequired") }] : []),
            { max: 200, message: t("form.maxLength", { max: 200 }) },
          ]}
        >
          <Input.TextArea rows={2} data-testid="balance-remark" />
        </Form.Item>
      </Form>
      {serverError && <Alert type="error" showIcon title={serverError} data-testid="balance-error" />}
    </Modal>
  );
}
