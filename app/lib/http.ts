/** Whether a request with this method may change something (anything but GET, HEAD and OPTIONS). */
export function isWriteMethod(method: string | undefined): boolean {
  const m = method?.toUpperCase();
  return m !== "GET" && m !== "HEAD" && m !== "OPTIONS";
}
