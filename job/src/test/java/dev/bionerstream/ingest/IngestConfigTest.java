package dev.bionerstream.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bionerstream.options.OptionKeys;
import org.junit.jupiter.api.Test;

/** The feed job's keys: its own and the shared Kafka ones, none of the annotation job's. */
class IngestConfigTest {
    static IngestConfig parse(String... args) {
        return IngestConfig.from(OptionKeys.parseArgs(args));
    }

    @Test
    void readsItsOwnAndTheSharedKafkaKeys() {
        IngestConfig c = parse(
                "--ingest.directory", "/data/pubmed",
                "--kafka.bootstrap-servers", "k:1",
                "--kafka.properties.security.protocol", "SASL_SSL");
        assertThat(c.directory()).isEqualTo("/data/pubmed");
        assertThat(c.kafka().inputTopic()).isEqualTo("abstracts");
        assertThat(c.kafka().groupId()).isEqualTo(IngestConfig.DEFAULT_GROUP_ID);
        assertThat(c.kafka().kafkaClientProperties()).containsEntry("security.protocol", "SASL_SSL");
    }

    @Test
    void refusesTheAnnotationJobsKeys() {
        assertThatThrownBy(() ->
                        parse("--ingest.directory", "/d", "--kafka.bootstrap-servers", "k:1", "--model.bundle", "/m"))
                .hasMessageContaining("unknown option --model.bundle");
        assertThatThrownBy(() -> parse(
                        "--ingest.directory", "/d", "--kafka.bootstrap-servers", "k:1", "--opensearch.hosts", "h"))
                .hasMessageContaining("unknown option --opensearch.hosts");
        assertThatThrownBy(() -> parse(
                        "--ingest.directory",
                        "/d",
                        "--kafka.bootstrap-servers",
                        "k:1",
                        "--kafka.starting-offsets",
                        "latest"))
                .hasMessageContaining("unknown option --kafka.starting-offsets");
    }
}
