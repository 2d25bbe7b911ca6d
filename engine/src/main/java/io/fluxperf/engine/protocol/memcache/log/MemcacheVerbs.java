package io.fluxperf.engine.protocol.memcache.log;

import io.fluxperf.engine.request.Command;

/** The memcache text protocol's data commands by their verb, for the readers of memcache logs. */
final class MemcacheVerbs {
    private MemcacheVerbs() {
    }

    /** The command {@code verb} names, or null for a verb that is not a data command. */
    static Command command(String verb) {
        return switch (verb) {
            case "get" -> Command.GET;
            case "gets" -> Command.GETS;
            case "set" -> Command.SET;
            case "add" -> Command.ADD;
            case "replace" -> Command.REPLACE;
            case "append" -> Command.APPEND;
            case "prepend" -> Command.PREPEND;
            case "cas" -> Command.CAS;
            case "delete" -> Command.DELETE;
            case "incr" -> Command.INCR;
            case "decr" -> Command.DECR;
            case "touch" -> Command.TOUCH;
            case "flush_all" -> Command.FLUSH;
            default -> null;
        };
    }
}
