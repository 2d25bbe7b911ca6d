package io.fluxperf.replay;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The statistics blocks ({@code --stats-interval}) of a printed report, read back by their names. */
final class StatsBlocks {
    private StatsBlocks() {
    }

    /** One block: its lines, and the value after each name in them. */
    record Block(List<String> lines) {
        /** The token after {@code name} ("requests 1,000" gives "1,000"), or fails. */
        String value(String name) {
            for (String line : lines) {
                List<String> tokens = Arrays.asList(line.trim().split("\\s+"));
                int i = tokens.indexOf(name);
                if (i >= 0 && i + 1 < tokens.size()) {
                    return tokens.get(i + 1);
                }
            }
            throw new AssertionError("no '" + name + "' in the block\n" + String.join("\n", lines));
        }

        long count(String name) {
            return Long.parseLong(value(name).replace(",", ""));
        }

        double decimal(String name) {
            return Double.parseDouble(value(name));
        }

        String line(String prefix) {
            return lines.stream().filter(l -> l.startsWith(prefix)).findFirst()
                    .orElseThrow(() -> new AssertionError("no line '" + prefix + "' in\n" + String.join("\n", lines)));
        }

        @Override
        public String toString() {
            return String.join("\n", lines);
        }
    }

    /** Every block of {@code report}, in order: from a line starting "seconds " to the blank line after it. */
    static List<Block> of(String report) {
        List<Block> blocks = new ArrayList<>();
        List<String> current = null;
        for (String line : report.lines().toList()) {
            if (line.startsWith("seconds ")) {
                current = new ArrayList<>();
            }
            if (current != null) {
                if (line.isBlank()) {
                    blocks.add(new Block(current));
                    current = null;
                } else {
                    current.add(line);
                }
            }
        }
        return blocks;
    }
}
