import { defineMessages } from "../../lib/i18n";

/**
 * Why a connection test (a channel's, a notify URL's) came out as it did: one text per CONNECTION_REASONS code of
 * the contracts. The API's English detail is shown beside it as secondary text only.
 */
export const messages = defineMessages(
  {
    "reason.ok": "连接正常",
    "reason.address_not_allowed": "该地址是内部或保留地址，平台不会连接",
    "reason.bad_port": "该端口保留给其他协议，不能用于 HTTP 请求",
    "reason.timeout": "对方在限定时间内没有响应",
    "reason.connection_refused": "连接被拒绝：该端口没有服务在监听，或被防火墙拦截",
    "reason.host_not_found": "域名无法解析，请检查地址是否正确",
    "reason.connection_reset": "连接被对方重置",
    "reason.unreachable": "网络不可达",
    "reason.tls_failed": "TLS 握手失败，请检查对方的 HTTPS 证书",
    "reason.not_http": "对方不是 HTTP 服务",
    "reason.not_smpp": "对方不是 SMPP 服务",
    "reason.closed_early": "连接在收到响应前被关闭",
    "reason.credentials_refused": "对方拒绝了认证信息，请检查账号、密码或令牌",
    "reason.not_found": "对方没有这个地址（HTTP 404）",
    "reason.server_error": "对方服务出错（HTTP {status}）",
    "reason.http_status": "对方返回 HTTP {status}",
    "reason.invalid_key": "密钥文件无效，无法用于签名",
    "reason.bad_answer": "对方的响应不符合协议",
    "reason.request_failed": "请求失败",
    "detail.label": "技术信息：{detail}",
  },
  {
    "reason.ok": "The connection works",
    "reason.address_not_allowed": "This is an internal or reserved address: the platform does not connect to it",
    "reason.bad_port": "This port belongs to another protocol: no HTTP request can be made to it",
    "reason.timeout": "No answer within the time limit",
    "reason.connection_refused": "Connection refused: nothing listens on that port, or a firewall rejects it",
    "reason.host_not_found": "The host name could not be resolved: check the address",
    "reason.connection_reset": "The connection was reset by the other side",
    "reason.unreachable": "The host is unreachable",
    "reason.tls_failed": "The TLS handshake failed: check the server's HTTPS certificate",
    "reason.not_http": "The other side is not an HTTP server",
    "reason.not_smpp": "The other side does not speak SMPP",
    "reason.closed_early": "The connection closed before an answer",
    "reason.credentials_refused": "The credentials were refused: check the account, password or token",
    "reason.not_found": "No such URL there (HTTP 404)",
    "reason.server_error": "The server answered with an error (HTTP {status})",
    "reason.http_status": "The server answered HTTP {status}",
    "reason.invalid_key": "The key file is not valid: it cannot sign",
    "reason.bad_answer": "The answer does not follow the protocol",
    "reason.request_failed": "The request failed",
    "detail.label": "Technical detail: {detail}",
  },
);
