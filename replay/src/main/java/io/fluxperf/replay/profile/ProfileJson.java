package io.fluxperf.replay.profile;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A profile as JSON ({@code profile --json FILE}): the paper's columns under the names the issue
 * gives them, {@code operations} as {verb: share}, {@code keySize} and {@code valueSize} as
 * {mean, p50, p99, max}, {@code ttl} as {seconds: share}; shares from 0 to 1.
 */
public final class ProfileJson {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ProfileJson() {
    }

    public static String of(LogProfile p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("log", p.log());
        m.put("format", p.format());
        m.put("compression", p.compression().isEmpty() ? null : p.compression());
        m.put("protocol", p.protocol());
        m.put("requests", p.requests());
        m.put("seconds", p.seconds());
        m.put("rate", p.rate());
        if (p.peakSecond() == null) {
            m.put("peakSecond", null);
        } else {
            Map<String, Object> peak = new LinkedHashMap<>();
            peak.put("second", p.peakSecond().second());
            peak.put("requests", p.peakSecond().requests());
            m.put("peakSecond", peak);
        }
        m.put("clients", p.clients());
        m.put("keys", p.keys());
        m.put("operations", p.operations());
        m.put("keySize", sizes(p.keySize()));
        m.put("valueSize", sizes(p.valueSize()));
        m.put("zipfAlpha", p.zipfAlpha());
        m.put("oneHitWonderRatio", p.oneHitWonderRatio());
        Map<String, Double> ttl = new LinkedHashMap<>();
        p.ttl().forEach((s, share) -> ttl.put(Long.toString(s), share));
        m.put("ttl", ttl);
        m.put("workingSetBytes", p.workingSetBytes());
        m.put("hitRate", p.hitRate());
        m.put("lines", p.lines());
        m.put("badLines", p.badLines());
        m.put("firstBadLines", p.firstBadLines());
        m.put("notes", p.notes());
        try {
            return JSON.writeValueAsString(m) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, Object> sizes(SizeSummary s) {
        if (s == null) {
            return null;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("mean", s.mean());
        m.put("p50", s.p50());
        m.put("p99", s.p99());
        m.put("max", s.max());
        return m;
    }
}
