// The server's API (apps/studio/README.md, "HTTP API"): every request carries the
// page's token; body[data-busy] is set while one is in flight.
export const TOKEN = new URLSearchParams(location.search).get("token") || "";

export class ApiError extends Error {
  constructor(readonly status: number, message: string) { super(message); }
}

let inFlight = 0;
function busy(delta: number) {
  inFlight += delta;
  if (inFlight > 0) document.body.dataset.busy = "1"; else delete document.body.dataset.busy;
}

export async function api<T = any>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> {
  busy(1);
  try {
    const headers: Record<string, string> = { "X-Jourdain-Token": TOKEN };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let data: any = null;
    try { data = text ? JSON.parse(text) : null; } catch { data = null; }
    if (!res.ok) throw new ApiError(res.status, (data && data.error) || text || res.statusText);
    return data as T;
  } finally {
    busy(-1);
  }
}

export const fileUrl = (path: string) => "/files/" + path.split("/").map(encodeURIComponent).join("/") + "?token=" + encodeURIComponent(TOKEN);
