package org.zeromq;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

class ZConfigTest {
    /** The kind of file 4/ZPL shows: comments, containers, quoted and unquoted values, trailing comments. */
    private static final String SAMPLE = String.join("\n",
            "#   A configuration",
            "#   in ZPL",
            "",
            "context",
            "    iothreads = 1",
            "    verbose = 1      #   trace",
            "main",
            "    type = zmq_queue",
            "    frontend",
            "        option",
            "            hwm = 1000",
            "            subscribe = \"#2\"",
            "            quote = 'say \"hi\"'   # single quotes",
            "        bind = tcp://eth0:5555",
            "    backend   # a container with a comment",
            "        bind=inproc://addr3",
            "1st = digits first",
            "");

    private static ZConfig parse(String zpl) throws IOException {
        return ZConfig.load(new StringReader(zpl));
    }

    private static String saved(ZConfig config) throws IOException {
        StringWriter out = new StringWriter();
        config.save(out);
        return out.toString();
    }

    @Test
    void shouldReadTheTreeValuesAndCommentsOfAZplFile() throws IOException {
        ZConfig root = parse(SAMPLE);
        assertThat(root.getName()).isEqualTo("root");
        assertThat(root.getValues()).containsExactly(
                entry("context/iothreads", "1"),
                entry("context/verbose", "1"),
                entry("main/type", "zmq_queue"),
                entry("main/frontend/option/hwm", "1000"),
                entry("main/frontend/option/subscribe", "#2"),
                entry("main/frontend/option/quote", "say \"hi\""),
                entry("main/frontend/bind", "tcp://eth0:5555"),
                entry("main/backend/bind", "inproc://addr3"),
                entry("1st", "digits first"));
        assertThat(root.getChild("main").getChild("frontend").getValue("option/hwm")).isEqualTo("1000");
    }

    @Test
    void shouldFollowPathsIgnoringEmptySegments() throws IOException {
        ZConfig root = parse(SAMPLE);
        assertThat(root.getValue("/main//type")).isEqualTo("zmq_queue");
        assertThat(root.pathExists("main/frontend")).isTrue();
        assertThat(root.pathExists("main/nothing")).isFalse();
        assertThat(root.getValue("main/nothing", "fallback")).isEqualTo("fallback");
        // A node without a value gives null, not the default, as in JeroMQ.
        assertThat(root.getValue("main/frontend", "fallback")).isNull();
        assertThat(root.getChild("nothing")).isNull();
    }

    @Test
    void shouldSaveCommentsAndNodesInOrderWithQuotedValues() throws IOException {
        ZConfig root = new ZConfig("root", null);
        root.addComment("   first comment");
        root.putValue("curve/public-key", "abc");
        root.putValue("/metadata/name", "x y");
        root.getChild("metadata").addComment("on metadata");
        root.putValue("curve/secret-key", "def");
        assertThat(saved(root)).isEqualTo(String.join("\n",
                "#    first comment",
                "",
                "curve",
                "    public-key = \"abc\"",
                "    secret-key = \"def\"",
                "# on metadata",
                "",
                "metadata",
                "    name = \"x y\"",
                ""));
    }

    @Test
    void shouldReadBackWhatItSaves() throws IOException {
        ZConfig root = new ZConfig("root", null);
        root.putValue("a/b/c", "deep");
        root.putValue("a/empty", "");
        root.putValue("a/hash", "# not a comment");
        root.putValue("a/quotes", "\"quoted\" and 'single'");
        root.putValue("z", null);
        root.putValue("a/b/d", "ünïcödé");
        ZConfig back = parse(saved(root));
        assertThat(back.getValues()).isEqualTo(root.getValues());
        assertThat(back.pathExists("z")).isTrue();
        assertThat(back.getValue("z", "default")).isNull();
        assertThat(saved(back)).isEqualTo(saved(root));
    }

    @Test
    void shouldSaveToAFileInANewDirectoryAndLoadItAsUtf8(@TempDir Path dir) throws IOException {
        ZConfig root = new ZConfig("root", null);
        root.putValue("section/value", "\u00e9t\u00e9");
        File file = root.save(dir.resolve("new/sub/config.zpl").toString());
        assertThat(file).exists();
        assertThat(Files.readString(file.toPath(), StandardCharsets.UTF_8)).contains("value = \"\u00e9t\u00e9\"");
        assertThat(ZConfig.load(file.getPath()).getValue("section/value")).isEqualTo("\u00e9t\u00e9");
        // Saving again replaces the file.
        new ZConfig("root", null).save(file.getPath());
        assertThat(ZConfig.load(file.getPath()).getValues()).isEmpty();
    }

    @Test
    void shouldReplaceAChildWithTheSameName() throws IOException {
        ZConfig root = parse("bind = first\nbind = second\n");
        assertThat(root.getValues()).containsExactly(entry("bind", "second"));
        ZConfig parent = new ZConfig("root", null);
        new ZConfig("x", parent).putValue("old", "1");
        new ZConfig("x", parent);
        assertThat(parent.getValues()).isEmpty();
    }

