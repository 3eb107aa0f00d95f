import { useQuery } from "@tanstack/react-query";
import { Select, Typography } from "antd";
import { type CSSProperties, useEffect, useState } from "react";
import { customerKeys, searchUsers } from "../api";
import { messages } from "../messages";
import { codeLabel } from "./labels";

export interface UserPickerProps {
  value?: number | string | null;
  onChange?: (value: number | undefined) => void;
  /** Called with the username of the picked account. */
  onPick?: (user: string | null) => void;
  /** Asks the server for one type only (2 agents, 3 customers). */
  type?: number;
  /** Types offered when the server is asked for every type (e.g. agents and customers, never admins). */
  allowedTypes?: readonly number[];
  placeholder?: string;
  testId?: string;
  disabled?: boolean;
  id?: string;
  style?: CSSProperties;
}

/** A searchable select over GET /user/search (at most 20 matches of the accounts the caller manages). */
export function UserPicker({
  value,
  onChange,
  onPick,
  type,
  allowedTypes,
  placeholder,
  testId,
  disabled,
  id,
  style,
}: UserPickerProps) {
  const t = messages.useT();
  const [typed, setTyped] = useState("");
  const [keyword, setKeyword] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => setKeyword(typed.trim()), 250);
    return () => clearTimeout(timer);
  }, [typed]);

  const query = useQuery({
    queryKey: customerKeys.search(keyword, String(type ?? "")),
    queryFn: ({ signal }) => searchUsers({ keyword: keyword || undefined, type }, { signal }),
    staleTime: 10_000,
  });
  const rows = (query.data?.list ?? []).filter((u) => !allowedTypes || allowedTypes.includes(u.type));
  const options = rows.map((u) => ({
    value: u.id,
    label: `${u.user}${u.nickname ? ` (${u.nickname})` : ""}${type === undefined ? ` · ${codeLabel(t, "type", u.type)}` : ""}`,
  }));
  const selected = value === null || value === undefined || value === "" ? undefined : Number(value);

  return (
    <Select<number>
      id={id}
      data-testid={testId}
      showSearch={{ filterOption: false, onSearch: setTyped }}
      allowClear
      value={selected}
      onChange={(v) => {
        onChange?.(v ?? undefined);
        onPick?.(rows.find((u) => u.id === v)?.user ?? null);
      }}
      options={options}
      loading={query.isFetching}
      placeholder={placeholder ?? t("picker.placeholder")}
      disabled={disabled}
      style={{ minWidth: 200, ...style }}
      notFoundContent={query.isError ? t.shell("error.loadFailed") : undefined}
      popupRender={(menu) => (
        <>
          {menu}
          {query.data && query.data.total > query.data.list.length && (
            <Typography.Text type="secondary" style={{ display: "block", padding: "4px 12px" }}>
              {t("picker.more", { shown: query.data.list.length, total: query.data.total })}
            </Typography.Text>
          )}
        </>
      )}
    />
  );
}
