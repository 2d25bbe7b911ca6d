package io.fluxperf.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Jackson's parse errors in words: the place and one clause, none of the parser's own vocabulary. */
class ParseErrorsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"format\": 3\\n| line 2, column 1: unexpected end of input",
            "{\"format\": 3, \"x| line 1, column 17: unexpected end of input in a field name",
            "{\"format\": \"abc| line 1, column 16: unexpected end of input in a string",
            "{\"format\": x}| line 1, column 12: unrecognized token 'x': expected a value",
            "{\"format\": ]}| line 1, column 12: unexpected character ']': expected a value",
            "{,}| line 1, column 2: unexpected character ',': was expecting double-quote to start field name",
    })
    void aSentenceWithItsPlace(String text, String expected) {
        JacksonException e = assertThrows(JacksonException.class, () -> JSON.readTree(text.replace("\\n", "\n")));
        String d = ParseErrors.describe(e);
        assertEquals(expected, d);
        assertFalse(d.contains("Source") || d.contains("Feature") || d.contains("code "), d);
    }
}
