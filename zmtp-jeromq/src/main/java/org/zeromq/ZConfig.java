package org.zeromq;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Map.Entry;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A tree of named properties read from and written to the ZeroMQ Property Language (ZPL), as JeroMQ 0.6.0's
 * {@code ZConfig} (CZMQ's {@code zconfig}). Certificates ({@link ZCert}) are ZPL files.
 *
 * <p>In ZPL each line is a property: a name, optionally {@code = value}; indentation by four spaces makes a
 * property the child of the one above it; {@code #} starts a comment.
 * <pre>
 * # a comment
 * context
 *     iothreads = 1
 * main
 *     frontend
 *         bind = "tcp://*:5555"    # quoted, with ' or "
 * </pre>
 * A node is named by its path from the root: {@code main/frontend/bind}. {@link #putValue} creates the nodes on its
 * path; {@link #getValue} follows it.
 *
 * <p>As in JeroMQ, a node's children have distinct names (a second child with a name replaces the first, also when
 * loading), {@link #save} writes each value in double quotes, and a line starting with a digit that is not a
 * property (such as a {@code 1. Example} heading) is skipped when loading. Unlike JeroMQ, children are kept and saved
 * in the order they were added (JeroMQ: hash order), files are read and written as UTF-8 (JeroMQ: the platform's
 * charset), {@code name=value} without spaces and properties whose name starts with a digit are read (the spec allows
 * both; JeroMQ skips every line starting with a digit), and {@link #putValue} rejects names with a space, a line
 * break, {@code =}, {@code #} or a quote, and values with a line break, which would otherwise write a file that reads
 * back as other properties. Names may hold characters the spec's names don't (such as the {@code :} of
 * {@code putValue("inproc://test", ...)}, which JeroMQ accepts): they are written and read back as they are.
 *
 * <p>Not thread-safe.
 *
 * @see <a href="https://rfc.zeromq.org/spec/4/">4/ZPL</a>
 */
public class ZConfig {
    /**
     * Name characters: ZPL's (letters, digits and {@code $-_@.&+/}) and anything else that can't end a name or
     * start a value or comment: no white space, {@code =}, {@code #} or quote.
     */
    private static final String NAME_CHARS = "[^\\s=#\"']";
    private static final Pattern NAME = Pattern.compile(NAME_CHARS + "+");
    /** indent, name, and either nothing or {@code = value}, then an optional comment. */
    private static final Pattern LINE = Pattern.compile(
            "^( *)(" + NAME_CHARS + "+) *(?:(#.*)|= *(?:([\"'])(.*?)\\4 *(?:#.*)?|([^#]*)(?:#.*)?))?$");
    /** A line JeroMQ skips: it starts with a digit (after spaces). */
    private static final Pattern DIGIT_FIRST = Pattern.compile("^ *[0-9].*");
    private static final int INDENT = 4;

    private final String name;
    private final Map<String, ZConfig> children = new LinkedHashMap<>();
    private final List<String> comments = new ArrayList<>();
    private String value;

    /**
     * A node named {@code name}, added as the last child of {@code parent} (replacing a child of the same name).
     *
     * @param name   the node's name ("root" for a root, by convention)
     * @param parent the node to add it to, or null for a root
     */
    public ZConfig(String name, ZConfig parent) {
        this.name = name;
        if (parent != null) {
            parent.children.remove(name);
            parent.children.put(name, this);
        }
    }

    /** The child named {@code name}, or null. */
    public ZConfig getChild(String name) {
        return children.get(name);
    }

    /**
     * Every value below this node, by path relative to it ({@code curve/public-key}); nodes without a value are
     * left out. A new map, in the nodes' order.
     */
    public Map<String, String> getValues() {
        Map<String, String> values = new LinkedHashMap<>();
        collectValues("", values);
        return values;
    }

    private void collectValues(String prefix, Map<String, String> values) {
        for (ZConfig child : children.values()) {
            String path = prefix + child.name;
            if (child.value != null) {
                values.put(path, child.value);
            }
            child.collectValues(path + '/', values);
        }
    }

    /** The node's name. */
    public String getName() {
        return name;
    }

    /**
     * The value at {@code path}.
     *
     * @return the value, or null if the path does not exist or its node has no value
     */
    public String getValue(String path) {
        return getValue(path, null);
    }

    /**
     * The value at {@code path}, or {@code defaultValue} if the path does not exist. As in JeroMQ, a node that
     * exists without a value gives null, not the default.
     *
     * @param path slash-separated names from this node; empty segments and a leading slash are ignored
     */
    public String getValue(String path, String defaultValue) {
        ZConfig node = locate(path);
        return node == null ? defaultValue : node.value;
    }

    /** Whether a node exists at {@code path} (with a value or not). */
    public boolean pathExists(String path) {
        return locate(path) != null;
    }

    private ZConfig locate(String path) {
        ZConfig node = this;
        for (String segment : path.split("/")) {
            if (!segment.isEmpty()) {
                node = node.children.get(segment);
                if (node == null) {
                    return null;
                }
            }
        }
        return node;
    }

    /**
     * Adds a comment, written as {@code # comment} lines before this node when saved. Comments in a loaded file
     * are not kept.
     */
    public void addComment(String comment) {
        comments.add(comment);
    }

    /**
     * Sets the value at {@code path}, creating the nodes on the way.
     *
     * @param path  slash-separated names from this node; empty segments and a leading slash are ignored
     * @param value the value, or null for none
     * @return the node at {@code path}
     * @throws IllegalArgumentException if a name has white space, {@code =}, {@code #} or a quote, or the value has
     *                                  a line break
     */
    public ZConfig putValue(String path, String value) {
        if (value != null && (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0)) {
            throw new IllegalArgumentException("ZPL value for " + path + " has a line break");
        }
        ZConfig node = this;
        for (String segment : path.split("/")) {
            if (segment.isEmpty()) {
                continue;
            }
            if (!NAME.matcher(segment).matches()) {
                throw new IllegalArgumentException("ZPL name: '" + segment + "' in " + path
                        + " (expected: no white space, =, # or quote)");
            }
            ZConfig child = node.children.get(segment);
            node = child != null ? child : new ZConfig(segment, node);
        }
        node.value = value;
        return node;
    }

    /** Copies every value below {@code src} to the same paths below this node. */
    public void putValues(ZConfig src) {
        for (Entry<String, String> entry : src.getValues().entrySet()) {
            putValue(entry.getKey(), entry.getValue());
        }
    }

    /**
     * Saves this node and everything below it to a file, replacing it, and creates its directory if needed; "-"
     * prints to standard output (which stays open).
     *
     * @return the file, or null for "-"
     * @throws IOException if the file cannot be written
     */
    public File save(String filename) throws IOException {
        if ("-".equals(filename)) {
            Writer out = new OutputStreamWriter(System.out, StandardCharsets.UTF_8);
            save(out);
            out.flush();
            return null;
        }
        Path file = Paths.get(filename);
        save(file, false);
        return file.toFile();
    }

    /**
     * Saves to {@code file}, replacing it and creating its directory if needed; with {@code ownerOnly} the new file
     * is readable and writable by its owner only where the file system has POSIX permissions, as CZMQ writes
     * secret certificates.
     */
    void save(Path file, boolean ownerOnly) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.deleteIfExists(file);
        if (ownerOnly && file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            save(out);
        }
    }

    /**
     * Writes this node and everything below it as ZPL: each node's comments, then the node (this node itself has
     * no line when it is the root, at depth 0), its children indented four spaces deeper.
     *
     * @throws IOException if the writer fails
     */
    public void save(Writer writer) throws IOException {
        Deque<ZConfig> nodes = new ArrayDeque<>();
        Deque<Integer> depths = new ArrayDeque<>();
        nodes.push(this);
        depths.push(0);
        while (!nodes.isEmpty()) {
            ZConfig node = nodes.pop();
            int depth = depths.pop();
            node.writeLine(writer, depth);
            List<ZConfig> kids = new ArrayList<>(node.children.values());
            for (int i = kids.size() - 1; i >= 0; i--) {
                nodes.push(kids.get(i));
                depths.push(depth + 1);
            }
        }
    }

    private void writeLine(Writer writer, int depth) throws IOException {
        if (!comments.isEmpty()) {
            for (String comment : comments) {
                writer.append("# ").append(comment).append('\n');
            }
            writer.append('\n');
        }
        if (depth > 0) {
            writer.append(" ".repeat((depth - 1) * INDENT)).append(name);
            if (value != null) {
                writer.append(" = \"").append(value).append('"');
            }
            writer.append('\n');
        }
    }

    /**
     * Reads a ZPL file (UTF-8) into a tree under a node named "root".
     *
     * @throws IOException   if the file cannot be read
     * @throws ReadException if a line is not ZPL, or is indented more than one level below the line above it
     */
    public static ZConfig load(String filename) throws IOException {
        try (BufferedReader reader = Files.newBufferedReader(Paths.get(filename), StandardCharsets.UTF_8)) {
            return load(reader);
        }
    }

    /** Reads ZPL from {@code input}; the reader stays open. */
    static ZConfig load(Reader input) throws IOException {
        BufferedReader reader = input instanceof BufferedReader ? (BufferedReader) input : new BufferedReader(input);
        ZConfig root = new ZConfig("root", null);
        // path.get(d) is the last node read at depth d (the root at 0): a line at depth d + 1 is its child.
        List<ZConfig> path = new ArrayList<>();
        path.add(root);
        int lineNumber = 0;
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            lineNumber++;
            String trimmed = line.trim();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            Matcher m = LINE.matcher(line);
            if (!m.matches()) {
                if (DIGIT_FIRST.matcher(line).matches()) {
                    continue; // as JeroMQ, which skips every such line
                }
                throw new ReadException("Couldn't process line", line, new AtomicInteger(lineNumber));
            }
            int depth = m.group(1).length() / INDENT + 1;
            if (depth > path.size()) {
                throw new ReadException("Level mismatch in line", line, new AtomicInteger(lineNumber));
            }
            ZConfig node = new ZConfig(m.group(2), path.get(depth - 1));
            if (m.group(5) != null) {
                node.value = m.group(5);
            } else if (m.group(6) != null) {
                node.value = m.group(6).trim();
            }
            path.subList(depth, path.size()).clear();
            path.add(node);
        }
        return root;
    }

    /**
     * A line of a ZPL file that could not be read; it names the line and its number (counted from 1 over every
     * line of the file; JeroMQ counts from 0 over the lines that are not blank or comments).
     */
    public static class ReadException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        /** The number of the line. */
        public final int currentLineNumber;
        /** The line. */
        public final String currentLine;

        /**
         * An error on line {@code currentLineNumber}, {@code currentLine}.
         *
         * @param message           what is wrong
         * @param currentLine       the line
         * @param currentLineNumber its number (an {@code AtomicInteger} because JeroMQ's signature has one)
         */
        public ReadException(String message, String currentLine, AtomicInteger currentLineNumber) {
            super(String.format("%s %s: %s", message, currentLineNumber, currentLine));
            this.currentLine = currentLine;
            this.currentLineNumber = currentLineNumber.get();
        }
    }
}
