package dev.bionerstream.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

class ParseAbstractsTest {
    @Test
    void badRecordsLeaveByTheDeadLetterOutputAndTheRestFlows() throws Exception {
        var h = new OneInputStreamOperatorTestHarness<>(new ProcessOperator<>(new ParseAbstracts(new AbstractParser("json"))));
        h.open();
        h.processElement(new StreamRecord<>(new RawRecord("{oops".getBytes(StandardCharsets.UTF_8), "abstracts", 1, 41)));
        h.processElement(new StreamRecord<>(new RawRecord("{\"id\": \"9\", \"title\": \"Aspirin\"}".getBytes(StandardCharsets.UTF_8), "abstracts", 1, 42)));
        assertThat(h.extractOutputValues()).singleElement().satisfies(a -> {
            assertThat(a.value.getId()).isEqualTo("9");
            assertThat(a.offset).isEqualTo(42);
        });
        assertThat(h.getSideOutput(DeadLetters.TAG)).singleElement().satisfies(r -> {
            assertThat(r.getValue().getOffset()).isEqualTo(41);
            assertThat(r.getValue().getPartition()).isEqualTo(1);
            assertThat(r.getValue().getStage()).isEqualTo(DeadLetters.PARSE);
            assertThat(r.getValue().getErrorMessage()).contains("not valid JSON");
            assertThat(new String(r.getValue().getOriginalBytes().array(), StandardCharsets.UTF_8)).isEqualTo("{oops");
        });
        h.close();
    }
}
