package dev.bionerstream.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * What a job needs of Kafka's authorizer, checked before it starts: a job whose user lacks one ACL
 * would otherwise start, fail on its first read or write and restart forever. Asks the broker which
 * operations the job's user may do on its topics and its consumer group, and opens a transaction
 * under its transactional-id prefix (exactly-once only). A topic that does not exist is not this
 * check's business; of a consumer group that does not exist yet only DESCRIBE can be checked.
 */
public final class KafkaPermissions {
    private static final Duration TIMEOUT = Duration.ofMinutes(1);

    /** What the job does with a topic, and what the topic is to it (for the message). */
    private record Need(AclOperation operation, String role) {}

    private final KafkaConfig cfg;
    private final Map<String, Need> topics = new LinkedHashMap<>();
    private String group;

    public KafkaPermissions(KafkaConfig cfg) {
        this.cfg = cfg;
    }

    /** The job reads {@code topic} in its consumer group ({@code role}: what the topic is to the job). */
    public KafkaPermissions reads(String topic, String role) {
        topics.put(topic, new Need(AclOperation.READ, role));
        group = cfg.groupId();
        return this;
    }

    public KafkaPermissions writes(String topic, String role) {
        topics.put(topic, new Need(AclOperation.WRITE, role));
        return this;
    }

    /** Throws an {@link IllegalStateException} naming every permission the job's Kafka user lacks. */
    public void check() {
        List<String> missing = new ArrayList<>();
        try (Admin admin = Admin.create(properties())) {
            topics(admin, missing);
            if (group != null) {
                group(admin, missing);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking the Kafka permissions", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(
                    "cannot check the job's Kafka permissions at " + cfg.bootstrapServers() + ": " + e.getMessage(), e);
        }
        if (cfg.deliveryGuarantee() == DeliveryGuarantee.EXACTLY_ONCE) {
            transactions(missing);
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("the job's Kafka user lacks " + String.join("; ", missing)
                    + ". Grant them (k8s/kafka-user.yaml lists the job's ACLs) and start the job again.");
        }
    }

    private void topics(Admin admin, List<String> missing)
            throws InterruptedException, ExecutionException, TimeoutException {
        var described = admin.describeTopics(
                        topics.keySet(), new DescribeTopicsOptions().includeAuthorizedOperations(true))
                .topicNameValues();
        for (Map.Entry<String, Need> t : topics.entrySet()) {
            AclOperation op = t.getValue().operation();
            String topic = "topic '" + t.getKey() + "' (" + t.getValue().role() + ")";
            try {
                TopicDescription d = described.get(t.getKey()).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                if (!allows(d.authorizedOperations(), op)) {
                    missing.add(op + " on " + topic);
                }
            } catch (ExecutionException e) {
                if (e.getCause() instanceof AuthorizationException) {
                    missing.add("DESCRIBE and " + op + " on " + topic);
                } else if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e;
                }
            }
        }
    }

    /** Whether the broker's answer allows {@code op} (null: it did not say, as without an authorizer). */
    private static boolean allows(Set<AclOperation> allowed, AclOperation op) {
        return allowed == null || allowed.contains(op) || allowed.contains(AclOperation.ALL);
    }

    private void group(Admin admin, List<String> missing)
            throws InterruptedException, ExecutionException, TimeoutException {
        try {
            ConsumerGroupDescription d = admin.describeConsumerGroups(
                            List.of(group), new DescribeConsumerGroupsOptions().includeAuthorizedOperations(true))
                    .describedGroups()
                    .get(group)
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            if (!allows(d.authorizedOperations(), AclOperation.READ)) {
                missing.add("READ on group '" + group + "' (kafka.group-id)");
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof AuthorizationException) {
                missing.add("DESCRIBE and READ on group '" + group + "' (kafka.group-id)");
            } else if (!(e.getCause() instanceof GroupIdNotFoundException)) {
                throw e;
            }
            // a group that does not exist yet: DESCRIBE is allowed (the broker checks it first), and READ
            // cannot be asked about without joining or committing to it
        }
    }

    /** A transaction opened under the sinks' prefix: the broker checks WRITE on that transactional id. */
    private void transactions(List<String> missing) {
        Properties p = properties();
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, cfg.transactionalIdPrefix() + "-permission-check");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) TIMEOUT.toMillis());
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
        } catch (AuthorizationException e) {
            missing.add("WRITE on transactional ids starting with '" + cfg.transactionalIdPrefix()
                    + "' (kafka.transactional-id-prefix, the exactly-once sinks)");
        }
    }

    private Properties properties() {
        Properties p = cfg.kafkaClientProperties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cfg.bootstrapServers());
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
        return p;
    }
}
