/**
 * Requests sent all at once to one table, from outside any throttle: past a base's 5 requests/s, the server's
 * rate limit answers 429 and starts its penalty. Tests use it to put a base under that penalty on purpose.
 */
export interface Burst {
  statuses: number[];
  /** The first 429's Retry-After header (whole seconds), if one came. */
  retryAfter: string | null;
}

export async function burst(url: string, apiKey: string, path: string, count = 8): Promise<Burst> {
  const answers = await Promise.all(
    Array.from({ length: count }, () =>
      fetch(`${url}${path}`, { headers: { Authorization: `Bearer ${apiKey}` } }),
    ),
  );
  await Promise.all(answers.map((r) => r.arrayBuffer()));
  const refused = answers.find((r) => r.status === 429);
  return { statuses: answers.map((r) => r.status), retryAfter: refused?.headers.get('retry-after') ?? null };
}

/** A burst at one table, then whether it answers again once the 429's Retry-After is over. */
export async function penaltyOfABurst(
  url: string,
  apiKey: string,
  path: string,
): Promise<{ retryAfter: string | null; after: number }> {
  const { retryAfter } = await burst(url, apiKey, path);
  await new Promise((r) => setTimeout(r, Number(retryAfter ?? 0) * 1000 + 100));
  const after = await burst(url, apiKey, path, 1);
  return { retryAfter, after: after.statuses[0]! };
}
