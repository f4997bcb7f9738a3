package dev.bionerstream.cli;

import picocli.CommandLine.Option;

/** The broker option of the commands that talk to Kafka directly (import, export). */
final class KafkaArgs {
    @Option(names = "--kafka.bootstrap-servers", required = true, description = "Kafka bootstrap servers")
    String bootstrapServers;
}
