package dev.bionerstream.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.bionerstream.batching.BatchPolicy;
import dev.bionerstream.batching.BatchSettings;
import dev.bionerstream.engine.BatchSize;
import dev.bionerstream.engine.GateSetting;
import dev.bionerstream.inference.Device;
import dev.bionerstream.inference.GraphOptimization;
import dev.bionerstream.kafka.OutputFormat;
import dev.bionerstream.options.OptionKeys;
import dev.bionerstream.records.InputFormat;
import dev.bionerstream.serving.BundleChoice;
import dev.bionerstream.serving.ServingConfig;
import java.time.Duration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.junit.jupiter.api.Test;

class JobConfigTest {
    static JobConfig parse(String... args) {
        return JobConfig.from(OptionKeys.parseArgs(args), BundleChoice.NO_INSTALLATION);
    }

    @Test
    void defaultsAndOverridesFromTheCommandLine() {
        JobConfig c = parse(
                "--kafka.bootstrap-servers",
                "k1:9092,k2:9092",
                "--batch.max-wait=5 ms",
                "--model.device",
                "cuda:1",
                "--kafka.starting-offsets",
                "timestamp:1732233600000",
                "--kafka.properties.security.protocol",
                "SASL_SSL",
                "--model.entity-types",
                "chemical,disease",
                "--model.optimization",
                "basic");
        assertThat(c.kafka().bootstrapServers()).isEqualTo("k1:9092,k2:9092");
        assertThat(c.kafka().inputTopic()).isEqualTo("abstracts");
        assertThat(c.kafka().deliveryGuarantee()).isEqualTo(DeliveryGuarantee.EXACTLY_ONCE);
        assertThat(c.serving().batchMaxWait()).isEqualTo(Duration.ofMillis(5));
        assertThat(c.serving().batchMaxSize()).isEqualTo(new BatchSize(32));
        assertThat(c.serving().gate()).isEqualTo(GateSetting.BUNDLE);
        assertThat(c.serving().inference().device().cuda()).isTrue();
        assertThat(c.serving().inference().device().id()).isEqualTo(1);
        assertThat(c.startingOffsets()).isEqualTo(new StartingOffsets(StartingOffsets.Kind.TIMESTAMP, 1732233600000L));
        assertThat(c.startingOffsets()).hasToString("timestamp:1732233600000");
        assertThat(c.inputFormat()).isEqualTo(InputFormat.JSON);
        assertThat(c.kafka().outputFormat()).isEqualTo(OutputFormat.AVRO);
        assertThat(c.kafka().kafkaClientProperties()).containsEntry("security.protocol", "SASL_SSL");
        assertThat(c.serving().entityTypes()).containsExactly("chemical", "disease");
        assertThat(c.serving().inference().optimization()).isEqualTo(GraphOptimization.BASIC);
        assertThat(c.startingOffsets().initializer()).isNotNull();
    }

    @Test
    void runnersAreOnePerCoreOnACpuLeftToItsDefaultsAndOneOtherwise() {
        int cores = Runtime.getRuntime().availableProcessors();
        ServingConfig cpu = parse("--kafka.bootstrap-servers", "k:1").serving();
        assertThat(cpu.runnersHere()).isEqualTo(cores);
        assertThat(cpu.inferenceHere().intraOpThreads()).isEqualTo(1);
        ServingConfig threads = parse("--kafka.bootstrap-servers", "k:1", "--model.threads", "2")
                .serving();
        assertThat(threads.runnersHere()).isEqualTo(1);
        assertThat(threads.inferenceHere().intraOpThreads()).isEqualTo(2);
        ServingConfig gpu = parse("--kafka.bootstrap-servers", "k:1", "--model.device", "cuda:0")
                .serving();
        assertThat(gpu.runnersHere()).isEqualTo(1);
        assertThat(gpu.inferenceHere()).isEqualTo(gpu.inference());
        ServingConfig given = parse("--kafka.bootstrap-servers", "k:1", "--model.runners", "3")
                .serving();
        assertThat(given.runnersHere()).isEqualTo(3);
        assertThat(given.inferenceHere().intraOpThreads()).isZero(); // all cores, as model.threads 0 says
        assertThatThrownBy(() -> parse("--kafka.bootstrap-servers", "k:1", "--model.runners", "-1"))
                .hasMessageContaining("--model.runners must be 0 (one per core on a CPU) or more, got -1");
    }

    @Test
    void batchingFollowsTheDeviceTheSessionRunsOn() {
        ServingConfig gpu = parse(
                        "--kafka.bootstrap-servers", "k:1", "--model.device", "cuda:0", "--batch.max-size", "8")
                .serving();
        assertThat(gpu.batching(Device.parse("cuda:0")))
                .isEqualTo(new BatchSettings(new BatchSize(8), Duration.ofMillis(20), 4000, BatchPolicy.FILL));
        // CUDA that could not start: the session runs on the CPU, and batches as a CPU's
        assertThat(gpu.batching(Device.CPU).policy()).isEqualTo(BatchPolicy.SIMILAR_LENGTHS);
    }

