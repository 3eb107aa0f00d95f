import { Form } from "antd";
import type { ReactNode } from "react";
import { messages } from "../messages";
import type { Problem } from "../model";

/** A labelled form row showing its problem (when problems are being shown) under the input. */
export function Field(props: {
  label?: ReactNode;
  htmlFor?: string;
  problem?: Problem | null | undefined;
  extra?: ReactNode;
  required?: boolean;
  children: ReactNode;
}) {
  const t = messages.useT();
  const { problem } = props;
  return (
    <Form.Item
      label={props.label}
      htmlFor={props.htmlFor}
      required={props.required}
      validateStatus={problem ? "error" : undefined}
      help={problem ? t(problem.key, problem.params) : undefined}
      extra={props.extra}
      style={{ marginBottom: 16 }}
    >
      {props.children}
    </Form.Item>
  );
}
