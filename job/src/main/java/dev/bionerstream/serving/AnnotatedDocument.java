package dev.bionerstream.serving;

import dev.bionerstream.avro.TextField;
import dev.bionerstream.engine.Entity;
import java.util.List;

/** The entities of one document's fields, its sentence count and how its windows were served. */
public record AnnotatedDocument(List<FieldEntity> entities, int sentences, List<WindowResult> windows) {

    /** An entity and the field whose text its offsets refer to. */
    public record FieldEntity(TextField field, Entity entity) {}
}