    @Test
    void invalidSettingsAreRejectedWithTheFix() {
        assertThatThrownBy(() -> parse("--kafka.input-topic", "x"))
                .hasMessageContaining("--kafka.bootstrap-servers is required");
        assertThatThrownBy(() -> parse("--kafka.bootstrap-servers", "k:1", "--kafka.starting-offsets", "yesterday"))
                .hasMessageContaining("earliest, latest, committed or timestamp");
        assertThatThrownBy(() -> parse("--kafka.bootstrap-servers", "k:1", "--batch.max-size", "0"))
                .hasMessage("--batch.max-size must be >= 1, got 0");
        assertThatThrownBy(() -> parse("--kafka.bootstrap-servers", "k:1", "--model.gate", "sometimes"))
                .hasMessage("--model.gate must be bundle, on, off or a threshold between 0 and 1, got sometimes");
        assertThatThrownBy(() -> parse("--kafka.bootstrap-servers", "k:1", "--model.device", "tpu"))
                .hasMessageContaining("cpu, cuda or cuda:N");
        assertThatThrownBy(() -> parse("--kafka.bootstrap-servers", "k:1", "--kafka.delivery-guarantee", "twice"))
                .hasMessage("--kafka.delivery-guarantee must be exactly-once, at-least-once or none, got twice");
        assertThatThrownBy(() -> OptionKeys.parseArgs("kafka.bootstrap-servers"))
                .hasMessageContaining("expected --key value");
        assertThatThrownBy(() -> parse("--kafka.bootstrap-servers", "k:1", "--model.optimization", "max"))
                .hasMessage("--model.optimization must be none, basic, extended or all, got max");
        assertThatThrownBy(() -> parse("--kafka.bootstrap-servers", "k:1", "--kafka.input-format", "xml"))
                .hasMessageContaining("--kafka.input-format must be json or avro, got xml");
        assertThatThrownBy(() -> parse("--kafka.bootstrap-servers", "k:1", "--kafka.output-format", "xml"))
                .hasMessage("--kafka.output-format must be avro or json, got xml");
        assertThatThrownBy(() -> parse("--kafka.bootstrap-servers", "k:1", "--job.parallelism", "0"))
                .hasMessageContaining("--job.parallelism must be >= 1");
    }

    @Test
    void outputFormatIsWrittenAsItsHelpShowsIt() {
        assertThat(parse("--kafka.bootstrap-servers", "k:1", "--kafka.output-format", "json")
                        .kafka()
                        .outputFormat())
                .isEqualTo(OutputFormat.JSON);
        assertThat(parse("--kafka.bootstrap-servers", "k:1", "--kafka.output-format", "AVRO")
                        .kafka()
                        .outputFormat())
                .isEqualTo(OutputFormat.AVRO);
        assertThat(OutputFormat.AVRO).hasToString("avro");
    }

    @Test
    void theFixedValueSetsAreReadAsTheDocsWriteThemInAnyCase() {
        JobConfig c = parse(
                "--kafka.bootstrap-servers",
                "k:1",
                "--kafka.delivery-guarantee",
                "At-Least-Once",
                "--kafka.input-format",
                "AVRO",
                "--model.optimization",
                "None");
        assertThat(c.kafka().deliveryGuarantee()).isEqualTo(DeliveryGuarantee.AT_LEAST_ONCE);
        assertThat(c.inputFormat()).isEqualTo(InputFormat.AVRO);
        assertThat(c.serving().inference().optimization()).isEqualTo(GraphOptimization.NONE);
    }

    @Test
    void entityTypesAreCommaSeparatedAsDocumented() {
        JobConfig c = parse("--kafka.bootstrap-servers", "k:1", "--model.entity-types", "chemical, disease,gene");
        assertThat(c.serving().entityTypes()).containsExactly("chemical", "disease", "gene");
    }

    @Test
    void aMistypedKeyIsRejectedWithTheNearestValidOne() {
        assertThatThrownBy(() -> parse("--kafka.bootstrap-servers", "k:1", "--batch.max-sise", "8"))
                .hasMessageContaining("unknown option --batch.max-sise; did you mean --batch.max-size?");
        assertThatThrownBy(() -> parse("--kafka.bootstrap-servers", "k:1", "--opensearch.bulk.max-action", "8"))
                .hasMessageContaining("did you mean --opensearch.bulk.max-actions?");
        assertThat(parse("--kafka.bootstrap-servers", "k:1", "--kafka.properties.anything.goes", "x")
                        .kafka()
                        .kafkaProperties())
                .containsEntry("anything.goes", "x");
    }

    @Test
    void aKeyWithoutItsValueIsAnErrorNotTrue() {
        assertThatThrownBy(() -> OptionKeys.parseArgs("--kafka.bootstrap-servers"))
                .hasMessageContaining("--kafka.bootstrap-servers needs a value");
        assertThatThrownBy(() -> OptionKeys.parseArgs("--kafka.bootstrap-servers", "--job.parallelism", "2"))
                .hasMessageContaining("--kafka.bootstrap-servers needs a value");
    }
}
