package io.fluxperf.engine.pubsub;

import io.fluxperf.engine.UserError;
import io.fluxperf.engine.config.RunConfig;
import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.connection.ClientLoop;
import io.fluxperf.engine.connection.Failures;
import io.fluxperf.engine.connection.ServerAddress;
import io.fluxperf.engine.load.RequestSource;
import io.fluxperf.engine.load.RunAddendum;
import io.fluxperf.engine.metrics.LatencySummary;
import io.fluxperf.engine.metrics.MessageFigures;
import io.fluxperf.engine.metrics.WindowResult;
import io.fluxperf.engine.pool.PoolMember;
import io.fluxperf.engine.pool.PoolRouter;
import io.fluxperf.engine.pool.ServerPool;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.PubSubProtocol;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.Request;
import io.fluxperf.trace.LatencyHistograms;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.unix.DomainSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;

/**
 * A publish workload's subscribers ({@code subscribers = N}, {@code --subscribers N}): N subscriber
 * connections to every server that holds channels of the workload (each key of its keyspace is a
 * channel; on a cluster, each node's channels, subscribed as sharded channels), opened and
 * subscribed before the load, on an event loop of their own. The run's publishes carry a message
 * id and their send time ({@link MessageLedger}, {@link io.fluxperf.engine.request.MessagePayload});
 * each subscriber measures every message from that time to its arrival, in this process.
 *
 * <p>As a {@link RunAddendum} it adds to each window what the subscribers received in it, and to
 * the whole run the reconciliation, message by message, of every subscriber's deliveries with the
 * publishes that ended ok: delivered, lost, duplicated ({@link MessageFigures}). At the load's end
 * it waits (at most the timeout) for the messages still on their way.
 *
 * <p>The protocol takes part only through {@link Protocol#pubSub()}.
 */
public final class PubSubRun implements RunAddendum, AutoCloseable {
    /** A subscriber subscribes to every channel of the keyspace: at most this many. */
    public static final long MAX_CHANNELS = 100_000;
    private static final Duration SUBSCRIBE_TIMEOUT = Duration.ofSeconds(30);
    private static final long DRAIN_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final int workload;
    private final MessageLedger ledger;
    private final ClientLoop loop;
    private final List<Deliveries> subscribers = new ArrayList<>();
    private final List<List<SubscriberConnection>> connections = new ArrayList<>();
    private final List<Deliveries.Window> spares = new ArrayList<>();
    private final List<Histogram> runLatency = new ArrayList<>();
    private final long[] runDuplicated;

    private PubSubRun(int workload, MessageLedger ledger, ClientLoop loop, int count) {
        this.workload = workload;
        this.ledger = ledger;
        this.loop = loop;
        this.runDuplicated = new long[count];
        for (int i = 0; i < count; i++) {
            subscribers.add(new Deliveries(ledger));
            connections.add(new ArrayList<>());
            spares.add(new Deliveries.Window());
            runLatency.add(LatencyHistograms.create());
        }
    }

    /**
     * The subscribers of {@code config}'s publish workload, connected and subscribed; null when no
     * workload has subscribers.
     *
     * @param pool the run's servers when it has several (a cluster), else null: {@code config.server()}
     * @throws UserError when the protocol has no publish/subscribe, or a subscriber cannot subscribe
     */
    public static PubSubRun open(RunConfig config, Protocol protocol, ServerPool pool) {
        int index = -1;
        for (int i = 0; i < config.workloads().size(); i++) {
            if (config.workloads().get(i).shape().subscribers() > 0) {
                index = i;
            }
        }
        if (index < 0) {
            return null;
        }
        WorkloadConfig w = config.workloads().get(index);
        PubSubProtocol pubSub = protocol.pubSub();
        if (pubSub == null) {
            throw new UserError("--subscribers: protocol " + protocol.name() + " has no publish/subscribe");
        }
        if (config.connection().tls()) {
            throw new UserError("--subscribers: subscribers connect without TLS; leave out --tls");
        }
        if (w.keyspace().count() > MAX_CHANNELS) {
            throw new UserError("--keyspace: each subscriber subscribes to every channel of workload " + w.name()
                    + "'s keyspace, at most " + String.format(java.util.Locale.ROOT, "%,d", MAX_CHANNELS) + ", and it has "
                    + String.format(java.util.Locale.ROOT, "%,d", w.keyspace().count()));
        }
        Map<String, List<byte[]>> byServer = channelsByServer(config, w, pool);
        boolean sharded = pool != null && pool.cluster() != null;
        int tag = ThreadLocalRandom.current().nextInt(1 << 16);
        PubSubRun run = new PubSubRun(index, new MessageLedger(config.threads(), tag),
                ClientLoop.create("fluxperf-subscribers", false), w.shape().subscribers());
        try {
            run.connect(config, pubSub, byServer, sharded);
            return run;
        } catch (RuntimeException e) {
            run.close();
            throw e;
        }
    }

