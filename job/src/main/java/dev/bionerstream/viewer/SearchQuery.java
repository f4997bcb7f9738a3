package dev.bionerstream.viewer;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What the page asks for: free text over title and abstract ({@code q}), an entity's text ({@code
 * entity}, case-insensitive, as indexed), an entity type ({@code type}), a document id ({@code doc}),
 * a publication year ({@code year}), and the page of results ({@code from}, {@code size}). Every part is optional; none means the
 * newest documents.
 */
record SearchQuery(String text, String entity, String type, String documentId, Integer year, int from, int size) {
    static final int MAX_SIZE = 100;
    /** OpenSearch's default index.max_result_window. */
    static final int MAX_WINDOW = 10_000;

    private static final int MAX_LENGTH = 500;
    /** Bounds that catch a mistyped year (26, 20266), not a rule about which years exist. */
    private static final int MIN_YEAR = 1700;

    private static final int MAX_YEAR = 2999;
    private static final List<String> PARAMETERS = List.of("q", "entity", "type", "doc", "year", "from", "size");
    private static final Pattern TYPE = Pattern.compile("[a-z][a-z0-9_-]{0,31}");

    /** Parses the query-string parameters; a bad one is a {@link BadQueryException} naming it. */
    static SearchQuery from(Map<String, String> params) throws BadQueryException {
        for (String name : params.keySet()) {
            if (!PARAMETERS.contains(name)) {
                throw new BadQueryException("unknown parameter '" + name + "': use " + String.join(", ", PARAMETERS));
            }
        }
        String type = text(params, "type");
        if (type != null) {
            type = type.toLowerCase(Locale.ROOT);
            if (!TYPE.matcher(type).matches()) {
                throw new BadQueryException("type '" + type + "' is not an entity type such as chemical or gene");
            }
        }
        Integer year = params.containsKey("year") && !params.get("year").isBlank()
                ? number(params, "year", 0, MIN_YEAR, MAX_YEAR)
                : null;
        int from = number(params, "from", 0, 0, MAX_WINDOW);
        int size = number(params, "size", 20, 1, MAX_SIZE);
        if (from + size > MAX_WINDOW) {
            throw new BadQueryException("from + size must be at most " + MAX_WINDOW + "; narrow the search instead");
        }
        return new SearchQuery(text(params, "q"), text(params, "entity"), type, text(params, "doc"), year, from, size);
    }

    private static String text(Map<String, String> params, String name) throws BadQueryException {
        String value = params.get(name);
        if (value == null || value.isBlank()) {
            return null;
        }
        if (value.length() > MAX_LENGTH) {
            throw new BadQueryException(name + " is longer than " + MAX_LENGTH + " characters");
        }
        return value.strip();
    }

    private static int number(Map<String, String> params, String name, int orElse, int min, int max)
            throws BadQueryException {
        String value = params.get(name);
        if (value == null || value.isBlank()) {
            return orElse;
        }
        try {
            int n = Integer.parseInt(value.strip());
            if (n < min || n > max) {
                throw new BadQueryException(name + " must be in " + min + ".." + max + ", not " + n);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new BadQueryException(name + " must be a whole number, not '" + value + "'");
        }
    }
}
