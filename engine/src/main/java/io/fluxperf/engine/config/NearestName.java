package io.fluxperf.engine.config;

import java.util.Collection;
import java.util.Locale;

/**
 * The name a user probably meant: for "did you mean ...?" after a config key or a command that
 * does not exist. Within edit distance 2 (1 for words of up to 4 letters, where 2 would suggest
 * almost anything), ignoring case and {@code _} for {@code -}.
 */
public final class NearestName {
    private NearestName() {
    }

    /** The nearest of {@code names} to {@code word}, or null when none is near enough. */
    public static String among(String word, Collection<String> names) {
        String norm = word.toLowerCase(Locale.ROOT).replace('_', '-');
        String best = null;
        int bestDistance = norm.length() <= 4 ? 2 : 3;
        for (String a : names) {
            int d = a.equals(norm) ? 0 : distance(norm, a);
            if (d < bestDistance) {
                best = a;
                bestDistance = d;
            }
        }
        return best;
    }

    /** Levenshtein distance: insertions, deletions and substitutions of one character. */
    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
