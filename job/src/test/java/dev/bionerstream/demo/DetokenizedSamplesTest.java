package dev.bionerstream.demo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The shipped samples are what {@link DetokenizedSamples} writes: rewriting them changes nothing, so
 * the tool still reproduces them and a hand edit that breaks the spacing or the gold offsets shows.
 */
class DetokenizedSamplesTest {
    @Test
    void theShippedSamplesAreAlreadyDetokenized() throws Exception {
        for (String resource : new String[] {SampleAbstracts.RESOURCE, SampleAbstracts.SPANISH_RESOURCE}) {
            var lines = SampleAbstracts.load(resource, Integer.MAX_VALUE);
            assertThat(lines).as(resource).isNotEmpty();
            for (String line : lines) {
                assertThat(DetokenizedSamples.rewrite(line)).as(resource).isEqualTo(line);
            }
        }
    }
}
