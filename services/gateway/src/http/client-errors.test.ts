import { describe, expect, it } from '@jest/globals';
import { parserRefusal } from './client-errors.ts';

describe('parser refusals map to stable API errors', () => {
  it.each([
    ['HPE_HEADER_OVERFLOW', 431, 'headers_too_large'],
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'request_timeout'],
    ['HPE_INVALID_CONTENT_LENGTH', 400, 'invalid_request'],
    ['HPE_UNEXPECTED_CONTENT_LENGTH', 400, 'invalid_request'],
    ['HPE_INVALID_HEADER_TOKEN', 400, 'invalid_request'],
    ['HPE_INVALID_URL', 400, 'invalid_request'],
    ['HPE_SOMETHING_NEW', 400, 'invalid_request'],
    [undefined, 400, 'invalid_request'],
  ])('%s is %i %s', (code, status, apiCode) => {
    const error = parserRefusal(code);
    expect({ status: error.httpStatus, code: error.code }).toEqual({ status, code: apiCode });
  });
});
