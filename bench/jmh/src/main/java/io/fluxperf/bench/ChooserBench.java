package io.fluxperf.bench;

import io.fluxperf.engine.config.KeyDistribution;
import io.fluxperf.engine.config.KeyspaceConfig;
import io.fluxperf.engine.config.ValueSize;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.workload.KeyChooser;
import io.fluxperf.engine.workload.ValueSizeChooser;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Key and value-size generation for each distribution, on the generator a load thread uses
 * (XO_RO_SHI_RO_128_PP, seeded): {@code nextKey} draws a key index; {@code keyIntoRequest} also
 * formats it into a pooled {@link Request} as its 16-byte decimal key (what every request pays);
 * {@code nextValueSize} draws a value size (fixed 64, uniform 16..1024, weighted 64:9,4096:1).
 * Zipf is Commons RNG's rejection-inversion sampler, exponent 0.99.
 *
 * <p>Run: {@code java -jar bench/jmh/target/benchmarks.jar ChooserBench -prof gc}
 * ({@code -p distribution=zipf} for one). Expected: 0 B/op everywhere.
 */
public class ChooserBench extends HotPathBenchmark {

    @State(Scope.Thread)
    public static class Keys {
        @Param({"uniform", "zipf", "sequential"})
        public String distribution;

        @Param({"100000"})
        public long keyCount;

        KeyChooser chooser;
        final Request request = new Request();

        @Setup
        public void setup() {
            UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(42L);
            KeyspaceConfig keys = new KeyspaceConfig(keyCount, 16, KeyDistribution.parse(distribution),
                    KeyspaceConfig.DEFAULT_ZIPF_EXPONENT);
            chooser = KeyChooser.of(keys, rng, 0, 1);
        }
    }

    @State(Scope.Thread)
    public static class Sizes {
        @Param({"fixed", "range", "weighted"})
        public String valueSize;

        ValueSizeChooser chooser;

        @Setup
        public void setup() {
            UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(42L);
            ValueSize size = switch (valueSize) {
                case "fixed" -> ValueSize.fixed(64);
                case "range" -> new ValueSize.Range(16, 1024);
                case "weighted" -> new ValueSize.Weighted(new int[] {64, 4096}, new int[] {9, 1});
                default -> throw new IllegalArgumentException(valueSize);
            };
            chooser = ValueSizeChooser.of(size, rng);
        }
    }

    @Benchmark
    public long nextKey(Keys s) {
        return s.chooser.next();
    }

    @Benchmark
    public int keyIntoRequest(Keys s) {
        Request r = s.request.reset().command(Command.GET, 0).addKey(s.chooser.next(), 16);
        return r.keyLength(0);
    }

    @Benchmark
    public int nextValueSize(Sizes s) {
        return s.chooser.next();
    }
}
