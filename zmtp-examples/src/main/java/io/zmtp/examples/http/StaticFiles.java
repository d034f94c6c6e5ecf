package io.zmtp.examples.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The web page under {@code /app/}: {@code index.html}, the page's script and the ZWS client {@code zws.js}, read
 * once from this module's resources ({@code web/}). Small and fixed, so they are held as bytes.
 */
final class StaticFiles {
    static final String PREFIX = "/app/";

    /** A file's bytes and content type. */
    record File(byte[] bytes, String contentType) {
    }

    private final Map<String, File> files;

    StaticFiles() {
        files = Map.of(
                PREFIX, load("index.html", "text/html; charset=utf-8"),
                PREFIX + "index.html", load("index.html", "text/html; charset=utf-8"),
                PREFIX + "app.js", load("app.js", "text/javascript; charset=utf-8"),
                PREFIX + "zws.js", load("zws.js", "text/javascript; charset=utf-8"));
    }

    /** The file at {@code path}, or null. */
    File get(String path) {
        return files.get(path);
    }

    private static File load(String name, String contentType) {
        try (InputStream in = StaticFiles.class.getResourceAsStream("/web/" + name)) {
            if (in == null) {
                throw new IllegalStateException("resource /web/" + name + " missing from the jar");
            }
            return new File(in.readAllBytes(), contentType);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
