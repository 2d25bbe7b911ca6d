package io.fluxperf.cli;

import io.fluxperf.engine.config.NearestName;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * A mistyped subcommand ({@code fluxperf runn}, {@code fluxperf trace frob DIR}) in words: the
 * parser itself calls it an unmatched argument at an index, which says nothing of what to do.
 */
final class UnknownCommand {
    private UnknownCommand() {
    }

    /**
     * "unknown command 'runn'; did you mean 'run'? (fluxperf --help lists them)", or null when
     * {@code e} is not about a subcommand: the command takes no subcommand, or takes arguments
     * of its own (then the word is an extra argument), or the word is an option.
     */
    static String message(CommandLine.ParameterException e) {
        if (!(e instanceof UnmatchedArgumentException u) || u.isUnknownOption()) {
            return null;
        }
        CommandLine c = u.getCommandLine();
        List<String> unmatched = u.getUnmatched();
        if (c.getSubcommands().isEmpty() || !c.getCommandSpec().positionalParameters().isEmpty() || unmatched.isEmpty()
                || unmatched.get(0).startsWith("-")) {
            return null;
        }
        String word = unmatched.get(0);
        String qualified = c.getCommandSpec().qualifiedName();
        String parent = qualified.contains(" ") ? qualified.substring(qualified.indexOf(' ') + 1) + " " : "";
        String near = NearestName.among(word, c.getSubcommands().keySet());
        return "unknown command '" + parent + word + "'"
                + (near != null ? "; did you mean '" + parent + near + "'?" : "")
                + " (" + qualified + " --help lists them)";
    }
}
