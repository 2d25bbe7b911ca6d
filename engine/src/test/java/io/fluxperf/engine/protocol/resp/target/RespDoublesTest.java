package io.fluxperf.engine.protocol.resp.target;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Scores and range ends read as redis reads them with strtod (the conformance tests compare the
 * replies with redis-server's; this pins the values), from the middle of a larger array.
 */
class RespDoublesTest {
    private static double score(String s) {
        byte[] b = ("xx" + s + "yy").getBytes(StandardCharsets.ISO_8859_1);
        return RespDoubles.score(b, 2, 2 + s.length());
    }

    private static double rangeEnd(String s) {
        byte[] b = ("((" + s + ")").getBytes(StandardCharsets.ISO_8859_1);
        return RespDoubles.rangeEnd(b, 2, 2 + s.length());
    }

    @Test
    void scoresAreWholeNumbersInRange() {
        String[][] accepted = {{"1", "1"}, {"-2.5", "-2.5"}, {"+.5e+1", "5"}, {"1.", "1"}, {"00012", "12"}, {"1.5E3", "1500"},
            {"0x10", "16"}, {"0X1A", "26"}, {"0x1.8p1", "3"}, {"-0x.8", "-0.5"}, {"0x1P-2", "0.25"}, {"inf", "Infinity"},
            {"-Infinity", "-Infinity"}, {"+INF", "Infinity"}, {"4.9e-324", "4.9E-324"}, {"1e308", "1.0E308"}, {"0e-999", "0"}};
        for (String[] a : accepted) {
            assertEquals(Double.parseDouble(a[1]), score(a[0]), a[0]);
        }
        for (String refused : new String[] {"", " 1", "1 ", "\t1", "1e400", "-1e400", "1e-400", "0x1p-2000", "nan", "-NaN", "0x",
            "1e", "5e+", "e1", ".", "1d", "1f", "1_0", "infinit", "inf x", "1\0"}) {
            assertEquals(Double.NaN, score(refused), "'" + refused + "'");
        }
    }

    @Test
    void rangeEndsAllowBlanksBeforeAndNothingAtAll() {
        String[][] accepted = {{"", "0"}, {" 1", "1"}, {"\t-2", "-2"}, {"1e400", "Infinity"}, {"-1e400", "-Infinity"},
            {"1e-400", "0"}, {"infinity", "Infinity"}, {"0x10", "16"}, {"2\0junk", "2"}, {"\0", "0"}};
        for (String[] a : accepted) {
            assertEquals(Double.parseDouble(a[1]), rangeEnd(a[0]), "'" + a[0] + "'");
        }
        for (String refused : new String[] {" ", "1 ", "1d", "x", "(", "nan", "1 2"}) {
            assertEquals(Double.NaN, rangeEnd(refused), "'" + refused + "'");
        }
    }
}
