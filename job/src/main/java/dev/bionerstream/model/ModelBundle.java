package dev.bionerstream.model;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.util.Optional;
import java.util.Set;

/**
 * A validated model bundle: {@code bundle.json} (checked against {@code schemas/bundle.schema.json}),
 * {@code model.onnx} and {@code tokenizer.json}, held in memory so the same bundle can come from a
 * directory or from the job jar. The manifest and the tokenizer are read and verified at load; the
 * model (tens of megabytes) on first use, so what needs only the queries or the tokenizer never reads it.
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
    private final Reader reader;
    private final byte[] tokenizer;
    private byte[] model; // read and verified on first use

    private ModelBundle(String source, BundleManifest manifest, Reader reader, byte[] tokenizer) {
        this.source = source;
        this.manifest = manifest;
        this.reader = reader;
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
        BundleManifest manifest = readManifest(source, reader.read(MANIFEST));
        byte[] tokenizer = reader.read(TOKENIZER);
        verifyChecksum(source, manifest, TOKENIZER, tokenizer);
        return new ModelBundle(source, manifest, reader, tokenizer);
    }

    /**
     * The format first (another format has another schema), then the schema (structure and types),
     * then what the schema cannot say: how fields relate to each other and to this job.
     */
    private static BundleManifest readManifest(String source, byte[] json) {
        String where = source + "/" + MANIFEST;
        try {
            JsonNode tree = JSON.readTree(json);
            if (tree == null || tree.isMissingNode()) { // an empty file
                tree = JSON.nullNode();
            }
            checkFormat(where, tree.path("format"));
            ManifestSchema.check(where, tree);
            BundleManifest manifest = JSON.treeToValue(tree, BundleManifest.class);
            validateSyntax(where, manifest);
            validateCorpusTags(where, manifest);
            return manifest;
        } catch (IOException e) {
            throw new BundleException(where + " is not a valid manifest: " + e.getMessage(), e);
        }
    }

    private static void checkFormat(String where, JsonNode format) {
        if (format.isIntegralNumber() && format.asInt() != FORMAT) {
            throw new BundleException(where + " has \"format\": " + format.asInt() + "; this job reads format " + FORMAT
                    + " (re-export the bundle with this version's model-export, or run the job version that wrote it)");
        }
    }

    private static void validateSyntax(String where, BundleManifest m) {
        if (m.syntax() != null) {
            for (BundleSyntax.Kind k : m.syntax().kinds()) {
                try {
                    SyntaxKind.of(k.kind());
                } catch (IllegalArgumentException e) {
                    throw new BundleException(where + ": " + e.getMessage());
                }
            }
        }
    }

    private static void validateCorpusTags(String where, BundleManifest m) {
        BundleCorpusTags tags = m.corpusTags();
        if (tags != null) {
            List<String> names = m.entityTypes().stream().map(EntityQuery::name).toList();
            if (!tags.defaults().keySet().equals(Set.copyOf(names))
                    || !tags.corpora().containsAll(tags.defaults().values())) {
                throw new BundleException(where + ": \"corpus_tags\" needs \"corpora\" and a"
                        + " default corpus among them for every entity type " + names + ", got " + tags);
            }
        }
    }

    private static void verifyChecksum(String source, BundleManifest m, String name, byte[] content) {
        String expected = m.files().get(name); // the schema requires both files' hashes
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

    /** {@code model.onnx}, read and checked against the manifest's sha256 the first time it is asked for. */
    public synchronized byte[] modelBytes() {
        if (model == null) {
            byte[] bytes = reader.read(MODEL);
            verifyChecksum(source, manifest, MODEL, bytes);
            model = bytes;
        }
        return model;
    }

    public byte[] tokenizerJson() {
        return tokenizer;
    }
}
