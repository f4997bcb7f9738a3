package dev.bionerstream.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.bionerstream.inference.InferenceOptions;
import dev.bionerstream.inference.OrtMrcSession;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelBundleTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /**
     * A copy of the tiny gated test bundle in {@code dir}, whose files the tests then break: a complete
     * bundle with a 64 KB model, where a copy of the default would write and read 67 MB in every test.
     */
    private ObjectNode copyTiny() throws Exception {
        Path tiny = TestBundles.path("tiny-gated");
        for (String file : List.of(ModelBundle.MANIFEST, ModelBundle.MODEL, ModelBundle.TOKENIZER)) {
            Files.copy(tiny.resolve(file), dir.resolve(file));
        }
        return (ObjectNode) JSON.readTree(dir.resolve(ModelBundle.MANIFEST).toFile());
    }

    private void write(ObjectNode manifest) throws Exception {
        JSON.writeValue(dir.resolve(ModelBundle.MANIFEST).toFile(), manifest);
    }

    @Test
    void theDefaultBundleLoadsWithItsFourTypes() {
        ModelBundle b = ModelBundle.loadDefault();
        assertThat(b.manifest().entityTypes())
                .extracting(EntityQuery::name)
                .containsExactly("chemical", "disease", "gene", "species");
        assertThat(b.manifest().entityTypes())
                .allSatisfy(q -> assertThat(q.query()).startsWith("Can you detect"));
        assertThat(b.manifest().maxSequenceLength()).isEqualTo(256);
    }

    @Test
    void aCopiedBundleLoadsFromADirectoryItsModelIncluded() throws Exception {
        copyTiny();
        ModelBundle copy = ModelBundle.load(dir);
        assertThat(copy.manifest().id()).isEqualTo("tiny-gated:0.0.1");
        assertThat(copy.modelBytes()).isEqualTo(Files.readAllBytes(dir.resolve(ModelBundle.MODEL)));
    }

    @Test
    void missingDirectoryOrFileIsNamed() throws Exception {
        assertThatThrownBy(() -> ModelBundle.load(dir.resolve("nope"))).hasMessageContaining("directory not found");
        copyTiny();
        Files.delete(dir.resolve(ModelBundle.TOKENIZER));
        assertThatThrownBy(() -> ModelBundle.load(dir))
                .isInstanceOf(BundleException.class)
                .hasMessageContaining("tokenizer.json");
    }

    @Test
    void aChangedFileFailsItsChecksum() throws Exception {
        copyTiny();
        Files.writeString(dir.resolve(ModelBundle.TOKENIZER), "{}");
        assertThatThrownBy(() -> ModelBundle.load(dir))
                .hasMessageContaining("sha256")
                .hasMessageContaining("tokenizer.json");
    }

    @Test
    void theModelIsReadAndVerifiedOnFirstUseOnly() throws Exception {
        copyTiny();
        Files.write(dir.resolve(ModelBundle.MODEL), new byte[] {1, 2, 3});
        ModelBundle changed = ModelBundle.load(dir); // the manifest and the tokenizer are all a load reads
        assertThat(changed.manifest().entityTypes()).hasSize(2);
        assertThatThrownBy(changed::modelBytes)
                .isInstanceOf(BundleException.class)
                .hasMessageContaining("sha256")
                .hasMessageContaining("model.onnx");
        Files.delete(dir.resolve(ModelBundle.MODEL));
        assertThatThrownBy(ModelBundle.load(dir)::modelBytes)
                .isInstanceOf(BundleException.class)
                .hasMessageContaining("model.onnx");
    }

    @Test
    void aManifestOfAnotherFormatIsRejected() throws Exception {
        ObjectNode m = copyTiny();
        m.put("format", 2);
        write(m);
        assertThatThrownBy(() -> ModelBundle.load(dir))
                .hasMessageContaining("\"format\": 2")
                .hasMessageContaining("reads format 1");
    }

    @Test
    void aManifestWithoutTypesIsRejected() throws Exception {
        ObjectNode m = copyTiny();
        m.putArray("entity_types");
        write(m);
        assertThatThrownBy(() -> ModelBundle.load(dir))
                .hasMessageContaining(dir + "/bundle.json: $.entity_types: must have at least 1 items but found 0");
        Files.writeString(dir.resolve(ModelBundle.MANIFEST), "{not json");
        assertThatThrownBy(() -> ModelBundle.load(dir)).hasMessageContaining("not a valid manifest");
        Files.writeString(dir.resolve(ModelBundle.MANIFEST), "");
        assertThatThrownBy(() -> ModelBundle.load(dir)).hasMessageContaining("$: null found, object expected");
    }

    @Test
    void everyBundleInTheRepositoryMatchesTheSchema() throws Exception {
        assertThat(ModelBundle.loadDefault().manifest().id()).startsWith("bioner-mrc-bge-small:");
        try (var shipped = java.nio.file.Files.list(Path.of("..", "bundles"))) {
            assertThat(shipped.map(dir -> ModelBundle.load(dir).manifest().id()))
                    .as("the repository's bundles/ folders, each loaded (and so checked against the schema)")
                    .hasSizeGreaterThanOrEqualTo(2)
                    .anySatisfy(id -> assertThat(id).startsWith("bioner-mrc-minilm-es:"))
                    .anySatisfy(id -> assertThat(id).contains("-int8"));
        }
        for (String test : List.of("tiny-gated", "tiny-gated-int8", "tiny-syntax")) {
            try (var in = getClass().getResourceAsStream("/bundles/" + test + "/" + ModelBundle.MANIFEST)) {
                ManifestSchema.check(test, JSON.readTree(in));
            }
        }
    }

    @Test
    void aMissingRequiredFieldIsNamedWithItsBundle() throws Exception {
        ObjectNode m = copyTiny();
        m.remove("max_sequence_length");
        ((ObjectNode) m.get("entity_types").get(1)).remove("query");
        write(m);
        assertThatThrownBy(() -> ModelBundle.load(dir))
                .isInstanceOf(BundleException.class)
                .hasMessageStartingWith(dir + "/bundle.json: ")
                .hasMessageContaining("$: required property 'max_sequence_length' not found")
                .hasMessageContaining("$.entity_types[1]: required property 'query' not found")
                .hasMessageEndingWith("(see schemas/bundle.schema.json)");
    }

    @Test
    void aWronglyTypedFieldIsNamedByItsPath() throws Exception {
        ObjectNode m = copyTiny();
        m.put("max_sequence_length", "256"); // Jackson alone would quietly read it as 256
        m.putObject("gate").put("output", "presence_logits").put("threshold", 1.5);
        ((ObjectNode) m.get("files")).put(ModelBundle.TOKENIZER, 42);
        write(m);
        assertThatThrownBy(() -> ModelBundle.load(dir))
                .isInstanceOf(BundleException.class)
                .hasMessageContaining("bundle.json: $.max_sequence_length: string found, integer expected")
                .hasMessageContaining("$.gate.threshold: must have an exclusive maximum value of 1")
                .hasMessageContaining("$.files['tokenizer.json']: integer found, string expected");
    }

    @Test
    void sectionsTheJobDoesNotReadAreAllowed() throws Exception {
        ObjectNode m = copyTiny();
        m.putObject("provenance").put("exported_by", "a newer model-export").putArray("notes");
        ((ObjectNode) m.get("entity_types").get(0)).put("colour", "red");
        write(m);
        assertThat(ModelBundle.load(dir).manifest().entityTypes()).hasSize(2);
    }

    @Test
    void aGraphWithOtherInputsAndOutputsIsRejected() throws Exception {
        ObjectNode m = copyTiny();
        byte[] wrong;
        try (var in = getClass().getResourceAsStream("/bundles/wrong-interface.onnx")) {
            wrong = in.readAllBytes();
        }
        Files.write(dir.resolve(ModelBundle.MODEL), wrong);
        ((ObjectNode) m.get("files")).put(ModelBundle.MODEL, ModelBundle.sha256(wrong));
        write(m);
        ModelBundle b = ModelBundle.load(dir);
        assertThatThrownBy(() -> OrtMrcSession.open(b, InferenceOptions.cpu(1)))
                .isInstanceOf(BundleException.class)
                .hasMessageContaining("inputs [x]")
                .hasMessageContaining("input_ids");
    }
}
