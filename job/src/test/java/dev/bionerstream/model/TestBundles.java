package dev.bionerstream.model;

import java.net.URISyntaxException;
import java.nio.file.Path;

/** The folders of model-export's tiny test bundles ({@code bioner_mrc.tiny_bundle}) in the test resources. */
public final class TestBundles {
    private TestBundles() {}

    /** @param name a folder under the test resources' {@code bundles/}, e.g. {@code tiny-gated} */
    public static Path path(String name) {
        try {
            return Path.of(TestBundles.class.getResource("/bundles/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("test bundle " + name + ": " + e.getMessage(), e);
        }
    }
}
