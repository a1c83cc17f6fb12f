/**
 * A response's body read with a size limit: past `limit` bytes, as its length announces or as they arrive, the
 * body is cancelled (its connection dropped) and `tooLarge()` is thrown, so a broken or hostile server cannot
 * fill memory. Used for the service's answers and for the attachment files a mirror downloads. `moved` is told
 * each piece's size as it arrives (a StallWatch's progress).
 */
export async function boundedBody(
  response: Response,
  limit: number,
  tooLarge: () => Error,
  moved?: (bytes: number) => void,
): Promise<Uint8Array> {
  if (Number(response.headers.get('content-length') ?? 0) > limit) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  for (;;) {
    const next = await reader?.read();
    if (!next || next.done) break;
    size += next.value.byteLength;
    moved?.(next.value.byteLength);
    if (size > limit) {
      await reader?.cancel();
      throw tooLarge();
    }
    chunks.push(next.value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
