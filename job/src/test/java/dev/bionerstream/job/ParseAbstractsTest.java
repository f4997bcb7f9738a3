package dev.bionerstream.job;

import static org.assertj.core.api.Assertions.assertThat;

import dev.bionerstream.kafka.DeadLetters;
import dev.bionerstream.kafka.RawRecord;
import dev.bionerstream.records.InputFormat;
import dev.bionerstream.records.InputRecordDecoder;
import dev.bionerstream.records.RecordParser;
import java.nio.charset.StandardCharsets;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;

class ParseAbstractsTest {
    static OneInputStreamOperatorTestHarness<RawRecord, SourcedAbstract> harness(RecordParser parser) throws Exception {
        return ProcessFunctionTestHarnesses.forProcessFunction(new ParseAbstracts(parser));
    }

    static StreamRecord<RawRecord> record(String value, long offset) {
        return new StreamRecord<>(new RawRecord(null, value.getBytes(StandardCharsets.UTF_8), "abstracts", 1, offset));
    }

    @Test
    void badRecordsLeaveByTheDeadLetterOutputAndTheRestFlows() throws Exception {
        var h = harness(new InputRecordDecoder(InputFormat.JSON));
        h.processElement(record("{oops", 41));
        h.processElement(record("{\"id\": \"9\", \"title\": \"Aspirin\"}", 42));
        assertThat(h.extractOutputValues()).singleElement().satisfies(a -> {
            assertThat(a.value.getId()).isEqualTo("9");
            assertThat(a.offset).isEqualTo(42);
        });
        assertThat(h.getSideOutput(DeadLetters.TAG)).singleElement().satisfies(r -> {
            assertThat(r.getValue().getOffset()).isEqualTo(41);
            assertThat(r.getValue().getPartition()).isEqualTo(1);
            assertThat(r.getValue().getStage()).isEqualTo(DeadLetters.PARSE);
            assertThat(r.getValue().getErrorMessage()).contains("not valid JSON");
            assertThat(new String(r.getValue().getOriginalBytes().array(), StandardCharsets.UTF_8))
                    .isEqualTo("{oops");
        });
        h.close();
    }

    @Test
    void aTombstoneDeletesTheDocumentItsKeyNamesAndAKeylessOneIsADeadLetter() throws Exception {
        var h = harness(new InputRecordDecoder(InputFormat.JSON));
        h.processElement(new StreamRecord<>(
                new RawRecord("90000003".getBytes(StandardCharsets.UTF_8), null, "abstracts", 1, 5)));
        h.processElement(new StreamRecord<>(new RawRecord(null, null, "abstracts", 1, 6)));
        h.processElement(new StreamRecord<>(
                new RawRecord("bad\u0000id".getBytes(StandardCharsets.UTF_8), null, "abstracts", 1, 7)));
        assertThat(h.extractOutputValues()).singleElement().satisfies(a -> {
            assertThat(a.isDeletion()).isTrue();
            assertThat(a.deletedId).isEqualTo("90000003");
            assertThat(a.value).isNull();
            assertThat(a.offset).isEqualTo(5);
        });
        assertThat(h.getSideOutput(DeadLetters.TAG))
                .extracting(r -> r.getValue().getOffset() + ": " + r.getValue().getErrorMessage())
                .containsExactly(
                        "6: record has neither value nor key: a tombstone must name the document to delete",
                        "7: field 'id' contains a control character");
        h.close();
    }

    @Test
    void aRecordBeyondTheJsonLimitsIsADeadLetterNotARestart() throws Exception {
        var h = harness(new InputRecordDecoder(InputFormat.JSON));
        h.processElement(record("{\"id\": \"1\", \"x\": " + "[".repeat(1001) + "]".repeat(1001) + "}", 7));
        h.processElement(record("{\"id\": \"2\", \"title\": \"Aspirin\"}", 8));
        assertThat(h.extractOutputValues()).singleElement().satisfies(a -> assertThat(a.offset)
                .isEqualTo(8));
        assertThat(h.getSideOutput(DeadLetters.TAG)).singleElement().satisfies(r -> {
            assertThat(r.getValue().getOffset()).isEqualTo(7);
            assertThat(r.getValue().getErrorMessage()).contains("nesting depth");
        });
        h.close();
    }

    @Test
    void aParserBugCostsTheRecordNotTheJob() throws Exception {
        var h = harness(value -> {
            throw new IllegalStateException("parser bug");
        });
        h.processElement(record("{\"id\": \"1\", \"title\": \"Aspirin\"}", 3));
        assertThat(h.extractOutputValues()).isEmpty();
        assertThat(h.getSideOutput(DeadLetters.TAG)).singleElement().satisfies(r -> {
            assertThat(r.getValue().getStage()).isEqualTo(DeadLetters.PARSE);
            assertThat(r.getValue().getErrorClass()).isEqualTo(IllegalStateException.class.getName());
            assertThat(r.getValue().getErrorMessage()).isEqualTo("parser bug");
        });
        h.close();
    }
}
