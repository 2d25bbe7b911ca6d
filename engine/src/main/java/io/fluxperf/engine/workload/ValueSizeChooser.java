package io.fluxperf.engine.workload;

import io.fluxperf.engine.config.ValueSize;
import org.apache.commons.rng.UniformRandomProvider;

/** Draws value sizes as a {@link ValueSize} says. Seeded, single-threaded, allocation-free. */
public interface ValueSizeChooser {
    int next();

    static ValueSizeChooser of(ValueSize size, UniformRandomProvider rng) {
        if (size instanceof ValueSize.Fixed fixed) {
            int bytes = fixed.bytes();
            return () -> bytes;
        }
        if (size instanceof ValueSize.Range range) {
            int min = range.min();
            int span = range.max() - range.min() + 1;
            return () -> min + rng.nextInt(span);
        }
        ValueSize.Weighted weighted = (ValueSize.Weighted) size;
        int[] sizes = weighted.sizes();
        int[] cumulative = new int[sizes.length];
        int total = 0;
        for (int i = 0; i < sizes.length; i++) {
            total += weighted.weights()[i];
            cumulative[i] = total;
        }
        int sum = total;
        return () -> {
            int pick = rng.nextInt(sum);
            for (int i = 0; i < cumulative.length; i++) {
                if (pick < cumulative[i]) {
                    return sizes[i];
                }
            }
            return sizes[sizes.length - 1];
        };
    }
}