    @Test
    void shouldCopyValuesFromAnotherTree() {
        ZConfig src = new ZConfig("root", null);
        src.putValue("a/b", "1");
        src.putValue("c", "2");
        ZConfig dst = new ZConfig("root", null);
        dst.putValue("c", "old");
        dst.putValues(src);
        assertThat(dst.getValues()).containsOnly(entry("c", "2"), entry("a/b", "1"));
        assertThat(dst.putValue("a/b", "3").getName()).isEqualTo("b");
    }

    @Test
    void shouldRejectALineIndentedTwoLevelsDeeperWithItsLineNumber() {
        assertThatThrownBy(() -> parse("# comment\na\n        b = 1\n"))
                .isInstanceOfSatisfying(ZConfig.ReadException.class, e -> {
                    assertThat(e.currentLineNumber).isEqualTo(3);
                    assertThat(e.currentLine).isEqualTo("        b = 1");
                    assertThat(e).hasMessage("Level mismatch in line 3:         b = 1");
                });
        assertThatThrownBy(() -> parse("    indented first\n")).isInstanceOf(ZConfig.ReadException.class);
    }

    @Test
    void shouldRejectALineThatIsNotZpl() {
        assertThatThrownBy(() -> parse("a\n    bad name! = 1\n"))
                .isInstanceOfSatisfying(ZConfig.ReadException.class,
                        e -> assertThat(e.currentLineNumber).isEqualTo(2));
        assertThatThrownBy(() -> parse("\tname = tab\n")).isInstanceOf(ZConfig.ReadException.class);
    }

    @Test
    void shouldRefuseToStoreWhatZplCannotHold() {
        ZConfig root = new ZConfig("root", null);
        assertThatThrownBy(() -> root.putValue("metadata/bad name", "v"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bad name");
        for (String name : new String[] {"a=b", "a#b", "a\"b", "a'b", "a\nb", "a\tb"}) {
            assertThatThrownBy(() -> root.putValue("metadata/" + name, "v")).as(name)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> root.putValue("metadata/name", "v\ncurve\n    public-key = \"forged\""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("line break");
        assertThat(root.getValues()).isEmpty();
    }

    @Test
    void shouldReadAFileOfThousandsOfLevelsWithoutRecursion() throws IOException {
        StringBuilder zpl = new StringBuilder();
        int depth = 2_000;
        for (int level = 0; level < depth; level++) {
            zpl.append(" ".repeat(level * 4)).append('n').append(level).append('\n');
        }
        ZConfig root = parse(zpl.toString());
        StringBuilder path = new StringBuilder();
        for (int level = 0; level < depth; level++) {
            path.append('n').append(level).append('/');
        }
        assertThat(root.pathExists(path.toString())).isTrue();
        assertThat(saved(root)).isEqualTo(zpl.toString());
    }

    @Test
    void shouldTreatCarriageReturnLineEndsAsLineEnds() throws IOException {
        Map<String, String> values = parse("a\r\n    b = 1\r\nc = 2\r").getValues();
        assertThat(values).containsExactly(entry("a/b", "1"), entry("c", "2"));
    }

    /** JeroMQ's loader skips lines starting with a digit; a heading such as "1. Example" must not fail the file. */
    @Test
    void shouldSkipALineStartingWithADigitThatIsNotAProperty() throws IOException {
        ZConfig root = parse("2. An example heading\n # indented comment \nmeta\n    sub # comment\n        k = v\n");
        assertThat(root.getValues()).containsExactly(entry("meta/sub/k", "v"));
        assertThat(parse("1st = digits first\n").getValue("1st")).isEqualTo("digits first");
    }

    /** Unbalanced quotes stay in the value, as in JeroMQ; balanced ones (either kind) are taken off. */
    @Test
    void shouldKeepAnUnbalancedQuote() throws IOException {
        ZConfig root = parse("a\n    lead = \"x\n    trail = x\"\n    both = 'x'\n");
        assertThat(root.getValues()).containsExactly(entry("a/lead", "\"x"), entry("a/trail", "x\""),
                entry("a/both", "x"));
    }

    /**
     * Names with characters outside ZPL's own, such as the colon of an endpoint used as a path, are stored, found
     * and saved as JeroMQ's are, and read back.
     */
    @Test
    void shouldHoldNamesWithAColon() throws IOException {
        ZConfig root = new ZConfig("root", null);
        root.putValue("inproc://test", "one");
        assertThat(root.pathExists("inproc://test")).isTrue();
        assertThat(root.getValue("inproc:/test")).isEqualTo("one");
        assertThat(parse(saved(root)).getValue("inproc:/test")).isEqualTo("one");
    }
}
