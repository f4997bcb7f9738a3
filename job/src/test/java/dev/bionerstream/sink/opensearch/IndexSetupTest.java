package dev.bionerstream.sink.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class IndexSetupTest {
    private static final JsonNode JAR = mappings();

    private static JsonNode mappings() {
        try {
            return DocumentJsonConverter.JSON.readTree(IndexSetup.mappingJson()).get("mappings");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void anIndexWithEveryFieldOfTheJarsMappingNeedsNoUpdate() {
        ObjectNode withMore = JAR.deepCopy();
        ((ObjectNode) withMore.get("properties")).putObject("addedByAnOperator").put("type", "keyword");
        assertThat(IndexSetup.hasAllFields(JAR, JAR)).isTrue();
        assertThat(IndexSetup.hasAllFields(withMore, JAR)).isTrue();
    }

    @Test
    void aMissingFieldNestedOrNotNeedsTheUpdate() {
        ObjectNode earlier = JAR.deepCopy();
        ((ObjectNode) earlier.get("properties")).remove("concepts");
        assertThat(IndexSetup.hasAllFields(earlier, JAR)).isFalse();
        ObjectNode nested = JAR.deepCopy();
        ((ObjectNode) nested.at("/properties/entities/properties")).remove("conceptId");
        assertThat(IndexSetup.hasAllFields(nested, JAR)).isFalse();
    }
}
