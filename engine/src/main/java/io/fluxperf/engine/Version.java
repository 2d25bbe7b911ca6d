package io.fluxperf.engine;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** fluxperf's version, as the build wrote it. */
public final class Version {
    private static final Properties PROPERTIES = load();
    private static final String VALUE = PROPERTIES.getProperty("version", "unknown");

    private Version() {
    }

    public static String get() {
        return VALUE;
    }

    /**
     * The git commit the build was made from ({@code mvn package -Dfluxperf.commit=$(git rev-parse HEAD)}),
     * or "unknown" when the build was not told.
     */
    public static String commit() {
        String c = PROPERTIES.getProperty("commit", "unknown");
        return c.isBlank() || c.startsWith("${") ? "unknown" : c;
    }

    private static Properties load() {
        Properties p = new Properties();
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            // the version stays unknown
        }
        return p;
    }
}
