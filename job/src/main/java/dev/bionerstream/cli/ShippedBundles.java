package dev.bionerstream.cli;

import dev.bionerstream.inference.Device;
import dev.bionerstream.model.ModelBundle;
import dev.bionerstream.serving.ServingOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.flink.configuration.Configuration;

/**
 * The bundles the repository ships beside the jar, under its root ({@code bioner.home}, which
 * ./bioner sets): the default's int8 twin, which runs about twice as fast on a CPU for at most 0.21
 * F1, and the Spanish model. The jar keeps the float16 default: the one for GPUs, and for a cluster
 * or a hand-made classpath without the repository.
 */
final class ShippedBundles {
    static final String CPU_DEFAULT = "bundles/default-int8";
    static final String SPANISH = "bundles/pharmaconer-es";

    private final Path home;

    ShippedBundles(Path home) {
        this.home = home;
    }

    /** The repository ./bioner runs from; the working directory when started otherwise. */
    static ShippedBundles ofThisInstallation() {
        return new ShippedBundles(Path.of(System.getProperty("bioner.home", ".")));
    }

    /**
     * The bundle a command serves when it is given none: on a CPU the int8 default if this
     * installation has it; otherwise empty, meaning the float16 bundle in the jar.
     */
    Optional<Path> defaultFor(Device device) {
        return device.cuda() ? Optional.empty() : present(CPU_DEFAULT);
    }

    /** Sets {@code model.bundle} to {@link #defaultFor} the configured device when the options leave it unset. */
    void setDefaultBundle(Configuration options) {
        if (options.getOptional(ServingOptions.BUNDLE).isEmpty()) {
            defaultFor(Device.parse(options.get(ServingOptions.DEVICE)))
                    .ifPresent(dir -> options.set(ServingOptions.BUNDLE, dir.toString()));
        }
    }

    /** The Spanish bundle, which a clone always has: missing, it is an error naming the way out. */
    Path spanish() {
        return present(SPANISH)
                .orElseThrow(() -> new IllegalStateException("the Spanish bundle "
                        + home.resolve(SPANISH).toAbsolutePath()
                        + " is missing (run from the repository, or pass --model.language-bundles none)"));
    }

    /** The bundle folder at {@code relative} under the installation, if its manifest is there. */
    private Optional<Path> present(String relative) {
        Path dir = home.resolve(relative);
        return Files.isRegularFile(dir.resolve(ModelBundle.MANIFEST))
                ? Optional.of(dir.toAbsolutePath().normalize())
                : Optional.empty();
    }
}
