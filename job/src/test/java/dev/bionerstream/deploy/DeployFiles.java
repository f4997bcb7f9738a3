package dev.bionerstream.deploy;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/** Finds and parses the repository's deployment files (docker-compose.yml, Dockerfile, k8s/*.yaml). */
final class DeployFiles {
    /** Keys whose literal value would be a credential. */
    static final Pattern SECRET_KEY =
            Pattern.compile("(?i).*(password|passwd|secret|token|api[-_.]?key|jaas|credential|private[-_.]?key).*");

    private DeployFiles() {}

    static Path root() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.exists(p.resolve("docker-compose.yml")) && Files.isDirectory(p.resolve("k8s"))) {
                return p;
            }
        }
        throw new IllegalStateException(
                "docker-compose.yml and k8s/ not found above " + Path.of("").toAbsolutePath());
    }

    /** Where the Dockerfile copies the repository's {@code bundles/} folder in both images. */
    static final String IMAGE_BUNDLES = "/opt/bioner/bundles/";

    /**
     * The repository folder behind a {@code LANG=DIR} pair of {@code model.language-bundles} that
     * names a bundle the image carries, checked to be a bundle (its bundle.json is there).
     */
    static Path shippedBundle(String languageBundle) {
        String dir = languageBundle.substring(languageBundle.indexOf('=') + 1);
        if (!dir.startsWith(IMAGE_BUNDLES)) {
            throw new AssertionError(languageBundle + " does not name a bundle under " + IMAGE_BUNDLES);
        }
        Path bundle = root().resolve("bundles").resolve(dir.substring(IMAGE_BUNDLES.length()));
        if (!Files.isRegularFile(bundle.resolve("bundle.json"))) {
            throw new AssertionError(languageBundle + ": no bundle.json in the repository's " + bundle);
        }
        return bundle;
    }

    /** Every YAML document of the file (anchors, aliases and merge keys resolved). */
    static List<Object> load(Path file) {
        Yaml yaml = new Yaml(new SafeConstructor(new LoaderOptions()));
        List<Object> docs = new ArrayList<>();
        try (Reader in = Files.newBufferedReader(file)) {
            yaml.loadAll(in).forEach(doc -> {
                if (doc != null) {
                    docs.add(doc);
                }
            });
        } catch (IOException e) {
            throw new IllegalStateException(file + ": " + e, e);
        }
        return docs;
    }

    static List<Path> kubernetesManifests() throws IOException {
        try (Stream<Path> files = Files.list(root().resolve("k8s"))) {
            return files.filter(
                            f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml"))
                    .sorted()
                    .toList();
        }
    }

    /** The value at a path of map keys (and list indices), or null. */
    @SuppressWarnings("unchecked")
    static <T> T at(Object node, String... path) {
        Object n = node;
        for (String key : path) {
            if (n instanceof List<?> list && key.matches("\\d+") && Integer.parseInt(key) < list.size()) {
                n = list.get(Integer.parseInt(key));
            } else if (n instanceof Map) {
                n = ((Map<String, Object>) n).get(key);
            } else {
                return null;
            }
        }
        return (T) n;
    }

    /** Calls back for every (key, value) pair in the tree, with the dotted path of the key. */
    @SuppressWarnings("unchecked")
    static void walk(Object node, String path, BiConsumer<String, Object> visit) {
        if (node instanceof Map<?, ?> map) {
            map.forEach((k, v) -> {
                String p = path.isEmpty() ? String.valueOf(k) : path + "." + k;
                visit.accept(p, v);
                walk(v, p, visit);
            });
        } else if (node instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                walk(list.get(i), path + "[" + i + "]", visit);
            }
        }
    }

    /** True for an image reference with an explicit tag (or digest) other than latest. */
    static boolean pinned(String image) {
        if (image.contains("@sha256:")) {
            return true;
        }
        int slash = image.lastIndexOf('/');
        int colon = image.lastIndexOf(':');
        if (colon <= slash) {
            return false;
        }
        String tag = image.substring(colon + 1);
        return !tag.isBlank() && !tag.equals("latest") && !tag.contains("${");
    }

    static String lastKey(String path) {
        String p = path.replaceAll("\\[\\d+]$", "");
        return p.substring(p.lastIndexOf('.') + 1);
    }
}
