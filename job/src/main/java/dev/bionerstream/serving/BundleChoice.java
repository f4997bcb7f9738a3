package dev.bionerstream.serving;

import static dev.bionerstream.serving.ServingOptions.BUNDLE;

import dev.bionerstream.inference.Device;
import dev.bionerstream.model.ModelBundle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Which bundle serves, decided here for the job and the command line alike: the directory {@code
 * model.bundle} names, or {@value #BUNDLE_IN_JAR} for the float16 bundle in the jar; unset, on a CPU,
 * the int8 twin of the jar's bundle when the installation beside the jar has it (faster, same F1 to
 * within 0.42 on every test split, and like every bundle the same answer whatever the batch);
 * otherwise the jar's, the one for GPUs and for a cluster, which has no
 * installation. The choice is made where the job is built and travels to the TaskManagers as the
 * directory in each {@link ServingConfig}, so they need no installation of their own.
 *
 * <p>The installation is the repository ./bioner runs from ({@code bioner.home}); it also holds the
 * Spanish bundle and its int8 twin, which the demo serves by default.
 */
public final class BundleChoice {
    /** The {@code model.bundle} value that names the bundle in the jar, whatever the device. */
    public static final String BUNDLE_IN_JAR = "jar";

    public static final String SPANISH = "bundles/pharmaconer-es";
    private static final String SPANISH_CPU = "bundles/pharmaconer-es-int8";
    private static final String CPU_DEFAULT = "bundles/default-int8";

    /** The job submitted to a cluster, or built by a test: nothing beside the jar. */
    public static final BundleChoice NO_INSTALLATION = new BundleChoice(null);

    private final Path home; // null: no installation

    private BundleChoice(Path home) {
        this.home = home;
    }

    /** The bundles under {@code home}, a repository root. */
    static BundleChoice installedAt(Path home) {
        return new BundleChoice(home);
    }

    /** The repository ./bioner runs from; the working directory when started otherwise. */
    public static BundleChoice ofThisInstallation() {
        return installedAt(Path.of(System.getProperty("bioner.home", ".")));
    }

    /** The bundle directory to serve on {@code device}; null for the bundle in the jar. */
    String bundle(ReadableConfig c, Device device) {
        return c.getOptional(BUNDLE)
                .or(() ->
                        device.cuda() ? Optional.empty() : present(CPU_DEFAULT).map(Path::toString))
                .filter(b -> !b.equals(BUNDLE_IN_JAR))
                .orElse(null);
    }

    /**
     * The Spanish bundle for the device {@code c} names, which a clone always has: its int8 twin on a
     * CPU, as for English; missing, it is an error naming the way out.
     */
    public Path spanish(ReadableConfig c) {
        return (Device.parse(c.get(ServingOptions.DEVICE)).cuda() ? Optional.<Path>empty() : present(SPANISH_CPU))
                .or(() -> present(SPANISH))
                .orElseThrow(() -> new IllegalStateException("the Spanish bundle "
                        + (home == null ? SPANISH : home.resolve(SPANISH).toAbsolutePath())
                        + " is missing (run from the repository, or pass --model.language-bundles none)"));
    }

    /** The bundle folder at {@code relative} in the installation, if its manifest is there. */
    private Optional<Path> present(String relative) {
        return Optional.ofNullable(home)
                .map(h -> h.resolve(relative).toAbsolutePath().normalize())
                .filter(dir -> Files.isRegularFile(dir.resolve(ModelBundle.MANIFEST)));
    }
}
