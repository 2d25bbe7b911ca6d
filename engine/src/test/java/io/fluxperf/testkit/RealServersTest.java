package io.fluxperf.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The extension that gives tests their servers: each declaration a live server of its own on a
 * free 127.0.0.1 port, kept for its scope and stopped after it. The tests run in order, so that a
 * later one can see what became of an earlier one's servers.
 */
@ExtendWith(RealServers.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RealServersTest {
    @RealServer
    static RedisProcess forTheClass;
    @RealServer
    MemcachedProcess forEachTest;

    private static RedisProcess fromBeforeAll;
    private static RedisProcess classServerSeenFirst;
    private static MemcachedProcess firstTestsParameter;
    private static MemcachedProcess firstTestsField;

    @BeforeAll
    static void takeOneForTheClass(RedisProcess redis) {
        assertNotNull(forTheClass, "static fields are filled before the @BeforeAll methods");
        assertNotEquals(forTheClass.port(), redis.port(), "a parameter is a server of its own");
        fromBeforeAll = redis;
    }

    @Test
    @Order(1)
    void aParameterIsALiveServerOnALoopbackPort(MemcachedProcess memcached) {
        assertTrue(memcached.isAlive());
        assertEquals("127.0.0.1:" + memcached.port(), memcached.address());
        assertEquals(List.of("STORED"), memcached.command("set k 0 0 1\r\nv"));
        assertEquals(1L, memcached.stats().get("cmd_set"), "a fresh memcached");
        assertTrue(forEachTest.isAlive(), "an instance field is filled before the test");
        assertNotEquals(memcached.port(), forEachTest.port(), "the field and the parameter are two servers");
        firstTestsParameter = memcached;
        firstTestsField = forEachTest;
        classServerSeenFirst = forTheClass;
    }

    @Test
    @Order(2)
    void theLastTestsServersAreStoppedAndTheClasssAreKept(MemcachedProcess memcached) {
        assertFalse(firstTestsParameter.isAlive(), "the last test's parameter was stopped after it");
        assertFalse(firstTestsField.isAlive(), "the last test's instance field was stopped after it");
        assertNotEquals(firstTestsField.port(), forEachTest.port(), "this test has a new one");
        assertEquals(0L, memcached.stats().get("cmd_set"), "a new memcached, not the last test's");
        assertSame(classServerSeenFirst, forTheClass, "the static field keeps its server for the class");
        assertTrue(forTheClass.isAlive() && fromBeforeAll.isAlive(), "the class's servers live until after all");
    }

    @Test
    @Order(3)
    void twoParametersOfOneTypeAreTwoServers(MemcachedProcess a, MemcachedProcess b) {
        assertNotEquals(a.port(), b.port());
        a.command("set only-a 0 0 1\r\nv");
        assertNull(b.get("only-a"), "each has its own store");
    }

    @Test
    @Order(4)
    void everyKindIsThere(RedisProcess redis, NginxProcess nginx) {
        assertEquals(new RedisProcess.Simple("PONG"), redis.command("PING"));
        assertTrue(nginx.get("/small.txt").startsWith("HTTP/1.1 200 OK"), "nginx serves its file");
    }

    @AfterAll
    static void theClasssServersLiveThroughAfterAll() {
        assertTrue(forTheClass.isAlive() && fromBeforeAll.isAlive());
    }

    /** A PER_CLASS instance lives as long as its class, and so do the servers in its fields and its enclosing instance's. */
    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    class ForAPerClassInstance {
        @RealServer
        NginxProcess shared;
        private NginxProcess seenFirst;
        private MemcachedProcess enclosingSeenFirst;

        @Test
        @Order(1)
        void theFieldsAreFilled() {
            assertTrue(shared.isAlive() && forEachTest.isAlive());
            seenFirst = shared;
            enclosingSeenFirst = forEachTest;
        }

        @Test
        @Order(2)
        void andKeptForTheNextTest() {
            assertSame(seenFirst, shared);
            assertSame(enclosingSeenFirst, forEachTest, "the enclosing instance is this class's too");
            assertTrue(shared.isAlive() && forEachTest.isAlive());
        }
    }
}
