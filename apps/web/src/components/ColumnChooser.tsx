import { SettingOutlined } from "@ant-design/icons";
import { Button, Checkbox, Divider, Popover, type TableColumnsType } from "antd";
import { type ReactNode, useCallback, useState } from "react";
import { useT } from "../lib/i18n";
import { storage } from "../lib/storage";

type Column<T> = TableColumnsType<T>[number];

/** A column's key: its `key`, else its `dataIndex` (a path joined by dots). */
export function columnKey<T>(column: Column<T>): string {
  if (column.key !== undefined && column.key !== null) return String(column.key);
  const index = "dataIndex" in column ? column.dataIndex : undefined;
  return Array.isArray(index) ? index.join(".") : String(index ?? "");
}

/** Fixed columns (the actions) always stay: hiding them would hide what the row can do. */
const choosable = <T,>(column: Column<T>) => !column.fixed;

export interface ColumnChoice<T> {
  /** The columns to show: the list's columns without the hidden ones, in their order. */
  columns: TableColumnsType<T>;
  /** The button that opens the choice (put it above the table). */
  chooser: ReactNode;
}

/**
 * The visible columns of a wide list, chosen by the user and kept in local storage under `list` (the hidden
 * keys are stored, so a column added later shows until it is hidden). At least one column always stays.
 */
export function useColumnChoice<T>(list: string, columns: TableColumnsType<T>): ColumnChoice<T> {
  const t = useT();
  const [hidden, setHidden] = useState<readonly string[]>(() => storage.getHiddenColumns(list));
  const options = columns.filter(choosable).map((c) => ({
    value: columnKey(c),
    label: typeof c.title === "function" ? columnKey(c) : (c.title as ReactNode),
  }));
  const change = useCallback(
    (next: readonly string[]) => {
      setHidden(next);
      storage.setHiddenColumns(list, next);
    },
    [list],
  );
  const visible = options.map((o) => o.value).filter((k) => !hidden.includes(k));
  const shown = columns.filter((c) => !choosable(c) || !hidden.includes(columnKey(c)));

  const content = (
    <div data-testid={`columns-${list}`} style={{ maxWidth: 260 }}>
      <Checkbox.Group
        style={{ display: "flex", flexDirection: "column", gap: 4 }}
        value={visible}
        onChange={(keys) => {
          // the last visible column cannot be hidden
          if (keys.length === 0) return;
          change(options.map((o) => o.value).filter((k) => !keys.includes(k)));
        }}
        options={options.map((o) => ({ ...o, disabled: visible.length === 1 && visible[0] === o.value }))}
      />
      <Divider style={{ margin: "8px 0" }} />
      <Button size="small" type="link" style={{ padding: 0 }} disabled={hidden.length === 0} onClick={() => change([])}>
        {t("common.columnsAll")}
      </Button>
    </div>
  );
  const chooser = (
    <Popover trigger="click" placement="bottomRight" content={content} title={t("common.columns")}>
      <Button icon={<SettingOutlined />} data-testid={`columns-${list}-open`} aria-label={t("common.columns")}>
        {t("common.columns")}
      </Button>
    </Popover>
  );
  return { columns: shown, chooser };
}
