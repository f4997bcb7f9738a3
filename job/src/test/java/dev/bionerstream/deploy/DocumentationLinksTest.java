package dev.bionerstream.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in the user documentation (README.md, docs/, model-export/ and the other
 * READMEs) points at a file that exists and, with a {@code #fragment}, at a heading it has: the
 * README was split into pages, and a moved section must not leave a dead link behind.
 */
class DocumentationLinksTest {
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*#*$");
    private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");

    @Test
    void everyRelativeLinkAndAnchorResolves() throws IOException {
        Path root = DeployFiles.root();
        List<Path> pages = documentation(root);
        assertThat(pages)
                .as("the user documentation")
                .contains(root.resolve("README.md"), root.resolve("docs/configuration.md"));
        List<String> broken = new ArrayList<>();
        for (Path page : pages) {
            for (String target : links(page)) {
                String problem = check(page, target);
                if (problem != null) {
                    broken.add(root.relativize(page) + ": (" + target + ") " + problem);
                }
            }
        }
        assertThat(broken).as("links that do not resolve").isEmpty();
    }

    @Test
    void slugsFollowGithubRules() {
        assertThat(slug("Kubernetes (Flink Kubernetes Operator)")).isEqualTo("kubernetes-flink-kubernetes-operator");
        assertThat(slug("Quantize a bundle to int8 (CPU)")).isEqualTo("quantize-a-bundle-to-int8-cpu");
        assertThat(slug("The full recipe: corpus tags, syntax and the sentence task"))
                .isEqualTo("the-full-recipe-corpus-tags-syntax-and-the-sentence-task");
        assertThat(slug("Spanish: `bundles/pharmaconer-es`")).isEqualTo("spanish-bundlespharmaconer-es");
    }

    private static List<Path> documentation(Path root) throws IOException {
        List<Path> pages = new ArrayList<>();
        for (String file : List.of("README.md", "model-export/README.md", "k8s/README.md", "corpora/README.md")) {
            if (Files.isRegularFile(root.resolve(file))) {
                pages.add(root.resolve(file));
            }
        }
        for (String dir : List.of("docs", "model-export/docs")) {
            try (Stream<Path> files = Files.list(root.resolve(dir))) {
                files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
            }
        }
        return pages;
    }

    /** Link targets outside code blocks, without web addresses. */
    private static List<String> links(Path page) throws IOException {
        List<String> out = new ArrayList<>();
        boolean code = false;
        for (String line : Files.readAllLines(page)) {
            if (FENCE.matcher(line).find()) {
                code = !code;
                continue;
            }
            if (code) {
                continue;
            }
            Matcher m = LINK.matcher(line.replaceAll("`[^`]*`", "``"));
            while (m.find()) {
                String target = m.group(1);
                if (!target.matches("^[a-z]+:.*")) {
                    out.add(target);
                }
            }
        }
        return out;
    }

    private static String check(Path page, String target) {
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        if (!Files.exists(resolved)) {
            return "no such file: " + resolved;
        }
        if (hash < 0 || Files.isDirectory(resolved) || !resolved.toString().endsWith(".md")) {
            return null;
        }
        String anchor = target.substring(hash + 1);
        Set<String> anchors = anchors(resolved);
        return anchors.contains(anchor)
                ? null
                : "no heading #" + anchor + " in " + resolved.getFileName() + "; it has " + anchors;
    }

    private static Set<String> anchors(Path page) {
        try {
            Set<String> out = new TreeSet<>();
            boolean code = false;
            for (String line : Files.readAllLines(page)) {
                if (FENCE.matcher(line).find()) {
                    code = !code;
                } else if (!code) {
                    Matcher m = HEADING.matcher(line);
                    if (m.matches()) {
                        out.add(slug(m.group(1)));
                    }
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
    static String slug(String heading) {
        String text = heading.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}\\s_-]", "");
        return text.codePoints()
                .mapToObj(c -> Character.isWhitespace(c) ? "-" : Character.toString(c))
                .collect(Collectors.joining());
    }
}
