// @ts-check

/** A failure to report to the person: one line on stderr, then exit 1. */
export class CliError extends Error {
  /**
   * @param {string} message
   * @param {{ status?: number }} [options]
   */
  constructor(message, options = {}) {
    super(message);
    this.name = 'CliError';
    /** The HTTP status when the server refused the request. */
    this.status = options.status;
  }
}

/** The command line itself is wrong: the message, the command's usage, then exit 2. */
export class UsageError extends Error {
  /**
   * @param {string} message
   * @param {string} usage
   */
  constructor(message, usage) {
    super(message);
    this.name = 'UsageError';
    this.usage = usage;
  }
}
