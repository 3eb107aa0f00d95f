import type { FormRule } from "antd";
import type { TFunction } from "../../../lib/i18n";

export const USERNAME_LENGTH = { min: 3, max: 64 } as const;
export const PASSWORD_LENGTH = { min: 8, max: 128 } as const;

export function usernameRules(t: TFunction): FormRule[] {
  return [
    { required: true, whitespace: true, message: t("auth.rule.usernameRequired") },
    { ...USERNAME_LENGTH, message: t("auth.rule.usernameLength", USERNAME_LENGTH) },
  ];
}

export function passwordRules(t: TFunction): FormRule[] {
  return [
    { required: true, message: t("auth.rule.passwordRequired") },
    { ...PASSWORD_LENGTH, message: t("auth.rule.passwordLength", PASSWORD_LENGTH) },
  ];
}
