/** A start-up failure whose message is shown as one line, without a stack trace. */
export class DatabaseStartError extends Error {}
