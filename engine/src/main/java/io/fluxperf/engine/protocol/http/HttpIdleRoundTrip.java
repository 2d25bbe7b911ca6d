package io.fluxperf.engine.protocol.http;

import io.fluxperf.engine.config.WorkloadConfig;
import io.fluxperf.engine.protocol.IdleRoundTrip;
import io.fluxperf.engine.protocol.ProtocolException;
import io.fluxperf.engine.protocol.UnexpectedReply;
import io.fluxperf.engine.request.Command;
import io.fluxperf.engine.request.CommandTemplate;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * HTTP's no-op for the latency floor: a GET of the run's path (its first GET workload's, else its
 * first workload's; each placeholder as {@code 0}; {@code /} without a template) with the run's
 * headers, read to the end of the response by the codec's own {@link HttpResponseDecoder}. A
 * status of 400 or more is the server's error, no round trip to time: the floor is then not measured.
 */
final class HttpIdleRoundTrip implements IdleRoundTrip {
    private final byte[] request;
    private final String path;
    private final HttpResponseDecoder decoder = new HttpResponseDecoder();

    HttpIdleRoundTrip(HttpRequestHead head, List<WorkloadConfig> workloads) {
        this.path = path(workloads);
        byte[] line = ("GET " + path).getBytes(StandardCharsets.ISO_8859_1);
        byte[] after = head.afterPath();
        request = new byte[line.length + after.length + 2];
        System.arraycopy(line, 0, request, 0, line.length);
        System.arraycopy(after, 0, request, line.length, after.length);
        request[request.length - 2] = '\r';
        request[request.length - 1] = '\n';
    }

    static String path(List<WorkloadConfig> workloads) {
        WorkloadConfig chosen = workloads.stream().filter(w -> w.method() == Command.GET).findFirst()
                .orElse(workloads.isEmpty() ? null : workloads.get(0));
        CommandTemplate t = chosen == null ? null : chosen.template();
        if (t == null || t.words().isEmpty()) {
            return "/";
        }
        StringBuilder b = new StringBuilder();
        for (CommandTemplate.Part p : t.words().get(0)) {
            b.append(p instanceof CommandTemplate.Literal l ? new String(l.bytes(), StandardCharsets.ISO_8859_1) : "0");
        }
        return b.length() == 0 ? "/" : b.toString();
    }

    @Override
    public String describe() {
        return "GET " + path;
    }

    @Override
    public byte[] request() {
        return request.clone();
    }

    @Override
    public boolean replied(ByteBuf in) throws ProtocolException {
        int status = decoder.decode(in);
        if (status >= 400) {
            throw new ProtocolException("the server answered " + describe() + " with status " + status);
        }
        return status != HttpResponseDecoder.NEED_MORE;
    }

    private static final byte[] HTTP1 = "HTTP/1.".getBytes(StandardCharsets.US_ASCII);

    /** Whether {@code start} begins with an HTTP/1.x status line. */
    static boolean isStatusLine(byte[] start) {
        return UnexpectedReply.startsWith(start, HTTP1);
    }
}
