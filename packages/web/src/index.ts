export { accessLog, assignRequestId, requestIdOf } from './request-log.ts';
export { headersOf, strictPageHeaders, type Header, type HelmetHeaders, type ScriptSource } from './page-headers.ts';
export { isSameOrigin } from './same-origin.ts';
export {
  answerParserRefusals,
  API_HEADER_CODES,
  parserRefusal,
  refusedHeader,
  wantsApiBody,
  type HeaderCodes,
  type RefusalStyle,
} from './parser-refusals.ts';
export { formBodyProblem, strictFormBody } from './form-body.ts';
export { exactRouter, exactRouting } from './exact-routing.ts';
export { BRAND_ROUTES, accentStylePath, logoPath } from './brand-paths.ts';
export { listenHttp, type HttpListener, type HttpListenerOptions } from './http-listener.ts';
