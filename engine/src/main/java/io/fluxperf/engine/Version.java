package io.fluxperf.engine;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** fluxperf's version, as the build wrote it. */
public final class Version {
    private static final String VALUE = load();

    private Version() {
    }

    public static String get() {
        return VALUE;
    }

    private static String load() {
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            Properties p = new Properties();
            if (in != null) {
                p.load(in);
            }
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
