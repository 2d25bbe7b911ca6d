package io.fluxperf.cli;

import java.util.ArrayList;
import java.util.IllegalFormatException;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * How {@code --help} is laid out: as wide as the terminal (picocli's {@code usageHelpAutoWidth};
 * 80 columns, or the {@code picocli.usage.width} property, when the output is no terminal), and
 * with a command's description and footer laid out by what each line is. An indented line (an
 * example, its continuation, a list item) is printed whole whatever the width: an example broken
 * in the middle of an argument cannot be pasted. Lines that are not indented are prose: each run of
 * them is one paragraph, wrapped at spaces to the width, so that a line written for 100 columns
 * neither breaks into ragged halves at 80 nor stays narrow at 200.
 *
 * <p>A command's header is its one-line summary in its parent's list of commands; its own help
 * leaves it out, since the description that follows the synopsis says the same at length.
 */
final class UsageHelp {
    private UsageHelp() {
    }

    /** Lays out the help of {@code root} and every command under it. */
    static void apply(CommandLine root) {
        root.setUsageHelpAutoWidth(true);
        layOut(root);
    }

    private static void layOut(CommandLine c) {
        Map<String, CommandLine.IHelpSectionRenderer> sections = c.getHelpSectionMap();
        sections.put(UsageMessageSpec.SECTION_KEY_HEADER, help -> "");
        sections.put(UsageMessageSpec.SECTION_KEY_DESCRIPTION,
                help -> text(help.commandSpec().usageMessage().description(), help.commandSpec().usageMessage().width()));
        sections.put(UsageMessageSpec.SECTION_KEY_FOOTER,
                help -> text(help.commandSpec().usageMessage().footer(), help.commandSpec().usageMessage().width()));
        c.getCommandSpec().usageMessage().sectionMap(sections);
        for (CommandLine sub : c.getSubcommands().values()) {
            layOut(sub);
        }
    }

    /** The lines as help text {@code width} columns wide: indented lines whole, prose wrapped at spaces. */
    static String text(String[] lines, int width) {
        StringBuilder out = new StringBuilder();
        for (String line : layOut(lines, width)) {
            out.append(line).append(System.lineSeparator());
        }
        return out.toString();
    }

    static List<String> layOut(String[] lines, int width) {
        List<String> out = new ArrayList<>();
        StringBuilder paragraph = new StringBuilder();
        for (String raw : lines == null ? new String[0] : lines) {
            for (String line : format(raw).split("\\R", -1)) {
                if (line.isBlank() || Character.isWhitespace(line.charAt(0))) {
                    wrap(paragraph, width, out);
                    out.add(line.stripTrailing());
                    continue;
                }
                String words = line.strip();
                if (paragraph.length() > 0) {
                    // a word broken at its hyphen ("latency-vs-" / "throughput") is joined whole again
                    boolean hyphenated = paragraph.length() > 1 && paragraph.charAt(paragraph.length() - 1) == '-'
                            && Character.isLetter(paragraph.charAt(paragraph.length() - 2));
                    paragraph.append(hyphenated ? "" : " ");
                }
                paragraph.append(words);
                if (words.endsWith(":")) {
                    wrap(paragraph, width, out); // a heading, or prose that introduces what follows
                }
            }
        }
        wrap(paragraph, width, out);
        return out;
    }

    /** picocli formats each line ({@code %%}, {@code %n}); a line it cannot format it prints as written. */
    private static String format(String line) {
        if (line.indexOf('%') < 0) {
            return line;
        }
        try {
            return String.format(line);
        } catch (IllegalFormatException e) {
            return line;
        }
    }

    /** Adds the paragraph's words in lines of at most {@code width} columns (a longer word on its own), and empties it. */
    private static void wrap(StringBuilder paragraph, int width, List<String> out) {
        if (paragraph.length() == 0) {
            return;
        }
        StringBuilder line = new StringBuilder();
        for (String word : paragraph.toString().split(" +")) {
            if (line.length() > 0 && line.length() + 1 + word.length() > width) {
                out.add(line.toString());
                line.setLength(0);
            }
            line.append(line.length() > 0 ? " " : "").append(word);
        }
        out.add(line.toString());
        paragraph.setLength(0);
    }
}
