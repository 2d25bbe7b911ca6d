package io.fluxperf.engine.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import org.junit.jupiter.api.Test;

class TomlStringsTest {
    @Test
    void everyCharacterReadsBackAsWritten() throws Exception {
        String raw = "a \"quoted\" back\\slash\ttab\nline\r\u0001\u007f é ✓";
        String quoted = TomlStrings.quote(raw);
        JsonNode read = new TomlMapper().readTree("k = " + quoted + "\n");
        assertEquals(raw, read.get("k").textValue());
    }

    @Test
    void plainTextIsOnlyQuoted() {
        assertEquals("\"127.0.0.1:11211\"", TomlStrings.quote("127.0.0.1:11211"));
    }
}
