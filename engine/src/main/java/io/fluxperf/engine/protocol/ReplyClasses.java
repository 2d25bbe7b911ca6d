package io.fluxperf.engine.protocol;

import java.util.List;

/**
 * The classes a protocol's replies fall into, for the report's per-class counts (HTTP: 1xx to
 * 5xx). A codec reports the class of each reply it decodes ({@link ProtocolCodec#replyClass()})
 * as an index from 1; the report prints {@link #label} of each class that occurred.
 */
public final class ReplyClasses {
    /** For protocols whose replies have no classes. */
    public static final ReplyClasses NONE = new ReplyClasses("Classes", List.of());
    /** The most classes a protocol may have: counters are kept per class on the hot path. */
    public static final int MAX = 8;

    private final String title;
    private final List<String> labels;

    private ReplyClasses(String title, List<String> labels) {
        if (labels.size() > MAX) {
            throw new IllegalArgumentException("at most " + MAX + " reply classes, not " + labels.size());
        }
        this.title = title;
        this.labels = List.copyOf(labels);
    }

    /**
     * Classes labelled in order: the first label is class 1.
     *
     * @param title what the report's line of counts starts with, e.g. {@code Status}
     */
    public static ReplyClasses of(String title, String... labels) {
        return new ReplyClasses(title, List.of(labels));
    }

    /** What the report's line of counts starts with. */
    public String title() {
        return title;
    }

    /** How many classes there are; class indexes run from 1 to this. */
    public int count() {
        return labels.size();
    }

    /** The label of class {@code c} (1-based), e.g. {@code 2xx}. */
    public String label(int c) {
        return labels.get(c - 1);
    }
}
