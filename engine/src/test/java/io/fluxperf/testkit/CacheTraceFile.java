package io.fluxperf.testkit;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Writes a trace in Twitter's cache-trace format ({@code timestamp,anonymized key,key size,value
 * size,client id,operation,TTL}, as twitter/cache-trace's README gives it), seeded: a mix of
 * operations by weight, keys drawn from a Zipf distribution over a key space (rank 1 most
 * popular), each key with an anonymized name shorter than its key size, writes with value sizes
 * and TTLs from weighted lists, reads with the size of the key's last written value (0 before
 * any), a number of requests per whole second and a number of clients. The lines it wrote are
 * kept ({@link #lines()}) so that a test can compute what it expects from them.
 */
public final class CacheTraceFile {
    private final List<String> lines;

    private CacheTraceFile(List<String> lines) {
        this.lines = List.copyOf(lines);
    }

    public List<String> lines() {
        return lines;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A trace's settings; every one has a default. */
    public static final class Builder {
        private long seed = 1;
        private int seconds = 5;
        private int perSecond = 200;
        private int varying;
        private long startSecond = 0;
        private int keys = 500;
        private double alpha = 1.0;
        private int clients = 4;
        private String[] ops = {"get", "set", "delete", "incr"};
        private int[] opWeights = {70, 20, 6, 4};
        private int[] valueSizes = {100, 400, 1500};
        private int[] valueWeights = {6, 3, 1};
        private int[] ttls = {60, 300, 3600};
        private int[] ttlWeights = {5, 3, 2};

        public Builder seed(long v) {
            seed = v;
            return this;
        }

        /** Whole seconds the trace covers, and requests in each. */
        public Builder seconds(int count, int requestsEach) {
            seconds = count;
            perSecond = requestsEach;
            return this;
        }

        /** Second s gets {@code step · ((3s) mod 5)} requests more than the others, so that seconds differ. */
        public Builder varying(int step) {
            varying = step;
            return this;
        }

        public Builder startSecond(long v) {
            startSecond = v;
            return this;
        }

        /** Keys drawn from {@code count} with Zipf exponent {@code exponent}. */
        public Builder keys(int count, double exponent) {
            keys = count;
            alpha = exponent;
            return this;
        }

        public Builder clients(int v) {
            clients = v;
            return this;
        }

        /** Operations ({@code get}, {@code set}, …) and their weights, alternating: "get", 9, "set", 1. */
        public Builder ops(Object... nameWeight) {
            ops = new String[nameWeight.length / 2];
            opWeights = new int[nameWeight.length / 2];
            for (int i = 0; i < ops.length; i++) {
                ops[i] = (String) nameWeight[2 * i];
                opWeights[i] = (Integer) nameWeight[2 * i + 1];
            }
            return this;
        }

        public Builder valueSizes(int[] sizes, int[] weights) {
            valueSizes = sizes.clone();
            valueWeights = weights.clone();
            return this;
        }

        public Builder ttls(int[] seconds, int[] weights) {
            ttls = seconds.clone();
            ttlWeights = weights.clone();
            return this;
        }

        /** The lines of the trace, without writing them. */
        public CacheTraceFile make() {
            Random random = new Random(seed);
            double[] cumulative = new double[keys];
            double sum = 0;
            for (int k = 0; k < keys; k++) {
                sum += 1.0 / Math.pow(k + 1, alpha);
                cumulative[k] = sum;
            }
            String[] names = new String[keys];
            int[] keySizes = new int[keys];
            int[] lastValue = new int[keys];
            for (int k = 0; k < keys; k++) {
                names[k] = "ns:" + Long.toString(Math.abs(new Random(seed * 31 + k).nextLong()), 36).substring(0, 6) + k;
                keySizes[k] = names[k].length() + random.nextInt(12);
            }
            List<String> out = new ArrayList<>();
            for (int s = 0; s < seconds; s++) {
                for (int i = 0; i < perSecond + varying * ((3 * s) % 5); i++) {
                    double u = random.nextDouble() * sum;
                    int k = Arrays.binarySearch(cumulative, u);
                    k = k >= 0 ? k : Math.min(keys - 1, -k - 1);
                    String op = ops[pick(opWeights, random)];
                    boolean write = switch (op) {
                        case "set", "add", "replace", "cas", "append", "prepend" -> true;
                        default -> false;
                    };
                    int value = 0;
                    int ttl = 0;
                    if (write) {
                        value = valueSizes[pick(valueWeights, random)];
                        ttl = ttls[pick(ttlWeights, random)];
                        lastValue[k] = value;
                    } else if (op.equals("get") || op.equals("gets")) {
                        value = lastValue[k];
                    } else if (op.equals("delete")) {
                        lastValue[k] = 0;
                    }
                    int client = 1 + random.nextInt(clients);
                    out.add((startSecond + s) + "," + names[k] + "," + keySizes[k] + "," + value + "," + client + ","
                            + op + "," + ttl);
                }
            }
            return new CacheTraceFile(out);
        }

        private static int pick(int[] weights, Random random) {
            int total = Arrays.stream(weights).sum();
            int r = random.nextInt(total);
            for (int i = 0; i < weights.length; i++) {
                r -= weights[i];
                if (r < 0) {
                    return i;
                }
            }
            return weights.length - 1;
        }
    }

    /** Writes the lines as a plain CSV file. */
    public Path write(Path file) {
        try (OutputStream out = Files.newOutputStream(file)) {
            writeTo(out);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes the lines zstd-compressed, as the published traces are. */
    public Path writeZstd(Path file) {
        try (OutputStream out = new ZstdOutputStream(Files.newOutputStream(file))) {
            writeTo(out);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void writeTo(OutputStream out) throws IOException {
        StringBuilder b = new StringBuilder();
        for (String line : lines) {
            b.append(line).append('\n');
        }
        out.write(b.toString().getBytes(StandardCharsets.US_ASCII));
    }
}
