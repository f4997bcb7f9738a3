package dev.bionerstream.kafka;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/** A record as binary Avro without a header: the format of the job's Avro topics. */
public final class AvroBytes {
    private AvroBytes() {}

    @SuppressWarnings("unchecked")
    public static <T extends SpecificRecord> byte[] of(T record) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
            new SpecificDatumWriter<>((Class<T>) record.getClass()).write(record, enc);
            enc.flush();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
