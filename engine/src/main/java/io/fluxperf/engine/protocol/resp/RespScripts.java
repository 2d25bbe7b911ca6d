package io.fluxperf.engine.protocol.resp;

import io.netty.buffer.ByteBuf;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import static io.fluxperf.engine.protocol.resp.RespCommands.bytes;
import static io.fluxperf.engine.protocol.resp.RespEncoding.bulk;

/**
 * The scripts of one connection's EVALSHAs. EVALSHA names a script by its SHA-1, which redis
 * knows only once the script is loaded: the first EVALSHA of each script on a connection is
 * preceded by {@code SCRIPT LOAD s} in the same write, and that reply is read (and, when it is an
 * error, made the EVALSHA's outcome) before the EVALSHA's own. A connection loads each script
 * once; the digest is computed once per connection.
 *
 * <p>Requests are answered in the order they were written, so a count of those written and of
 * those answered tells which reply is a SCRIPT LOAD's. At most one entry per script: a run has a
 * handful.
 */
final class RespScripts {
    private static final byte[] SCRIPT_LOAD = bytes("*3\r\n$6\r\nSCRIPT\r\n$4\r\nLOAD\r\n");

    private final RespErrorReply loadReply = new RespErrorReply();
    /** Requests written on this connection. */
    private long sent;
    /** Requests whose own reply has been read. */
    private long received;
    private byte[][] bodies = new byte[0][];
    private byte[][] shas = new byte[0][];
    /** The numbers (in {@link #sent} order) of the requests written right after a SCRIPT LOAD. */
    private long[] loadsBefore = new long[0];
    private int nextLoad;
    private boolean loadRead;
    private boolean loadFailed;

    /** A request has been written (whatever its command). */
    void requestSent() {
        sent++;
    }

    /**
     * The SHA-1 that names {@code script}; the first time on this connection, writes its
     * {@code SCRIPT LOAD} first.
     */
    byte[] loadOnce(byte[] script, ByteBuf out) {
        for (int i = 0; i < bodies.length; i++) {
            if (bodies[i] == script) {
                return shas[i];
            }
        }
        int n = bodies.length;
        bodies = Arrays.copyOf(bodies, n + 1);
        shas = Arrays.copyOf(shas, n + 1);
        loadsBefore = Arrays.copyOf(loadsBefore, n + 1);
        bodies[n] = script;
        shas[n] = sha1Hex(script);
        loadsBefore[n] = sent;
        out.writeBytes(SCRIPT_LOAD);
        bulk(out, script);
        return shas[n];
    }

    /** The next reply is a SCRIPT LOAD's, not yet read. */
    boolean loadReplyDue() {
        return nextLoad < loadsBefore.length && loadsBefore[nextLoad] == received && !loadRead;
    }

    /** Where a SCRIPT LOAD's reply goes. */
    RespSink loadReplySink() {
        return loadReply;
    }

    /** The SCRIPT LOAD's reply has been read into {@link #loadReplySink()}. */
    void loadReplyRead() {
        loadRead = true;
        loadFailed = loadReply.takeFailed();
    }

    /** A request's own reply was read; returns whether the SCRIPT LOAD before it failed. */
    boolean received() {
        boolean failed = false;
        if (loadRead) {
            failed = loadFailed;
            loadRead = false;
            loadFailed = false;
            nextLoad++;
        }
        received++;
        return failed;
    }

    private static byte[] sha1Hex(byte[] script) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-1").digest(script);
            StringBuilder hex = new StringBuilder(40);
            for (byte b : d) {
                hex.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
            }
            return bytes(hex.toString());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is missing from this Java", e);
        }
    }
}
