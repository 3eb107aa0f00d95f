import { Select } from "antd";
import { type CSSProperties, useEffect, useMemo, useState } from "react";
import { useUserSearch } from "../api";
import { messages } from "../messages";

export interface PickedUser {
  id: number;
  user: string;
  type: number;
}

export interface UserPickerProps {
  value?: number;
  onChange?: (value: number | undefined, user: PickedUser | undefined) => void;
  /** 3: customers only; absent: every account the caller manages that the server returns. */
  type?: number;
  /** Account types offered (the search may answer admins too). */
  types?: readonly number[];
  /** Label of a value that is not among the search results (e.g. from the URL). */
  knownLabel?: string;
  placeholder?: string;
  allowClear?: boolean;
  id?: string;
  "data-testid"?: string;
  style?: CSSProperties;
}

/** A customer (or agent) chosen by typing its name: /user/search, at most 20 answers per keyword. */
export function UserPicker({
  value,
  onChange,
  type,
  types,
  knownLabel,
  placeholder,
  allowClear,
  id,
  style,
  ...rest
}: UserPickerProps) {
  const t = messages.useT();
  const [input, setInput] = useState("");
  const [keyword, setKeyword] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => setKeyword(input.trim()), 300);
    return () => clearTimeout(timer);
  }, [input]);
  const search = useUserSearch(keyword, type);
  const users = useMemo(
    () => (search.data?.list ?? []).filter((u) => !types || types.includes(u.type)),
    [search.data, types],
  );
  const options = users.map((u) => ({
    value: u.id,
    label: `${u.user}${u.nickname ? ` (${u.nickname})` : ""} · ${t(`user.type.${u.type}` as "user.type.3")}`,
  }));
  if (value !== undefined && !options.some((o) => o.value === value)) {
    options.unshift({ value, label: knownLabel ?? `#${value}` });
  }
  return (
    <Select<number>
      id={id}
      style={style}
      value={value}
      allowClear={allowClear}
      placeholder={placeholder ?? t("user.searchPlaceholder")}
      options={options}
      loading={search.isFetching}
      showSearch={{ filterOption: false, onSearch: setInput }}
      notFoundContent={search.isFetching ? undefined : t("user.noMatch")}
      onChange={(next) => {
        const user = users.find((u) => u.id === next);
        onChange?.(next ?? undefined, user ? { id: user.id, user: user.user, type: user.type } : undefined);
        setInput("");
      }}
      data-testid={rest["data-testid"]}
    />
  );
}
