package io.fluxperf.engine;

/**
 * A mistake the user can fix: a bad flag, config line, log line, trace file or server address.
 * The message is one clear sentence that names the place (flag, file:line, byte offset);
 * the command line prints it without a stack trace and exits with {@link #EXIT_CODE}.
 */
public final class UserError extends RuntimeException {
    public static final int EXIT_CODE = 2;

    public UserError(String message) {
        super(message, null, false, false);
    }

    public UserError(String message, Throwable cause) {
        super(message, cause, false, false);
    }
}
