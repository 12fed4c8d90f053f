import { errorBody, type ErrorCode } from '@takes/contract';
import { AppError } from '../../errors';
import { codeOfStatus, STATUS_OF } from '../../http/errors';

/** What @tus/server turns into a response (its status_code and body): our one error body, as JSON. */
class TusRefusal extends Error {
  readonly body: string;
  constructor(
    readonly status_code: number,
    message: string,
    details?: unknown,
    code: ErrorCode = codeOfStatus(status_code),
  ) {
    super(message);
    this.body = JSON.stringify(errorBody(code, message, details));
  }
}

export function refusal(
  status: number,
  message: string,
  details?: unknown,
  code?: ErrorCode,
): TusRefusal {
  return new TusRefusal(status, message, details, code);
}

/** The refusal a domain error (or a 4xx from below) answers with; undefined for anything else. */
export function refusalOf(error: unknown): TusRefusal | undefined {
  if (error instanceof AppError)
    return refusal(STATUS_OF[error.kind], error.message, error.details, error.code);
  const status = (error as { statusCode?: unknown } | undefined)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500)
    return refusal(status, (error as Error).message);
  return undefined;
}
