package io.fluxperf.engine;

/** One ASCII hexadecimal digit, as HTTP chunk sizes, RESP inline escapes and logs' \xHH write them. */
public final class HexDigit {
    private HexDigit() {
    }

    /** The value of {@code b} as a hex digit (either case), or -1 if it is not one. */
    public static int value(byte b) {
        if (b >= '0' && b <= '9') {
            return b - '0';
        }
        int lower = b | 0x20;
        return lower >= 'a' && lower <= 'f' ? lower - 'a' + 10 : -1;
    }
}
