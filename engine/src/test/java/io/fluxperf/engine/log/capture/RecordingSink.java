package io.fluxperf.engine.log.capture;

import io.fluxperf.engine.log.BadLines;
import io.fluxperf.engine.log.LogEntry;
import io.fluxperf.engine.log.LogStats;
import io.fluxperf.engine.log.ReaderContext;
import io.fluxperf.engine.log.VerbTable;
import io.fluxperf.engine.protocol.Protocols;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link CommandSink} for tests of the protocols' connection readers: it keeps every command
 * (as text), what was skipped, cut and lost, and each command's settled reply; and it feeds a
 * reader a byte stream split into segments wherever a test says.
 */
public final class RecordingSink implements CommandSink {
    /** A command as a test reads it: verb, command, keys, arguments, value, the reply it was settled with. */
    public record Command(String verb, io.fluxperf.engine.request.Command command, List<String> keys, List<String> args,
                          String value, int ttl, long numeric, long handle) {
    }

    public final ReaderContext ctx;
    public final List<Command> commands = new ArrayList<>();
    public final List<String> events = new ArrayList<>();
    public final Map<Long, Byte> replies = new LinkedHashMap<>();
    private LogEntry begun;
    private long next;
    public long pickedUpAfter = -1;
    public String lost;
    public boolean repliesLost;
    public int unreadAnswered;

    public RecordingSink(String protocol, String keyPrefix, boolean allowFlush) {
        ctx = context(protocol, keyPrefix, allowFlush);
    }

    public static ReaderContext context(String protocol, String keyPrefix, boolean allowFlush) {
        return new ReaderContext("test.pcap", new BadLines(false), new VerbTable(), new LogStats(),
                keyPrefix == null ? null : keyPrefix.getBytes(StandardCharsets.UTF_8), allowFlush, protocol,
                c -> Protocols.find(protocol).supports(c));
    }

    @Override
    public LogEntry begin() {
        if (begun != null) {
            events.add("begun again without an end");
        }
        begun = new LogEntry().reset();
        return begun;
    }

    @Override
    public void abandon() {
        begun = null;
        if (!quietAbandon) {
            events.add("abandon");
        }
    }

    /** Abandoned starts are not events (a stream's empty commands, which real readers abandon). */
    public boolean quietAbandon;

    @Override
    public long complete() {
        LogEntry e = begun;
        begun = null;
        long h = next++;
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < e.keyCount; i++) {
            keys.add(new String(e.keys, e.keyStart(i), e.keyLength(i), StandardCharsets.ISO_8859_1));
        }
        List<String> args = new ArrayList<>();
        for (int i = 0; i < e.argCount; i++) {
            args.add(new String(e.args, e.argStart(i), e.argLength(i), StandardCharsets.ISO_8859_1));
        }
        String value = e.valueLogged ? new String(e.value, 0, e.valueLength, StandardCharsets.ISO_8859_1) : null;
        commands.add(new Command(ctx.verbs.name(e.verb), e.command, keys, args, value, e.ttlSeconds, e.numeric, h));
        events.add("command " + ctx.verbs.name(e.verb));
        return h;
    }

    @Override
    public long skip(String reason) {
        begun = null;
        events.add("skip " + reason);
        return next++;
    }

    @Override
    public long cut() {
        begun = null;
        events.add("cut");
        return next++;
    }

    @Override
    public void settle(long handle, byte reply) {
        replies.putIfAbsent(handle, reply);
    }

    @Override
    public void requestsLost(String why) {
        begun = null;
        lost = why == null ? "gap" : why;
        events.add("lost " + lost);
    }

    @Override
    public void repliesLost() {
        repliesLost = true;
        events.add("replies lost");
    }

    @Override
    public void unreadCommandAnswered() {
        unreadAnswered++;
    }

    @Override
    public void pickedUp(long bytesBefore) {
        pickedUpAfter = bytesBefore;
        events.add("picked up after " + bytesBefore);
    }

    /** The reply settled for the i-th replayed command, or null. */
    public Byte reply(int i) {
        return replies.get(commands.get(i).handle());
    }

    /** The events other than replayed commands ("skip …", "cut", "lost …"). */
    public List<String> others() {
        return events.stream().filter(s -> !s.startsWith("command ")).toList();
    }

    /** Feeds {@code bytes} to the reader's client side as segments that start at {@code cuts} (ascending offsets). */
    public static void requests(ConnectionReader r, byte[] bytes, RecordingSink sink, int... cuts) {
        int from = 0;
        for (int c : cuts) {
            if (c > from && c < bytes.length) {
                r.request(bytes, from, c, sink);
                from = c;
            }
        }
        if (from < bytes.length) {
            r.request(bytes, from, bytes.length, sink);
        }
    }

    /** Feeds {@code bytes} to the reader's server side as segments that start at {@code cuts}. */
    public static void replies(ConnectionReader r, byte[] bytes, RecordingSink sink, int... cuts) {
        int from = 0;
        for (int c : cuts) {
            if (c > from && c < bytes.length) {
                r.reply(bytes, from, c, sink);
                from = c;
            }
        }
        if (from < bytes.length) {
            r.reply(bytes, from, bytes.length, sink);
        }
    }

    public static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}
