package dev.bionerstream.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bionerstream.inference.Device;
import dev.bionerstream.model.ModelBundle;
import dev.bionerstream.serving.ServingConfig;
import dev.bionerstream.serving.ServingOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShippedBundlesTest {
    /** The repository root, as ./bioner passes it in {@code bioner.home}. */
    static final ShippedBundles REPOSITORY = new ShippedBundles(Path.of(".."));

    @Test
    void onACpuTheRepositorysInt8TwinOfTheJarsDefaultServes() throws Exception {
        Path int8 = REPOSITORY.defaultFor(Device.CPU).orElseThrow();
        ModelBundle bundle = ModelBundle.load(int8);
        ModelBundle jar = ModelBundle.loadDefault();
        assertThat(bundle.manifest().quantized()).isTrue();
        assertThat(bundle.manifest().name()).isEqualTo(jar.manifest().name());
        assertThat(bundle.manifest().version()).isEqualTo(jar.manifest().version() + "-int8");
        JsonNode source = new ObjectMapper()
                .readTree(int8.resolve(ModelBundle.MANIFEST).toFile())
                .at("/quantization/source");
        assertThat(source.path("model_sha256").asText())
                .as("quantized from the jar's model.onnx")
                .isEqualTo(jar.manifest().files().get("model.onnx"));
    }

    @Test
    void onCudaTheJarsFloat16BundleServes() {
        assertThat(REPOSITORY.defaultFor(Device.parse("cuda:0"))).isEmpty();
    }

    @Test
    void withoutTheRepositoryTheJarsBundleServes(@TempDir Path elsewhere) {
        assertThat(new ShippedBundles(elsewhere).defaultFor(Device.CPU)).isEmpty();
    }

    @Test
    void aBundleTheUserNamesIsKept(@TempDir Path home) throws Exception {
        Configuration named = new Configuration();
        named.set(ServingOptions.BUNDLE, "/models/mine");
        REPOSITORY.setDefaultBundle(named);
        assertThat(named.get(ServingOptions.BUNDLE)).isEqualTo("/models/mine");

        Configuration unset = new Configuration();
        REPOSITORY.setDefaultBundle(unset);
        assertThat(Path.of(unset.get(ServingOptions.BUNDLE))).endsWith(Path.of("bundles", "default-int8"));

        Configuration jar = new Configuration();
        jar.set(ServingOptions.BUNDLE, ServingConfig.BUNDLE_IN_JAR);
        REPOSITORY.setDefaultBundle(jar);
        assertThat(ServingConfig.from(jar).bundle())
                .as("jar: the bundle in the jar")
                .isNull();
    }

    @Test
    void theSpanishBundleIsTheRepositorysOrAnErrorSayingWhatToDo(@TempDir Path elsewhere) throws Exception {
        assertThat(Files.isRegularFile(REPOSITORY.spanish().resolve(ModelBundle.MANIFEST)))
                .isTrue();
        assertThatThrownBy(() -> new ShippedBundles(elsewhere).spanish())
                .hasMessageContaining("--model.language-bundles none");
    }
}
