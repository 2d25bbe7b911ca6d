package io.fluxperf.engine.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** An address printed as --server takes it, and read back. */
class ServerAddressTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "::1                  | [::1]:11211",
        "0:0:0:0:0:0:0:0      | [::]:11211",
        "2001:db8:0:0:1:0:0:1 | [2001:db8::1:0:0:1]:11211",
        "2001:db8:0:1:1:1:1:1 | [2001:db8:0:1:1:1:1:1]:11211",
        "fe80:0:0:0:0:0:0:1   | [fe80::1]:11211",
        "1:0:0:2:0:0:0:3      | [1:0:0:2::3]:11211",
        "127.0.0.1            | 127.0.0.1:11211",
    })
    void printedAsServerTakesIt(String ip, String expected) throws Exception {
        InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(ip), 11211);
        assertEquals(expected, ServerAddress.format(address));
        assertEquals(address, ServerAddress.parse(expected, "--server"));
    }
}
