/** The `k` smallest of `keys` (distinct), ascending; `keys` may be reordered. */
export function smallest(keys: Float64Array, k: number): Float64Array {
  if (k * 8 >= keys.length) return keys.sort().subarray(0, k);
  // a max-heap of the k smallest so far
  const heap = new Float64Array(k);
  let size = 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as number;
    if (size < k) {
      let j = size++;
      heap[j] = key;
      while (j > 0) {
        const parent = (j - 1) >> 1;
        if ((heap[parent] as number) >= key) break;
        heap[j] = heap[parent] as number;
        j = parent;
      }
      heap[j] = key;
    } else if (key < (heap[0] as number)) {
      let j = 0;
      for (;;) {
        const left = 2 * j + 1;
        if (left >= k) break;
        const right = left + 1;
        const child = right < k && (heap[right] as number) > (heap[left] as number) ? right : left;
        if ((heap[child] as number) <= key) break;
        heap[j] = heap[child] as number;
        j = child;
      }
      heap[j] = key;
    }
  }
  return heap.sort();
}
