package dev.bionerstream.records;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/** Record values for parser tests, hostile ones included. */
final class Records {
    private Records() {}

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    static byte[] bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return b;
    }

    interface AvroWrites {
        void write(BinaryEncoder e) throws IOException;
    }

    /** Binary Avro written field by field, so it can be anything, valid or not. */
    static byte[] avro(AvroWrites writes) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            BinaryEncoder e = EncoderFactory.get().binaryEncoder(out, null);
            writes.write(e);
            e.flush();
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A record of another version of the Abstract schema: {@code fields} is the JSON of its field list. */
    static byte[] avroOfSchema(String fields, Map<String, Object> values) {
        Schema schema = new Schema.Parser()
                .parse(
                        "{\"type\": \"record\", \"name\": \"Abstract\", \"namespace\": \"dev.bionerstream.avro\", \"fields\": "
                                + fields + "}");
        GenericRecord r = new GenericData.Record(schema);
        values.forEach(r::put);
        return avro(e -> new GenericDatumWriter<GenericRecord>(schema).write(r, e));
    }
}
