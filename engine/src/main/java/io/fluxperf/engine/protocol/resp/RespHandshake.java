package io.fluxperf.engine.protocol.resp;

import io.fluxperf.engine.protocol.HandshakeRefused;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import static io.fluxperf.engine.protocol.resp.RespCommands.bytes;
import static io.fluxperf.engine.protocol.resp.RespEncoding.arrayHeader;
import static io.fluxperf.engine.protocol.resp.RespEncoding.bulk;
import static io.fluxperf.engine.protocol.resp.RespEncoding.bulkLong;

/**
 * What a connection sends before any load, and what its refusal means to the user:
 * {@code HELLO 3 [AUTH user password]} for RESP3, else {@code AUTH [user] password} when a
 * password is set; then {@code SELECT db} when a database is set; then, on a cluster replica that
 * serves reads, {@code READONLY}. They are pipelined, and the first refusal ends the run with one
 * sentence naming the flag to fix ({@link HandshakeRefused}).
 *
 * <p>One per connection; {@link RespCodec} frames the replies into {@link #replySink()} and calls
 * {@link #replyRead()} after each.
 */
final class RespHandshake {
    private static final byte[] HELLO_3 = bytes("$5\r\nHELLO\r\n$1\r\n3\r\n");
    private static final byte[] AUTH = bytes("$4\r\nAUTH\r\n");
    private static final byte[] SELECT = bytes("$6\r\nSELECT\r\n");
    private static final byte[] DEFAULT_USER = bytes("default");
    private static final byte[] READONLY = bytes("*1\r\n$8\r\nREADONLY\r\n");

    private static final int STEP_HELLO = 1;
    private static final int STEP_AUTH = 2;
    private static final int STEP_SELECT = 3;
    private static final int STEP_READONLY = 4;

    private final RespOptions options;
    /** A cluster replica that serves reads: READONLY last. */
    private final boolean readOnlyReplica;
    private final RespErrorReply reply = new RespErrorReply();
    /** Commands sent, in order, and how many of their replies have been read. */
    private final int[] steps = new int[3];
    private int stepCount;
    private int stepsDone;

    /** @param readOnlyReplica the connection is to a cluster replica this run reads from */
    RespHandshake(RespOptions options, boolean readOnlyReplica) {
        this.options = options;
        this.readOnlyReplica = readOnlyReplica;
    }

    /** Whether {@link #write} writes anything. */
    boolean any() {
        return options.hasHandshake() || readOnlyReplica;
    }

    /** Writes the handshake's commands; false when there are none. */
    boolean write(ByteBuf out) {
        stepCount = 0;
        stepsDone = 0;
        String password = options.password();
        byte[] user = options.user() != null ? options.user().getBytes(StandardCharsets.UTF_8) : null;
        byte[] pass = password != null ? password.getBytes(StandardCharsets.UTF_8) : null;
        if (options.respVersion() == 3) {
            arrayHeader(out, pass != null ? 5 : 2);
            out.writeBytes(HELLO_3);
            if (pass != null) {
                out.writeBytes(AUTH);
                bulk(out, user != null ? user : DEFAULT_USER);
                bulk(out, pass);
            }
            steps[stepCount++] = STEP_HELLO;
        } else if (pass != null) {
            arrayHeader(out, user != null ? 3 : 2);
            out.writeBytes(AUTH);
            if (user != null) {
                bulk(out, user);
            }
            bulk(out, pass);
            steps[stepCount++] = STEP_AUTH;
        }
        if (options.database() >= 0) {
            arrayHeader(out, 2);
            out.writeBytes(SELECT);
            bulkLong(out, options.database());
            steps[stepCount++] = STEP_SELECT;
        }
        if (readOnlyReplica) {
            out.writeBytes(READONLY);
            steps[stepCount++] = STEP_READONLY;
        }
        return stepCount > 0;
    }

    /** Whether a reply is still to be read. */
    boolean pending() {
        return stepsDone < stepCount;
    }

    /** Where the next reply goes. */
    RespSink replySink() {
        return reply;
    }

    /** The next reply has been read into {@link #replySink()}: a refusal ends the handshake. */
    void replyRead() throws HandshakeRefused {
        int step = steps[stepsDone++];
        String error = reply.take();
        if (error != null) {
            throw new HandshakeRefused(refusal(step, error));
        }
    }

    /** One sentence that names the flag to fix and quotes the server. */
    private String refusal(int step, String error) {
        String said = io.fluxperf.engine.Printable.quote(error.endsWith(".") ? error : error + ".");
        boolean authProblem = error.startsWith("WRONGPASS") || error.startsWith("NOAUTH") || error.startsWith("NOPERM")
                || error.contains("AUTH");
        String passwordFlag = options.user() != null ? "--user/--password" : "--password";
        if (options.password() == null && error.startsWith("NOAUTH")) {
            return "--password: redis requires a password (it answered " + verb(step) + " with: " + said + ")";
        }
        if (error.contains("without any password configured")) {
            return passwordFlag + ": redis has no password configured, so it refused AUTH; leave out " + passwordFlag + ".";
        }
        return switch (step) {
            case STEP_READONLY -> "--read-from replica: a replica refused READONLY: " + said;
            case STEP_AUTH -> passwordFlag + ": redis refused AUTH: " + said;
            case STEP_HELLO -> authProblem
                    ? passwordFlag + ": redis refused HELLO 3 AUTH: " + said
                    : "--resp 3: redis refused HELLO 3 (a server before redis 6 speaks only RESP2): " + said;
            default -> "--db " + options.database() + ": redis refused SELECT " + options.database() + ": " + said;
        };
    }

    private static String verb(int step) {
        return switch (step) {
            case STEP_HELLO -> "HELLO";
            case STEP_AUTH -> "AUTH";
            case STEP_READONLY -> "READONLY";
            default -> "SELECT";
        };
    }
}
