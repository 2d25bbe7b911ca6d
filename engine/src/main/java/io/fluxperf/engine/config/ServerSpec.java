package io.fluxperf.engine.config;

/**
 * One server of a list as the user wrote it: {@code HOST:PORT}, {@code [IPv6]:PORT} or
 * {@code unix:/path}, with an optional {@code :WEIGHT} after it ({@code 10.0.0.1:11211:2} takes
 * twice the keys of a server of weight 1 under ketama).
 *
 * @param address the server's address without the weight
 * @param weight  1 unless given
 */
public record ServerSpec(String address, int weight) {
    public static final int MAX_WEIGHT = 1_000_000;

    public ServerSpec {
        if (weight < 1 || weight > MAX_WEIGHT) {
            throw new IllegalArgumentException("weight must be between 1 and " + MAX_WEIGHT + ", not " + weight);
        }
    }

    /**
     * Splits {@code text} into its address and weight, and checks the address's shape. The text
     * after the last colon is a weight when what comes before it is a whole address by itself.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static ServerSpec parse(String text) {
        String t = text.trim();
        int colon = t.lastIndexOf(':');
        if (colon > 0 && colon < t.length() - 1 && t.substring(colon + 1).chars().allMatch(Character::isDigit)) {
            String before = t.substring(0, colon);
            if (isAddress(before)) {
                String digits = t.substring(colon + 1);
                if (digits.length() > 7 || Long.parseLong(digits) < 1 || Long.parseLong(digits) > MAX_WEIGHT) {
                    throw new IllegalArgumentException("the weight of '" + t + "' must be between 1 and " + MAX_WEIGHT
                            + ", not " + digits);
                }
                return new ServerSpec(Checks.server(before), Integer.parseInt(digits));
            }
        }
        return new ServerSpec(Checks.server(t), 1);
    }

    private static boolean isAddress(String text) {
        try {
            Checks.server(text);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The address that {@code specs} hold twice (the first found), or null. */
    static String duplicate(java.util.List<ServerSpec> specs) {
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (ServerSpec s : specs) {
            if (!seen.add(s.address())) {
                return s.address();
            }
        }
        return null;
    }

    /** As the user would write it: the address, and the weight when it is not 1. */
    @Override
    public String toString() {
        return weight == 1 ? address : address + ":" + weight;
    }
}
