package dev.bionerstream.model;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;

/** One entity type the model extracts and the natural-language query that asks for it. */
@JsonIgnoreProperties(ignoreUnknown = true) // like every bundle.json object: later exports may add fields
public record EntityQuery(@JsonProperty("name") String name, @JsonProperty("query") String query) {}
