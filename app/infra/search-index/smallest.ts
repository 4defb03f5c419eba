/**
 * The `k` smallest of the keys offered (distinct numbers), kept in a bounded max-heap: a key
 * that is not among them costs one comparison.
 */
export class Smallest {
  private readonly heap: Float64Array;
  private size = 0;

  constructor(k: number) {
    this.heap = new Float64Array(k);
  }

  offer(key: number): void {
    const heap = this.heap;
    const k = heap.length;
    if (this.size < k) {
      let j = this.size++;
      while (j > 0) {
        const parent = (j - 1) >> 1;
        if ((heap[parent] as number) >= key) break;
        heap[j] = heap[parent] as number;
        j = parent;
      }
      heap[j] = key;
    } else if (k > 0 && key < (heap[0] as number)) {
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

  /** The kept keys, ascending. */
  sorted(): Float64Array {
    return this.heap.subarray(0, this.size).sort();
  }
}
