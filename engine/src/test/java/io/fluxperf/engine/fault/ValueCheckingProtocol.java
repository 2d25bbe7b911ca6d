package io.fluxperf.engine.fault;

import io.fluxperf.engine.load.LoadRun;
import io.fluxperf.engine.protocol.CodecFactory;
import io.fluxperf.engine.protocol.Protocol;
import io.fluxperf.engine.protocol.ProtocolException;
import io.fluxperf.engine.protocol.ProtocolOptions;
import io.fluxperf.engine.request.Outcome;
import io.fluxperf.engine.request.Request;
import io.fluxperf.engine.workload.ValuePattern;
import io.fluxperf.testkit.ForwardingCodec;
import io.fluxperf.testkit.ForwardingProtocol;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A look over the engine's shoulder: wraps a run's protocol so that every reply the engine's own
 * decoder takes as an OK read is checked against the values the run wrote (the value of key k is a
 * slice of the run's {@link ValuePattern} from k mod 251). It only observes: outcomes are the
 * engine's. Each OK read is one of: its own key's value, another key's value (a reply attributed to
 * the wrong request), or neither (corrupted bytes taken as a hit).
 *
 * <p>A run uses it when it is handed to {@link LoadRun#LoadRun(io.fluxperf.engine.config.RunConfig, Protocol,
 * io.fluxperf.engine.load.RunListener)}.
 */
final class ValueCheckingProtocol extends ForwardingProtocol {
    final AtomicLong okReads = new AtomicLong();
    final AtomicLong ownValue = new AtomicLong();
    final AtomicLong otherKeysValue = new AtomicLong();
    final AtomicLong corruptValue = new AtomicLong();
    final Queue<String> examples = new ConcurrentLinkedQueue<>();
    private final ValuePattern pattern;

    ValueCheckingProtocol(Protocol inner, ValuePattern pattern) {
        super(inner);
        this.pattern = pattern;
    }

    String summary() {
        return "OK reads " + okReads + ": own value " + ownValue + ", another key's value " + otherKeysValue
                + ", corrupted value " + corruptValue + "; examples " + examples;
    }

    @Override
    public CodecFactory codecs(ProtocolOptions options, String server) {
        CodecFactory codecs = inner.codecs(options, server);
        return () -> new ForwardingCodec(codecs.newCodec()) {
            @Override
            public int decode(ByteBuf in, Request request) throws ProtocolException {
                int start = in.readerIndex();
                int result = super.decode(in, request);
                if (result == Outcome.OK.ordinal() && request.command().isRead()) {
                    check(in, start, in.readerIndex(), request);
                }
                return result;
            }
        };
    }

    /** Classifies the values of one OK get reply, [from, end): "VALUE key flags bytes[ cas]\r\n" data "\r\n" … "END\r\n". */
    private void check(ByteBuf in, int from, int end, Request r) {
        okReads.incrementAndGet();
        int pos = from;
        String verdict = "own";
        while (pos < end) {
            int lf = in.indexOf(pos, end, (byte) '\n');
            String line = in.toString(pos, lf - 1 - pos, StandardCharsets.ISO_8859_1);
            if (line.equals("END")) {
                break;
            }
            String[] words = line.split(" ");
            String key = words[1];
            int length = Integer.parseInt(words[3]);
            int data = lf + 1;
            String v = classify(key, in, data, length);
            if (!v.equals("own")) {
                if (examples.size() < 5) {
                    examples.add(v + " for " + key + " in a reply to " + r + ": '"
                            + in.toString(data, Math.min(length, 40), StandardCharsets.ISO_8859_1) + "'");
                }
                if (verdict.equals("own") || v.equals("other")) {
                    verdict = v;
                }
            }
            pos = data + length + 2;
        }
        (switch (verdict) {
            case "own" -> ownValue;
            case "other" -> otherKeysValue;
            default -> corruptValue;
        }).incrementAndGet();
    }

    private String classify(String key, ByteBuf in, int data, int length) {
        long index = Long.parseLong(key);
        if (matches(pattern.offset(index), in, data, length)) {
            return "own";
        }
        for (int offset = 0; offset < 251; offset++) {
            if (matches(offset, in, data, length)) {
                return "other";
            }
        }
        return "corrupt";
    }

    private boolean matches(int offset, ByteBuf in, int data, int length) {
        byte[] expected = pattern.array();
        if (offset + length > expected.length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (in.getByte(data + i) != expected[offset + i]) {
                return false;
            }
        }
        return true;
    }
}
