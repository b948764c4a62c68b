/**
 * Draws from `items` by Zipf's law over their order (rank r has weight 1/r): the first item is the most frequent, as
 * in a natural vocabulary. One `random()` per draw, so a seeded generator gives the same corpus every time.
 */
export function zipfSampler<T>(items: readonly T[]): (random: () => number) => T {
  const cumulative = new Float64Array(items.length);
  let sum = 0;
  for (let rank = 0; rank < items.length; rank++) cumulative[rank] = sum += 1 / (rank + 1);
  return (random) => {
    const target = random() * sum;
    let low = 0;
    let high = items.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((cumulative[middle] as number) < target) low = middle + 1;
      else high = middle;
    }
    return items[low] as T;
  };
}
