/**
 * Domain errors carry a stable machine code and a human message, never an HTTP status:
 * lambdas/api/http.ts maps codes to statuses in one place.
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Input that does not satisfy a contract. `fields` maps a field name to its message. */
export class ValidationError extends DomainError {
  constructor(message: string, readonly fields: Record<string, string> = {}) {
    super('validation_failed', message, { fields });
  }
}

export class NotFoundError extends DomainError {
  constructor(code: string, message: string) {
    super(code, message);
  }
}

export class UnauthorizedError extends DomainError {
  constructor(message = 'Sign in to continue.') {
    super('unauthorized', message);
  }
}

export class ForbiddenError extends DomainError {}

export class ConflictError extends DomainError {}

/** The thing existed but is no longer available (an expired or used-up share link). */
export class GoneError extends DomainError {}

export class RateLimitedError extends DomainError {
  constructor(message: string, readonly retryAfterSeconds: number) {
    super('rate_limited', message, { retryAfterSeconds });
  }
}

/** A service Rampart relies on did not answer (or answered nonsense); the request may be tried again. */
export class UpstreamUnavailableError extends DomainError {}

/** Misconfiguration found at start-up or first use: names the missing or bad keys. */
export class ConfigError extends DomainError {
  constructor(message: string) {
    super('config_invalid', message);
  }
}
