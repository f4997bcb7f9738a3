package dev.bionerstream.viewer;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** The parameters of a request's raw query string, decoded; a malformed or repeated one is refused. */
final class QueryString {
    private QueryString() {}

    static Map<String, String> parse(String raw) throws BadQueryException {
        Map<String, String> params = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return params;
        }
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            if (params.put(name, value) != null) {
                throw new BadQueryException("parameter '" + name + "' is given twice");
            }
        }
        return params;
    }

    private static String decode(String s) throws BadQueryException {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new BadQueryException("malformed query string near '" + s + "': " + e.getMessage());
        }
    }
}
