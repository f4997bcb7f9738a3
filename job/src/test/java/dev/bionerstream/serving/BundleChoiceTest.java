package dev.bionerstream.serving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.bionerstream.inference.Device;
import dev.bionerstream.model.ModelBundle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BundleChoiceTest {
    /** The repository root, as ./bioner passes it in {@code bioner.home}. */
    static final BundleChoice REPOSITORY = BundleChoice.installedAt(Path.of(".."));

    static final Configuration UNSET = new Configuration();
    static final Device CUDA = Device.parse("cuda:0");

    @Test
    void onACpuTheRepositorysInt8TwinOfTheJarsDefaultServes() throws Exception {
        Path int8 = Path.of(REPOSITORY.bundle(UNSET, Device.CPU));
        assertThat(int8).endsWith(Path.of("bundles", "default-int8"));
        ModelBundle bundle = ModelBundle.load(int8);
        ModelBundle jar = ModelBundle.loadDefault();
        assertThat(bundle.manifest().quantized()).isTrue();
        assertThat(bundle.manifest().name()).isEqualTo(jar.manifest().name());
        assertThat(bundle.manifest().version()).startsWith(jar.manifest().version() + "-int8");
        JsonNode source = new ObjectMapper()
                .readTree(int8.resolve(ModelBundle.MANIFEST).toFile())
                .at("/quantization/source");
        assertThat(source.path("model_sha256").asText())
                .as("quantized from the jar's model.onnx")
                .isEqualTo(jar.manifest().files().get("model.onnx"));
    }

    @Test
    void onCudaTheJarsFloat16BundleServes() {
        assertThat(REPOSITORY.bundle(UNSET, CUDA)).isNull();
    }

    @Test
    void withoutTheRepositoryTheJarsBundleServes(@TempDir Path elsewhere) {
        assertThat(BundleChoice.installedAt(elsewhere).bundle(UNSET, Device.CPU))
                .isNull();
        assertThat(BundleChoice.NO_INSTALLATION.bundle(UNSET, Device.CPU))
                .as("a job submitted to a cluster")
                .isNull();
    }

    @Test
    void aBundleTheUserNamesIsKept() {
        Configuration named = Configuration.fromMap(Map.of(ServingOptions.BUNDLE.key(), "/models/mine"));
        for (Device device : new Device[] {Device.CPU, CUDA}) {
            assertThat(REPOSITORY.bundle(named, device)).as(device.toString()).isEqualTo("/models/mine");
            assertThat(BundleChoice.NO_INSTALLATION.bundle(named, device))
                    .as(device.toString())
                    .isEqualTo("/models/mine");
        }
        Configuration jar = Configuration.fromMap(Map.of(ServingOptions.BUNDLE.key(), BundleChoice.BUNDLE_IN_JAR));
        assertThat(REPOSITORY.bundle(jar, Device.CPU))
                .as("jar: the bundle in the jar")
                .isNull();
    }

    @Test
    void theServedConfigPicksByTheDeviceItReads() {
        assertThat(Path.of(ServingConfig.from(UNSET, REPOSITORY).bundle()))
                .endsWith(Path.of("bundles", "default-int8"));
        Configuration cuda = Configuration.fromMap(Map.of(ServingOptions.DEVICE.key(), "cuda:0"));
        assertThat(ServingConfig.from(cuda, REPOSITORY).bundle()).isNull();
        assertThat(ServingConfig.from(UNSET, REPOSITORY))
                .as("equal configs share one model per JVM")
                .isEqualTo(ServingConfig.from(UNSET, REPOSITORY));
    }

    @Test
    void theSpanishBundleIsTheRepositorysOrAnErrorSayingWhatToDo(@TempDir Path elsewhere) throws Exception {
        assertThat(REPOSITORY.spanish(UNSET)).as("on a CPU").endsWith(Path.of("bundles", "pharmaconer-es-int8"));
        Configuration cuda = Configuration.fromMap(Map.of(ServingOptions.DEVICE.key(), "cuda:0"));
        assertThat(REPOSITORY.spanish(cuda)).as("on a GPU").endsWith(Path.of("bundles", "pharmaconer-es"));
        assertThat(Files.isRegularFile(REPOSITORY.spanish(UNSET).resolve(ModelBundle.MANIFEST)))
                .isTrue();
        assertThatThrownBy(() -> BundleChoice.installedAt(elsewhere).spanish(UNSET))
                .hasMessageContaining("--model.language-bundles none");
    }
}
