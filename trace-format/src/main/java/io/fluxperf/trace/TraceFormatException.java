package io.fluxperf.trace;

/**
 * A trace directory that cannot be written or read as a fluxperf trace: it does not exist, is no
 * trace, was written by an unknown format version, holds no records, or a record is damaged.
 * The message is one sentence that names the directory (and the record, where there is one) and
 * says what is wrong; the command line shows it as it is and exits with status 2.
 */
public class TraceFormatException extends RuntimeException {

    public TraceFormatException(String message) {
        super(message);
    }

    public TraceFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
