/** Typed failures of domain services; one error plugin maps them to a status and `{"detail"}`. */
export class DomainError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export class Unauthorized extends DomainError {
  constructor(detail = 'Not authenticated') {
    super(401, detail);
  }
}
export class Forbidden extends DomainError {
  constructor(detail: string) {
    super(403, detail);
  }
}
export class NotFound extends DomainError {
  constructor(detail: string) {
    super(404, detail);
  }
}
export class Conflict extends DomainError {
  constructor(detail: string) {
    super(409, detail);
  }
}
export class Invalid extends DomainError {
  constructor(detail: string) {
    super(422, detail);
  }
}
export class TooManyRequests extends DomainError {
  constructor(detail: string, retryAfterSeconds: number) {
    super(429, detail, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}
