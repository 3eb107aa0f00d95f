import { useMutation, useQueryClient } from "@tanstack/react-query";
import { App, type ButtonProps } from "antd";
import { useCallback } from "react";
import { useApiErrorMessage } from "../../../hooks/use-api-error-message";
import { batchKeys, cancelBatch, terminateBatch } from "../api";
import { messages } from "../messages";

export type BatchActions = ReturnType<typeof useBatchActions>;

const CONFIRM_OK: ButtonProps & { "data-testid": string } = { danger: true, "data-testid": "confirm-ok" };

/**
 * Cancel (customer: 11, 12, 20) and terminate (staff: 21), each behind a confirmation; the lists and the
 * detail are refreshed after, errors shown as a warning.
 */
export function useBatchActions() {
  const t = messages.useT();
  const { modal, message } = App.useApp();
  const showError = useApiErrorMessage();
  const queryClient = useQueryClient();
  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: batchKeys.all }), [queryClient]);

  const cancel = useMutation({
    mutationFn: cancelBatch,
    onSuccess: async () => {
      message.success(t("done.cancelled"));
      await refresh();
    },
    onError: (e) => {
      showError(e);
      void refresh();
    },
  });
  const terminate = useMutation({
    mutationFn: terminateBatch,
    onSuccess: async () => {
      message.success(t("done.terminated"));
      await refresh();
    },
    onError: (e) => {
      showError(e);
      void refresh();
    },
  });

  const confirmCancel = (id: string) =>
    modal.confirm({
      title: t("confirm.cancel.title", { id }),
      content: t("confirm.cancel.content"),
      okText: t("confirm.ok"),
      cancelText: t("confirm.no"),
      okButtonProps: CONFIRM_OK,
      onOk: () => cancel.mutateAsync(id).catch(() => undefined),
    });
  const confirmTerminate = (id: string) =>
    modal.confirm({
      title: t("confirm.terminate.title", { id }),
      content: t("confirm.terminate.content"),
      okText: t("confirm.ok"),
      cancelText: t("confirm.no"),
      okButtonProps: CONFIRM_OK,
      onOk: () => terminate.mutateAsync(id).catch(() => undefined),
    });

  return {
    confirmCancel,
    confirmTerminate,
    cancelling: cancel.isPending ? cancel.variables : undefined,
    terminating: terminate.isPending ? terminate.variables : undefined,
  };
}
