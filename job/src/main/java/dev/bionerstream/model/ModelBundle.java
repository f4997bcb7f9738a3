package dev.bionerstream.model;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bionerstream.syntax.SyntaxKind;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A validated model bundle: {@code bundle.json}, {@code model.onnx} and {@code tokenizer.json},
 * held in memory so the same bundle can come from a directory or from the job jar.
 *
 * <pre>{@code
 * ModelBundle bundle = ModelBundle.load(Path.of("my-bundle"));   // or ModelBundle.loadDefault()
 * }</pre>
 */
public final class ModelBundle {
    public static final String MANIFEST = "bundle.json";
    public static final String MODEL = "model.onnx";
    public static final String TOKENIZER = "tokenizer.json";
    /** Classpath folder of the default bundle shipped in the job jar. */
    public static final String DEFAULT_RESOURCE = "/bundles/default/";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String source;
    private final BundleManifest manifest;
    private final byte[] model;
    private final byte[] tokenizer;

    private ModelBundle(String source, BundleManifest manifest, byte[] model, byte[] tokenizer) {
        this.source = source;
        this.manifest = manifest;
        this.model = model;
        this.tokenizer = tokenizer;
    }

    /** The manifest format this job reads (bundle.json "format"); a bundle of another format is refused. */
    public static final int FORMAT = 1;

    /** Loads and validates a bundle directory. */
    public static ModelBundle load(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new BundleException("Model bundle directory not found: " + dir);
        }
        return of(dir.toString(), name -> readFile(dir.resolve(name)));
    }

    /** The bundle shipped inside the job jar. */
    public static ModelBundle loadDefault() {
        return of("classpath:" + DEFAULT_RESOURCE, ModelBundle::readResource);
    }

    /** {@code dir} when given, otherwise the default bundle. */
    public static ModelBundle loadOrDefault(Optional<Path> dir) {
        return dir.map(ModelBundle::load).orElseGet(ModelBundle::loadDefault);
    }

    private interface Reader {
        byte[] read(String name);
    }

    private static ModelBundle of(String source, Reader reader) {
        BundleManifest manifest;
        try {
            manifest = JSON.readValue(reader.read(MANIFEST), BundleManifest.class);
        } catch (IOException e) {
            throw new BundleException(source + "/" + MANIFEST + " is not a valid manifest: " + e.getMessage(), e);
        }
        validate(source, manifest);
        byte[] model = reader.read(MODEL);
        byte[] tokenizer = reader.read(TOKENIZER);
        verifyChecksum(source, manifest, MODEL, model);
        verifyChecksum(source, manifest, TOKENIZER, tokenizer);
        return new ModelBundle(source, manifest, model, tokenizer);
    }

    private static void validate(String source, BundleManifest m) {
        if (m.format() != FORMAT) {
            throw new BundleException(
                    source + "/" + MANIFEST + " has \"format\": " + m.format() + "; this job reads format " + FORMAT
                            + " (re-export the bundle with this version's model-export, or run the job version that wrote it)");
        }
        List<EntityQuery> types = m.entityTypes();
        if (types == null || types.isEmpty()) {
            throw new BundleException(source + "/" + MANIFEST
                    + " names no entity types: add \"entity_types\": [{\"name\": ..., \"query\": ...}]");
        }
        for (EntityQuery q : types) {
            if (q.name() == null
                    || q.name().isBlank()
                    || q.query() == null
                    || q.query().isBlank()) {
                throw new BundleException(
                        source + "/" + MANIFEST + ": every entity type needs a name and a query, got " + q);
            }
        }
        if (m.maxSequenceLength() < 8) {
            throw new BundleException(
                    source + "/" + MANIFEST + ": max_sequence_length " + m.maxSequenceLength() + " is too small");
        }
        if (m.name() == null || m.version() == null) {
            throw new BundleException(source + "/" + MANIFEST + ": name and version are required");
        }
        validateSyntax(source, m);
        BundleGate gate = m.gate();
        if (gate != null
                && (gate.output() == null
                        || gate.output().isBlank()
                        || !(gate.threshold() > 0 && gate.threshold() < 1))) {
            throw new BundleException(source + "/" + MANIFEST
                    + ": \"gate\" needs an \"output\" and a \"threshold\" between 0 and 1, got " + gate);
        }
    }

    private static void validateSyntax(String source, BundleManifest m) {
        if (m.syntax() != null) {
            if (m.syntax().kinds() == null
                    || m.syntax().kinds().isEmpty()
                    || m.syntax().annotator() == null) {
                throw new BundleException(source + "/" + MANIFEST
                        + ": \"syntax\" needs an \"annotator\" and \"kinds\" ([{\"kind\", \"width\", \"labels\"}])");
            }
            for (BundleSyntax.Kind k : m.syntax().kinds()) {
                try {
                    SyntaxKind.of(k.kind());
                } catch (IllegalArgumentException e) {
                    throw new BundleException(source + "/" + MANIFEST + ": " + e.getMessage());
                }
                if (k.width() < 1 || k.labels() == null) {
                    throw new BundleException(source + "/" + MANIFEST + ": syntax kind " + k.kind()
                            + " needs a width of at least 1 and its labels, got " + k);
                }
            }
        }
        BundleCorpusTags tags = m.corpusTags();
        if (tags != null) {
            List<String> names = m.entityTypes().stream().map(EntityQuery::name).toList();
            if (tags.corpora() == null
                    || tags.defaults() == null
                    || !tags.defaults().keySet().equals(Set.copyOf(names))
                    || !tags.corpora().containsAll(tags.defaults().values())) {
                throw new BundleException(source + "/" + MANIFEST + ": \"corpus_tags\" needs \"corpora\" and a"
                        + " default corpus among them for every entity type " + names + ", got " + tags);
            }
        }
    }

    private static void verifyChecksum(String source, BundleManifest m, String name, byte[] content) {
        Map<String, String> files = m.files();
        String expected = files == null ? null : files.get(name);
        if (expected == null) {
            throw new BundleException(source + "/" + MANIFEST + " has no sha256 for " + name + " under \"files\"");
        }
        String actual = sha256(content);
        if (!actual.equalsIgnoreCase(expected)) {
            throw new BundleException(String.format(
                    "%s/%s: sha256 %s does not match the manifest's %s (file changed or bundle mixed from two exports)",
                    source, name, actual, expected));
        }
    }

    static String sha256(byte[] content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] readFile(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new BundleException("Model bundle file missing: " + file);
        }
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new BundleException("Cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static byte[] readResource(String name) {
        try (InputStream in = ModelBundle.class.getResourceAsStream(DEFAULT_RESOURCE + name)) {
            if (in == null) {
                throw new BundleException("The default bundle is not on the classpath (" + DEFAULT_RESOURCE + name
                        + "): build the job jar from the repository, or pass --bundle DIR");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new BundleException("Cannot read the default bundle: " + e.getMessage(), e);
        }
    }

    public String source() {
        return source;
    }

    public BundleManifest manifest() {
        return manifest;
    }

    public byte[] modelBytes() {
        return model;
    }

    public byte[] tokenizerJson() {
        return tokenizer;
    }
}
