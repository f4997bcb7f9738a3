package dev.bionerstream.pubmed;

import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The update files an HTML directory listing links to (NCBI's https://ftp.ncbi.nlm.nih.gov/pubmed/
 * pages are Apache-style indexes): {@code pubmedYYnNNNN.xml.gz} names, in name order, each once.
 */
final class FeedListing {
    private static final Pattern LINK = Pattern.compile("href=\"(?:[^\"]*/)?(pubmed\\d{2}n\\d{4}\\.xml\\.gz)\"");

    private FeedListing() {}

    static List<String> files(String html) {
        TreeSet<String> names = new TreeSet<>();
        Matcher m = LINK.matcher(html);
        while (m.find()) {
            names.add(m.group(1));
        }
        return List.copyOf(names);
    }
}
