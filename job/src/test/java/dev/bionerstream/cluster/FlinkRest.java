package dev.bionerstream.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** The calls a user makes to Flink's REST API to deploy and operate the job (the dashboard's calls). */
final class FlinkRest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final String base;

    FlinkRest(String base) {
        this.base = base;
    }

    /** {@code POST /jars/upload}: the jar's id for {@link #run}. */
    String upload(Path jar) throws IOException, InterruptedException {
        String boundary = "----bioner" + UUID.randomUUID();
        byte[] head = ("--" + boundary + "\r\nContent-Disposition: form-data; name=\"jarfile\"; filename=\""
                        + jar.getFileName() + "\"\r\nContent-Type: application/x-java-archive\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8);
        byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/jars/upload"))
                .timeout(Duration.ofMinutes(5))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(BodyPublishers.concat(
                        BodyPublishers.ofByteArray(head), BodyPublishers.ofFile(jar), BodyPublishers.ofByteArray(tail)))
                .build();
        JsonNode answer = send(request);
        String file = answer.path("filename").asText();
        if (file.isEmpty()) {
            throw new IllegalStateException("POST /jars/upload answered " + answer);
        }
        return Path.of(file).getFileName().toString();
    }

    /** {@code POST /jars/<id>/run}: the new job's id. */
    String run(String jarId, String entryClass, List<String> args, int parallelism, Optional<String> savepoint)
            throws IOException, InterruptedException {
        ObjectNode body = JSON.createObjectNode();
        if (entryClass != null) {
            body.put("entryClass", entryClass);
        }
        body.putPOJO("programArgsList", args);
        body.put("parallelism", parallelism);
        savepoint.ifPresent(s -> body.put("savepointPath", s));
        JsonNode answer = post("/jars/" + jarId + "/run", body);
        String job = answer.path("jobid").asText();
        if (job.isEmpty()) {
            throw new IllegalStateException("POST /jars/" + jarId + "/run answered " + answer);
        }
        return job;
    }

    /** {@code PATCH /jobs/<id>?mode=cancel}. */
    void cancel(String job) throws IOException, InterruptedException {
        send(HttpRequest.newBuilder(URI.create(base + "/jobs/" + job + "?mode=cancel"))
                .method("PATCH", BodyPublishers.noBody())
                .build());
    }

    /** {@code POST /jobs/<id>/stop} (stop with savepoint, no drain): the trigger id. */
    String stopWithSavepoint(String job, String targetDirectory) throws IOException, InterruptedException {
        ObjectNode body = JSON.createObjectNode();
        body.put("targetDirectory", targetDirectory);
        body.put("drain", false);
        return post("/jobs/" + job + "/stop", body).path("request-id").asText();
    }

    /**
     * What a stop-with-savepoint came to.
     *
     * @param location the savepoint's location; null when no savepoint was written
     * @param failure why the stop failed (the job's tasks did not all finish, or no savepoint); null
     *     when the job stopped
     */
    record StopOutcome(String location, String failure) {
        boolean stopped() {
            return failure == null;
        }
    }

    /** {@code GET /jobs/<id>/savepoints/<trigger>}: empty while the stop is in progress. */
    Optional<StopOutcome> stopOutcome(String job, String trigger) throws IOException, InterruptedException {
        JsonNode s = get("/jobs/" + job + "/savepoints/" + trigger);
        if (!s.path("status").path("id").asText().equals("COMPLETED")) {
            return Optional.empty();
        }
        JsonNode failure = s.path("operation").path("failure-cause");
        if (failure.isMissingNode() || failure.isNull()) {
            return Optional.of(
                    new StopOutcome(s.path("operation").path("location").asText(), null));
        }
        String trace = failure.path("stack-trace").asText(failure.toString());
        // Flink's StopWithSavepointStoppingException: the savepoint is complete, a task failed while finishing.
        java.util.regex.Matcher written = java.util.regex.Pattern.compile(
                        "A savepoint has been created at: (\\S+), but")
                .matcher(trace);
        return Optional.of(new StopOutcome(written.find() ? written.group(1) : null, trace));
    }

    String jobState(String job) throws IOException, InterruptedException {
        return get("/jobs/" + job).path("state").asText();
    }

    /** The TaskManager ids the job's subtasks are deployed to, one per subtask that has one. */
    List<String> subtaskTaskManagers(String job) throws IOException, InterruptedException {
        List<String> tms = new ArrayList<>();
        for (JsonNode v : get("/jobs/" + job).path("vertices")) {
            for (JsonNode s :
                    get("/jobs/" + job + "/vertices/" + v.path("id").asText()).path("subtasks")) {
                if (s.path("status").asText().equals("RUNNING")) {
                    tms.add(s.path("taskmanager-id").asText());
                }
            }
        }
        return tms;
    }

    /** The TaskManagers the job's subtasks ran on (the latest attempt of each), whatever their state now. */
    java.util.Set<String> taskManagersOf(String job) throws IOException, InterruptedException {
        java.util.Set<String> tms = new java.util.TreeSet<>();
        for (JsonNode v : get("/jobs/" + job).path("vertices")) {
            for (JsonNode s :
                    get("/jobs/" + job + "/vertices/" + v.path("id").asText()).path("subtasks")) {
                String tm = s.path("taskmanager-id").asText();
                if (!tm.isEmpty() && !tm.equals("(unassigned)")) {
                    tms.add(tm);
                }
            }
        }
        return tms;
    }

    /**
     * The documents whose model call has not completed, over all subtasks (the job's {@code
     * documentsInFlight} gauge, as the REST API last fetched it); -1 while the API has no value.
     */
    long documentsInFlight(String job) throws IOException, InterruptedException {
        for (JsonNode v : get("/jobs/" + job).path("vertices")) {
            String metrics = "/jobs/" + job + "/vertices/" + v.path("id").asText() + "/subtasks/metrics";
            for (JsonNode m : get(metrics)) {
                String id = m.path("id").asText();
                if (id.endsWith(".bioner.documentsInFlight")) {
                    JsonNode sum =
                            get(metrics + "?agg=sum&get=" + java.net.URLEncoder.encode(id, StandardCharsets.UTF_8));
                    return sum.path(0).has("sum")
                            ? (long) sum.path(0).path("sum").asDouble()
                            : -1;
                }
            }
        }
        return -1;
    }

    /** Checkpoints of the job completed so far. */
    long completedCheckpoints(String job) throws IOException, InterruptedException {
        return get("/jobs/" + job + "/checkpoints")
                .path("counts")
                .path("completed")
                .asLong();
    }

    /** The root exceptions of the job's failures so far, newest first (names and first lines). */
    List<String> exceptions(String job) throws IOException, InterruptedException {
        List<String> out = new ArrayList<>();
        for (JsonNode e :
                get("/jobs/" + job + "/exceptions").path("exceptionHistory").path("entries")) {
            String trace = e.path("stacktrace").asText();
            out.add(trace.lines()
                    .limit(3)
                    .reduce((a, b) -> a + " | " + b)
                    .orElse(e.path("exceptionName").asText()));
        }
        return out;
    }

    /** TaskManagers registered with the ResourceManager: id -> free slots. */
    java.util.Map<String, Integer> taskManagers() throws IOException, InterruptedException {
        java.util.Map<String, Integer> tms = new java.util.TreeMap<>();
        for (JsonNode tm : get("/taskmanagers").path("taskmanagers")) {
            tms.put(tm.path("id").asText(), tm.path("freeSlots").asInt());
        }
        return tms;
    }

    JsonNode get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET().build());
    }

    private JsonNode post(String path, JsonNode body) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/json")
                .POST(BodyPublishers.ofString(JSON.writeValueAsString(body)))
                .build());
    }

    private JsonNode send(HttpRequest request) throws IOException, InterruptedException {
        var response = http.send(request, BodyHandlers.ofString());
        if (response.statusCode() >= 300) {
            throw new IOException(request.method() + " " + request.uri() + " answered " + response.statusCode() + ": "
                    + response.body());
        }
        return response.body().isBlank() ? JSON.createObjectNode() : JSON.readTree(response.body());
    }
}
