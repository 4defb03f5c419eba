/** Where uploaded and generated files live: a local directory or S3-compatible storage. */
export interface FileStore {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<Uint8Array | null>;
  delete(key: string): Promise<void>;
  /** every key the store holds (in no particular order), e.g. for a backup */
  list(): AsyncIterable<string>;
}

const SAFE_KEY = /^[a-z0-9][a-z0-9/_.-]{0,200}$/;

export function assertSafeKey(key: string): void {
  if (!isSafeKey(key)) throw new Error(`Unsafe file key: ${key}`);
}

/** Whether a key is one the store accepts (what `list` skips when it finds anything else). */
export function isSafeKey(key: string): boolean {
  return SAFE_KEY.test(key) && !key.includes("..");
}
