// Messages of message batches.
import type { Lang } from "../codes";

export const batchMessages = {
  "batch.sms_too_long": {
    zh: "短信内容过长：{segments} 条，最多 {max} 条",
    en: "the SMS is too long: {segments} parts, at most {max}",
  },
  "batch.illegal_transition": {
    zh: "任务状态为 {from}，不能执行此操作",
    en: "the batch is in status {from}; this action is not possible now",
  },
  "entity.batch": { zh: "任务", en: "batch" },
  "entity.message": { zh: "消息", en: "message" },
  // submission
  "batch.template_unknown": {
    zh: "WhatsApp 模板 {name}（{language}）不存在于发送通道，未扣费",
    en: "the WhatsApp template {name} ({language}) does not exist on the sending channel; nothing was charged",
  },
  "batch.template_not_approved": {
    zh: "WhatsApp 模板 {name} 当前状态为 {status}，只有已批准的模板可以发送，未扣费",
    en: "the WhatsApp template {name} is {status}: only approved templates can be sent; nothing was charged",
  },
  "batch.template_params": {
    zh: "WhatsApp 模板 {name} 需要 {expected} 个正文参数，实际提供 {given} 个，未扣费",
    en: "the WhatsApp template {name} takes {expected} body parameters, {given} were given; nothing was charged",
  },
  "batch.template_header": {
    zh: "WhatsApp 模板 {name} 的标题需要：{expected}，未扣费",
    en: "the WhatsApp template {name} needs this header: {expected}; nothing was charged",
  },
  "batch.template_buttons": {
    zh: "WhatsApp 模板 {name} 的按钮参数不匹配（需要：{expected}），未扣费",
    en: "the WhatsApp template {name}'s button values do not match (needed: {expected}); nothing was charged",
  },
  "batch.whatsapp_window_closed": {
    zh: "{count} 个号码在 24 小时内没有发来消息，WhatsApp 只允许向其发送已批准的模板，未扣费",
    en: "{count} numbers have not written in the last 24 hours: WhatsApp only lets approved templates reach them; nothing was charged",
  },
  "batch.screening_unavailable": {
    zh: "产品「{product}」暂不支持号码筛查：其通道无法检测号码可达性，未扣费",
    en: "screening is not available for product {product}: its channel cannot check whether numbers can receive; nothing was charged",
  },
  "batch.screening_channel_unsupported": {
    zh: "该国家/地区的通道无法检测号码可达性，不能筛查，未扣费",
    en: "the channel for this country cannot check whether numbers can receive: not screened, nothing charged",
  },
  "batch.screening_no_price": {
    zh: "该国家/地区没有筛查价格",
    en: "no screening price for this country",
  },
  "batch.screening_not_finished": {
    zh: "只能向已完成（发送完成）的筛查任务中的可达号码发送",
    en: "only a finished screening batch (status 22) can be sent to its reachable numbers",
  },
  "batch.no_reachable_numbers": {
    zh: "该筛查任务没有可达号码",
    en: "the screening found no reachable number",
  },
  "batch.product_required": {
    zh: "请指定产品（productId 或 productCode）",
    en: "name the product (productId or productCode)",
  },
  "batch.field_not_json": { zh: "字段 {field} 必须是 JSON", en: "field {field} must be JSON" },
  "batch.product_no_channel": {
    zh: "产品「{product}」暂时无法发送：没有为您的账户开通发送通道，请联系客服",
    en: "product {product} cannot send now: no channel carries it for your account; please contact support",
  },
  "batch.product_channels_paused": {
    zh: "产品「{product}」暂时无法发送：它的发送通道已暂停，请稍后再试或联系客服",
    en: "product {product} cannot send now: its channels are paused; try again later or contact support",
  },
  "batch.product_ambiguous": {
    zh: "编码为 {code} 的产品有多个，请用 productId 指定",
    en: "several products have code {code}; name one with productId",
  },
  "batch.content_product_mismatch": {
    zh: "内容属于产品 {content}，所选产品为 {product}",
    en: "the content is for product {content} but the product is {product}",
  },
  "batch.schedule_past": { zh: "定时发送时间必须晚于当前时间", en: "scheduledAt must be in the future" },
  "batch.schedule_too_far": {
    zh: "定时发送时间最多为 {days} 天后",
    en: "scheduledAt must be at most {days} days ahead",
  },
  "batch.number_invalid": { zh: "号码无效", en: "the number is not valid" },
  "batch.number_not_served": {
    zh: "号码所属国家（{country}）无法发送：{reason}",
    en: "the number's country ({country}) cannot be sent to: {reason}",
  },
  "batch.no_valid_numbers": {
    zh: "没有可发送的号码：无效 {invalid} 个，重复 {duplicate} 个，国家不支持 {notServed} 个",
    en: "no number can be sent: {invalid} invalid, {duplicate} duplicate, {notServed} in countries not served",
  },
  "batch.no_valid_numbers_because": {
    zh: "没有可发送的号码：无效 {invalid} 个，重复 {duplicate} 个，国家不支持 {notServed} 个（{reason}）",
    en: "no number can be sent: {invalid} invalid, {duplicate} duplicate, {notServed} in countries not served ({reason})",
  },
  "batch.ingesting": {
    zh: "任务文件仍在读取中，请稍后再试",
    en: "the batch's file is still being read; try again when it is done",
  },
  "batch.ingest_failed": {
    zh: "任务文件读取失败，请重新提交",
    en: "the batch's file could not be read; submit it again",
  },
  "batch.ingest_file_missing": { zh: "任务文件已丢失，请重新提交", en: "the batch's file is missing; submit it again" },
  // files (mode 3)
  "batch.file_required": { zh: "请在字段 {field} 中上传号码文件", en: "upload the number file in field {field}" },
  "batch.file_empty": { zh: "文件为空", en: "the file is empty" },
  "batch.file_binary": {
    zh: "文件不是文本（CSV、TXT）或 XLSX 文件",
    en: "the file is not a text (CSV or TXT) or XLSX file",
  },
  "batch.file_xls": {
    zh: "不支持 XLS（Excel 97-2003）格式，请另存为 XLSX 或 CSV",
    en: "XLS (Excel 97-2003) files are not supported; save the sheet as XLSX or CSV",
  },
  "batch.file_xlsx_invalid": {
    zh: "XLSX 文件无法读取：文件已损坏、已加密或不是工作簿",
    en: "the XLSX file cannot be read: it is damaged, encrypted or not a workbook",
  },
  "batch.file_no_number_column": {
    zh: "首行中没有名为 phone、mobile 或 number 的列",
    en: "the first row has no column named phone, mobile or number",
  },
  "batch.file_no_numbers": { zh: "文件中没有号码", en: "the file contains no numbers" },
  // personalised campaigns: {{column}} placeholders filled from a file's columns (docs/batches.md)
  "batch.variable_unknown": {
    zh: "文件中没有名为 {column} 的列，无法填写 {{{column}}}",
    en: "the file has no column named {column} to fill {{{column}}}",
  },
  "batch.variables_need_header": {
    zh: "内容使用了变量 {{{column}}}，但文件首行不是列名（没有表头）",
    en: "the content uses {{{column}}}, but the file's first row is not a header naming its columns",
  },
  "batch.all_unfilled": {
    zh: "没有可发送的号码：{count} 行缺少内容所用列的值（或填写后短信过长）",
    en: "no number can be sent: {count} rows lack a value of a column the content uses (or are too long once filled)",
  },
  "batch.variables_need_file": {
    zh: "内容使用了变量 {{{column}}}：变量只能由上传文件的列填写",
    en: "the content uses {{{column}}}: variables are filled only from the columns of an uploaded file",
  },
  "batch.file_too_many_numbers": {
    zh: "文件中的号码不能超过 {max} 个",
    en: "the file must contain at most {max} numbers",
  },
  "batch.file_too_large": { zh: "文件不能超过 {max} MB", en: "the file must be at most {max} MB" },
  "batch.file_line_too_long": { zh: "第 {line} 行过长", en: "line {line} is too long" },
  // developer API
  "batch.api_key_missing": {
    zh: "缺少密钥：请使用 Authorization: Bearer sk_... 或 X-Api-Key 请求头",
    en: "missing secret key: send Authorization: Bearer sk_... or X-Api-Key",
  },
  "batch.api_key_invalid": { zh: "密钥无效", en: "invalid secret key" },
  "batch.api_key_scope": {
    zh: "该密钥没有 {scope} 权限",
    en: "this key does not have the {scope} scope",
  },
  "batch.api_disabled": { zh: "该账号未开启开发者接口", en: "the developer API is turned off for this account" },
  "batch.api_ip_not_allowed": {
    zh: "地址 {ip} 不在 IP 白名单中",
    en: "address {ip} is not in the IP whitelist",
  },
  "batch.api_frozen": { zh: "账号已冻结", en: "this account is frozen" },
  "batch.idempotency_key_invalid": {
    zh: "Idempotency-Key 须为 1 到 {max} 个可打印 ASCII 字符",
    en: "Idempotency-Key must be 1 to {max} printable ASCII characters",
  },
  "batch.idempotency_conflict": {
    zh: "该 Idempotency-Key 已用于另一个不同的请求",
    en: "this Idempotency-Key was already used with a different request",
  },
  "batch.api_rate_limited": {
    zh: "请求过于频繁：每个密钥每秒最多 {rate} 次（突发 {burst} 次），请 {retryAfter} 秒后重试",
    en: "too many requests: at most {rate} per second per key (bursts of {burst}); retry in {retryAfter} s",
  },
  // why a sending batch failed (message_batches.reason, written by the workers)
  "batch.failure.all_recipients_failed": { zh: "所有号码均发送失败", en: "every recipient failed" },
  "batch.failure.channel_unavailable": {
    zh: "通道多次重试后仍不可用",
    en: "the channel stayed unavailable after every retry",
  },
  "batch.failure.channel_missing": { zh: "发送通道已不存在", en: "the sending channel no longer exists" },
  "batch.failure.channel_paused": { zh: "发送通道已暂停", en: "the sending channel is paused" },
  "batch.failure.channel_kind_unsupported": {
    zh: "发送通道的类型暂不支持",
    en: "the sending channel's kind is not supported",
  },
  "batch.failure.channel_config_invalid": {
    zh: "发送通道的配置无效",
    en: "the sending channel's configuration is not valid",
  },
  "batch.failure.screening_unsupported": {
    zh: "通道已不支持号码筛查（其检测设置已被移除），已退款",
    en: "the channel can no longer screen numbers (its check was removed from its settings); refunded",
  },
  "batch.failure.template_refused": {
    zh: "WhatsApp 拒绝了该模板（已暂停、停用或不存在），其余号码未发送并已退款",
    en: "WhatsApp refused the template (paused, disabled or gone): the other numbers were not sent and were refunded",
  },
  "batch.failure.content_unsupported": {
    zh: "发送通道暂不支持该产品的内容",
    en: "the channel cannot send this product's content yet",
  },
  // the recipients' CSV (its header and result labels, in the caller's language)
  "export.col.phone": { zh: "号码", en: "phone" },
  "export.col.country": { zh: "国家", en: "country" },
  "export.col.segments": { zh: "条数", en: "segments" },
  "export.col.price": { zh: "单价", en: "price" },
  "export.col.sendResult": { zh: "发送结果", en: "send result" },
  "export.col.receiveResult": { zh: "状态报告", en: "delivery report" },
  "export.col.errorCode": { zh: "错误码", en: "error code" },
  "export.col.sentAt": { zh: "发送时间（{tz}）", en: "sent at ({tz})" },
  "export.col.receivedAt": { zh: "回执时间（{tz}）", en: "report at ({tz})" },
  "export.col.channelId": { zh: "通道编号", en: "channel id" },
  "export.col.channelName": { zh: "通道", en: "channel" },
  "export.col.sendResultCode": { zh: "发送结果代码", en: "send result code" },
  "export.col.receiveResultCode": { zh: "状态报告代码", en: "delivery report code" },
  "recipient.send_result.0": { zh: "未发送", en: "not sent" },
  "recipient.send_result.1": { zh: "发送成功", en: "sent" },
  "recipient.send_result.2": { zh: "发送失败", en: "failed" },
  "recipient.send_result.3": { zh: "已终止", en: "terminated" },
  "recipient.receive_result.0": { zh: "未知", en: "unknown" },
  "recipient.receive_result.1": { zh: "已接收", en: "delivered" },
  "recipient.receive_result.2": { zh: "接收失败", en: "not delivered" },
} as const satisfies Record<string, Record<Lang, string>>;
