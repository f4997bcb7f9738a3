package dev.bionerstream.eval;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An IOB file ({@code token<TAB>tag}, blank line between sentences) read as sentences whose
 * tokens are joined by single spaces, with gold spans for the mapped tags. Tags not in the map
 * count as O; an I- tag after O or after another type opens an entity, as in model-export.
 */
public record IobCorpus(List<String> sentences, List<List<Span>> gold) {

    /** Parses {@code TAG=type,TAG=type}. */
    public static Map<String, String> parseTypes(String spec) {
        Map<String, String> tags = new LinkedHashMap<>();
        for (String pair : spec.split(",")) {
            String[] kv = pair.split("=", 2);
            if (kv.length != 2 || kv[0].isBlank() || kv[1].isBlank()) {
                throw new IllegalArgumentException("'" + pair + "' is not TAG=type (e.g. Chemical=chemical)");
            }
            tags.put(kv[0].trim(), kv[1].trim());
        }
        return tags;
    }

    public static IobCorpus read(Path file, Map<String, String> tags) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read IOB file " + file, e);
        }
        List<String> sentences = new ArrayList<>();
        List<List<Span>> gold = new ArrayList<>();
        List<String> tokens = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        int lineNo = 0;
        for (String line : lines) {
            lineNo++;
            if (line.isBlank()) {
                flush(tokens, labels, tags, sentences, gold);
                continue;
            }
            int tab = line.lastIndexOf('\t');
            if (tab <= 0) {
                throw new IllegalArgumentException(
                        file + ":" + lineNo + ": expected token<TAB>tag, got '" + line + "'");
            }
            tokens.add(line.substring(0, line.indexOf('\t')));
            labels.add(line.substring(tab + 1).trim());
        }
        flush(tokens, labels, tags, sentences, gold);
        return new IobCorpus(sentences, gold);
    }

    private static void flush(
            List<String> tokens,
            List<String> labels,
            Map<String, String> tags,
            List<String> sentences,
            List<List<Span>> gold) {
        if (tokens.isEmpty()) {
            return;
        }
        List<Span> spans = new ArrayList<>();
        int pos = 0;
        String curType = null;
        int curStart = 0;
        int curEnd = 0;
        for (int i = 0; i < tokens.size(); i++) {
            int start = pos;
            int end = pos + tokens.get(i).length();
            pos = end + 1;
            String label = labels.get(i);
            int dash = label.indexOf('-');
            String prefix = dash < 0 ? label : label.substring(0, dash);
            String type = dash < 0 ? null : tags.get(label.substring(dash + 1));
            if (type != null && (prefix.equals("B") || !type.equals(curType))) {
                if (curType != null) {
                    spans.add(new Span(curType, curStart, curEnd));
                }
                curType = type;
                curStart = start;
                curEnd = end;
            } else if (type != null) {
                curEnd = end;
            } else if (curType != null) {
                spans.add(new Span(curType, curStart, curEnd));
                curType = null;
            }
        }
        if (curType != null) {
            spans.add(new Span(curType, curStart, curEnd));
        }
        sentences.add(String.join(" ", tokens));
        gold.add(spans);
        tokens.clear();
        labels.clear();
    }
}