    /** Each server's channels: the one server's, or by the pool's placement of each channel as a publish's key. */
    private static Map<String, List<byte[]>> channelsByServer(RunConfig config, WorkloadConfig w, ServerPool pool) {
        Map<String, List<byte[]>> out = new LinkedHashMap<>();
        PoolRouter router = pool != null ? pool.newRouter() : null;
        Request r = new Request();
        long first = w.shape().keyOffset();
        for (long k = 0; k < w.keyspace().count(); k++) {
            r.reset().command(Command.PUBLISH, 0).addKey(first + k, w.keyspace().keyLength());
            byte[] channel = Arrays.copyOfRange(r.keyBytes(), r.keyOffset(0), r.keyOffset(0) + r.keyLength(0));
            String server = config.server();
            if (router != null) {
                int m = router.place(r);
                PoolMember member = pool.members().get(m < 0 ? 0 : m);
                server = member.name();
            }
            out.computeIfAbsent(server, s -> new ArrayList<>()).add(channel);
        }
        return out;
    }

    private void connect(RunConfig config, PubSubProtocol pubSub, Map<String, List<byte[]>> byServer, boolean sharded) {
        List<CompletableFuture<Void>> pending = new ArrayList<>();
        for (Map.Entry<String, List<byte[]>> e : byServer.entrySet()) {
            SocketAddress address = ServerAddress.parse(e.getKey(), "--server");
            for (int s = 0; s < subscribers.size(); s++) {
                SubscriberConnection c = new SubscriberConnection(pubSub.subscriberCodec(config.protocolOptions(), sharded),
                        e.getValue(), subscribers.get(s), e.getKey());
                connections.get(s).add(c);
                Class<? extends Channel> type = address instanceof DomainSocketAddress ? loop.domainSocketChannel()
                        : loop.socketChannel();
                CompletableFuture<Void> done = new CompletableFuture<>();
                new Bootstrap().group(loop.loop()).channel(type).option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 5_000)
                        .handler(c).connect(address).addListener(f -> {
                            if (f.isSuccess()) {
                                c.confirmation().whenComplete((v, err) -> {
                                    if (err != null) {
                                        done.completeExceptionally(err);
                                    } else {
                                        done.complete(null);
                                    }
                                });
                            } else {
                                done.completeExceptionally(f.cause());
                            }
                        });
                int number = s + 1;
                pending.add(done.exceptionally(err -> {
                    throw new UserError("--subscribers: subscriber " + number + " could not subscribe at " + c.server()
                            + ": " + Failures.describe(err instanceof java.util.concurrent.CompletionException
                            && err.getCause() != null ? err.getCause() : err));
                }));
            }
        }
        await(CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)), SUBSCRIBE_TIMEOUT,
                "--subscribers: the subscriptions were not confirmed within " + SUBSCRIBE_TIMEOUT.toSeconds() + " s");
    }

    @Override
    public RequestSource source(RequestSource source) {
        return new StampedSource(source, ledger, workload);
    }

    @Override
    public void measuring(long startNanos) {
        onLoop(() -> {
            subscribers.forEach(Deliveries::measuring);
            return null;
        });
    }

    /** Waits until every subscriber has every message of an ok publish, or {@code deadlineNanos}. */
    @Override
    public void loadEnded(long deadlineNanos) {
        BitSet accepted = ledger.accepted();
        while (System.nanoTime() < deadlineNanos) {
            boolean all = onLoop(() -> subscribers.stream().allMatch(d -> {
                BitSet missing = (BitSet) accepted.clone();
                missing.andNot(d.received());
                return missing.isEmpty();
            }));
            if (all) {
                return;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(DRAIN_CHECK_NANOS);
        }
    }

    @Override
    public WindowResult window(WindowResult w) {
        List<Deliveries.Window> taken = onLoop(() -> {
            List<Deliveries.Window> out = new ArrayList<>();
            for (int i = 0; i < subscribers.size(); i++) {
                out.add(subscribers.get(i).swap(spares.get(i)));
            }
            return out;
        });
        List<MessageFigures.Subscriber> figures = new ArrayList<>();
        for (int i = 0; i < taken.size(); i++) {
            Deliveries.Window t = taken.get(i);
            figures.add(new MessageFigures.Subscriber(i + 1, t.delivered, t.duplicated, 0, 0, LatencySummary.of(t.latency)));
            runLatency.get(i).add(t.latency);
            runDuplicated[i] += t.duplicated;
            t.reset();
            spares.set(i, t);
        }
        long published = w.workloads().get(workload).outcomes().ok();
        return w.withMessages(new MessageFigures(published, figures, false));
    }

    /** The whole run: every subscriber's messages reconciled, one by one, with the publishes that ended ok. */
    @Override
    public WindowResult run(WindowResult total) {
        BitSet accepted = ledger.accepted();
        BitSet warm = ledger.acceptedInWarmup();
        List<BitSet> received = onLoop(() -> subscribers.stream().map(Deliveries::received).toList());
        List<MessageFigures.Subscriber> figures = new ArrayList<>();
        for (int i = 0; i < received.size(); i++) {
            BitSet delivered = (BitSet) accepted.clone();
            delivered.and(received.get(i));
            BitSet unconfirmed = (BitSet) received.get(i).clone();
            unconfirmed.andNot(accepted);
            unconfirmed.andNot(warm);
            int d = delivered.cardinality();
            figures.add(new MessageFigures.Subscriber(i + 1, d, runDuplicated[i], accepted.cardinality() - d,
                    unconfirmed.cardinality(), LatencySummary.of(runLatency.get(i))));
        }
        return total.withMessages(new MessageFigures(accepted.cardinality(), figures, true));
    }

    /** Pauses (or resumes) the reading of subscriber {@code number} (from 1), on every server: a test's lagging subscriber. */
    public void pauseReading(int number, boolean paused) {
        connections.get(number - 1).forEach(c -> c.pauseReading(paused));
    }

    /** How many subscribers. */
    public int count() {
        return subscribers.size();
    }

    /** The subscriber connections that ended before the run did, and why: "subscriber 2 at HOST:PORT: …". */
    public List<String> lostConnections() {
        List<String> out = new ArrayList<>();
        for (int s = 0; s < connections.size(); s++) {
            for (SubscriberConnection c : connections.get(s)) {
                if (c.lost() != null) {
                    out.add("subscriber " + (s + 1) + " at " + c.server() + ": " + c.lost());
                }
            }
        }
        return out;
    }

    @Override
    public void close() {
        connections.forEach(list -> list.forEach(SubscriberConnection::close));
        loop.dispose(Duration.ofSeconds(5));
    }

    private <T> T onLoop(Supplier<T> task) {
        CompletableFuture<T> f = new CompletableFuture<>();
        loop.loop().execute(() -> {
            try {
                f.complete(task.get());
            } catch (RuntimeException e) {
                f.completeExceptionally(e);
            }
        });
        return await(f, Duration.ofSeconds(30), "the subscribers' loop did not answer within 30 s");
    }

    private static <T> T await(CompletableFuture<T> f, Duration timeout, String whyNot) {
        try {
            return f.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new UserError(whyNot);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UserError u) {
                throw u;
            }
            if (e.getCause() instanceof java.util.concurrent.CompletionException c && c.getCause() instanceof UserError u) {
                throw u;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError("interrupted while waiting for the subscribers");
        }
    }
}
