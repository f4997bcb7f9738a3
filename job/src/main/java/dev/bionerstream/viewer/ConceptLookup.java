package dev.bionerstream.viewer;

import java.util.List;

/**
 * The concepts a searched name stands for in the linker's vocabularies. The command line wires it
 * in: the viewer itself knows only the index.
 */
@FunctionalInterface
public interface ConceptLookup {
    /** No vocabularies: an entity is searched by its text and as a concept id only. */
    ConceptLookup NONE = (name, type) -> List.of();

    /** Ids of the concepts named exactly {@code name}, of {@code type} when given (null: any), most preferred first. */
    List<String> idsNamed(String name, String type);
}
