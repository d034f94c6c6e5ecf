package io.zmtp.jeromq.guide;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The programs are JeroMQ programs: the files this module builds on zmtp-jeromq also build, unchanged, against
 * JeroMQ 0.6.0's jar alone, and they use nothing but its public {@code org.zeromq} API and the JDK.
 */
class CompilesOnJeromqTest {
    private static final Pattern INTERNALS =
            Pattern.compile("(?<![\\w.])(zmq\\.|io\\.netty\\.|io\\.zmtp\\.(?!jeromq\\.guide))");
    private static final Pattern IMPORT = Pattern.compile("^import\\s+(static\\s+)?([\\w.]+)", Pattern.MULTILINE);

    @Test
    void everyProgramBuildsAgainstJeromqsJarAlone() {
        JeromqBuild.Result result = JeromqBuild.compile();

        assertThat(result.errors()).as("javac's errors against JeroMQ 0.6.0").isEmpty();
        assertThat(result.success()).isTrue();
        assertThat(result.sources()).isNotEmpty();
        for (Path source : result.sources()) {
            String name = source.getFileName().toString();
            if (name.equals("package-info.java")) {
                continue;
            }
            String relative = Path.of(JeromqBuild.property("zmtp.guide.sources")).relativize(source).toString();
            Path classFile = result.classes().resolve(relative.replace(".java", ".class"));
            assertThat(classFile).as("class built from " + relative).exists();
        }
    }

    @Test
    void programsImportOnlyJeromqsPublicApiAndTheJdk() throws IOException {
        List<String> foreign = new ArrayList<>();
        for (Path source : JeromqBuild.sources()) {
            Matcher m = IMPORT.matcher(Files.readString(source));
            while (m.find()) {
                String imported = m.group(2);
                boolean allowed = imported.startsWith("java.") || imported.startsWith("org.zeromq.")
                        || imported.startsWith("io.zmtp.jeromq.guide.");
                if (!allowed) {
                    foreign.add(source.getFileName() + ": " + imported);
                }
            }
        }
        // org.zeromq only: not JeroMQ's internals (zmq.*), not netty-zmtp's own API (io.zmtp.*), nor written out in
        // full in the code.
        assertThat(foreign).isEmpty();
        for (Path source : JeromqBuild.sources()) {
            assertThat(INTERNALS.matcher(Files.readString(source)).find()).as(source + " names zmq.* or io.netty.*")
                    .isFalse();
        }
    }
}
